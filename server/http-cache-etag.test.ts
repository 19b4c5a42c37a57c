import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { etagOf } from "./http-cache";

const page = (nonce: string) =>
  Buffer.from(
    `<!DOCTYPE html><html lang="zh-Hant-TW"><script nonce="${nonce}">a()</script><p>漢生活・門市</p><script nonce="${nonce}">b()</script>`,
    "utf8",
  );

describe("etagOf", () => {
  it("is the hash of the page with its nonce blanked, whatever the nonce", () => {
    const a = etagOf(page("OhFQlKraEyDzynKvRZgxqg=="), "OhFQlKraEyDzynKvRZgxqg==");
    const b = etagOf(page("IG/ecDdAPhjFfoTU+/WeMw=="), "IG/ecDdAPhjFfoTU+/WeMw==");
    expect(a).toBe(b);
    // The definition it replaces: a string copy with the nonce removed.
    const blanked = page("§").toString("utf8").split("§").join("");
    expect(a).toBe(`"${createHash("sha256").update(blanked).digest("base64url").slice(0, 27)}"`);
  });

  it("differs when the page differs, and hashes the bytes as they are without a nonce", () => {
    const nonce = "OhFQlKraEyDzynKvRZgxqg==";
    expect(etagOf(Buffer.concat([page(nonce), Buffer.from("!")]), nonce)).not.toBe(etagOf(page(nonce), nonce));
    const body = Buffer.from("plain body 漢", "utf8");
    expect(etagOf(body, undefined)).toBe(`"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`);
    expect(etagOf(Buffer.alloc(0), nonce)).toBe(etagOf(Buffer.alloc(0), undefined));
  });
});
