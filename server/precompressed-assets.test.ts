import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressedAssets } from "./precompressed-assets";

const script = `export const greeting = "${"漢生活・會員中心 ".repeat(300)}";\n`;
const style = `.card{color:#333}\n`.repeat(300);
let dir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "precompressed-"));
  writeFileSync(path.join(dir, "shell-abc.js"), script);
  writeFileSync(path.join(dir, "shell-abc.js.br"), brotliCompressSync(script));
  writeFileSync(path.join(dir, "shell-abc.js.gz"), gzipSync(script));
  writeFileSync(path.join(dir, "root-abc.css"), style);
  writeFileSync(path.join(dir, "root-abc.css.br"), brotliCompressSync(style));
  writeFileSync(path.join(dir, "gone-abc.js"), script);
  writeFileSync(path.join(dir, "gone-abc.js.br"), brotliCompressSync(script));
  writeFileSync(path.join(dir, "plain-abc.js"), "export {};\n");
  const app = express();
  app.use("/assets", precompressedAssets(dir, express.static(dir, { immutable: true, maxAge: "1y", index: false })));
  app.use((_req, res) => {
    res.status(404).type("text").send("not here");
  });
  // A copy listed at start that has since gone: the original is served as it is.
  rmSync(path.join(dir, "gone-abc.js.br"));
  server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

type Answer = { status: number; headers: Headers; body: Buffer };

/** The raw answer (fetch() would decode the body and drop its encoding). */
function get(file: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request(
      `${base}/assets/${file}`,
      { headers: { "accept-encoding": "identity", ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const answerHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === "string") answerHeaders.set(name, value);
          }
          resolve({ status: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) });
        });
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("precompressed assets", () => {
  it("sends a browser the brotli copy with the original's type and the copy's length", async () => {
    const original = await get("shell-abc.js", {});
    const answer = await get("shell-abc.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-encoding")).toBe("br");
    expect(answer.headers.get("content-type")).toBe(original.headers.get("content-type"));
    expect(answer.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(answer.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(Number(answer.headers.get("content-length"))).toBe(answer.body.length);
    expect(answer.headers.get("etag")).not.toBe(original.headers.get("etag"));
    expect(brotliDecompressSync(answer.body).toString("utf8")).toBe(script);
  });

  it("sends gzip to a client that takes only gzip, and the file itself to one that takes neither", async () => {
    const gzipped = await get("shell-abc.js", { "accept-encoding": "gzip" });
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(gzipped.body).toString("utf8")).toBe(script);

    const weighed = await get("shell-abc.js", { "accept-encoding": "br;q=0.1, gzip" });
    expect(weighed.headers.get("content-encoding")).toBe("gzip");

    const plain = await get("shell-abc.js", { "accept-encoding": "identity" });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toMatch(/Accept-Encoding/);
    expect(plain.body.toString("utf8")).toBe(script);

    // Only a brotli copy of the stylesheet: a gzip-only client gets it unencoded.
    const css = await get("root-abc.css", { "accept-encoding": "gzip" });
    expect(css.headers.get("content-encoding")).toBeNull();
    expect(css.headers.get("content-type")).toMatch(/^text\/css/);
    expect(css.body.toString("utf8")).toBe(style);
  });

  it("answers ranges and revalidations of the copy it chose", async () => {
    const full = await get("root-abc.css", { "accept-encoding": "br" });
    const range = await get("root-abc.css", { "accept-encoding": "br", range: "bytes=0-9" });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-encoding")).toBe("br");
    expect(range.body).toEqual(full.body.subarray(0, 10));

    const again = await get("root-abc.css", {
      "accept-encoding": "br",
      "if-none-match": full.headers.get("etag") ?? "",
    });
    expect(again.status).toBe(304);
  });

  it("serves files without copies as they are, never a copy by its own name, and survives a copy that went", async () => {
    const plain = await get("plain-abc.js", { "accept-encoding": "br" });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.body.toString("utf8")).toBe("export {};\n");

    for (const name of ["shell-abc.js.br", "shell-abc.js.gz"]) {
      const direct = await get(name, { "accept-encoding": "br, gzip" });
      expect(direct.status).toBe(404);
      expect(direct.headers.get("content-encoding")).toBeNull();
    }

    const gone = await get("gone-abc.js", { "accept-encoding": "br" });
    expect(gone.status).toBe(200);
    expect(gone.headers.get("content-encoding")).toBeNull();
    expect(gone.body.toString("utf8")).toBe(script);

    const missing = await get("missing-abc.js", { "accept-encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-encoding")).toBeNull();
  });
});
