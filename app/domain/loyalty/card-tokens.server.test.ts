import { describe, expect, it } from "vitest";
import { CARD_TOKEN_TTL_SECONDS, issueCardToken, verifyCardToken } from "./card-tokens.server";

const secret = "s".repeat(40);
const memberId = "0b7c2f0e-3a4d-4c1b-9e8f-123456789abc";
const now = new Date("2026-11-22T02:00:00Z");

describe("member card tokens", () => {
  it("round-trips the member id within the validity", () => {
    const { token, expiresAt } = issueCardToken(secret, memberId, now);
    expect(expiresAt.getTime() - now.getTime()).toBe(CARD_TOKEN_TTL_SECONDS * 1000);
    expect(token.length).toBeLessThan(60);
    expect(verifyCardToken(secret, token, new Date(now.getTime() + 44_000))).toEqual({
      ok: true,
      memberId,
      expiresAt,
    });
  });

  it("rejects an expired token", () => {
    const { token } = issueCardToken(secret, memberId, now);
    expect(verifyCardToken(secret, token, new Date(now.getTime() + 45_000))).toEqual({ ok: false, reason: "expired" });
  });

  it("rejects a token signed with another secret or with a changed payload", () => {
    const { token } = issueCardToken("x".repeat(40), memberId, now);
    expect(verifyCardToken(secret, token, now)).toEqual({ ok: false, reason: "forged" });
    const genuine = issueCardToken(secret, memberId, now).token;
    const [payload, signature] = genuine.split(".") as [string, string];
    const bytes = Buffer.from(payload, "base64url");
    bytes.writeUInt32BE(bytes.readUInt32BE(16) + 3600, 16); // extend the expiry by an hour
    expect(verifyCardToken(secret, `${bytes.toString("base64url")}.${signature}`, now)).toEqual({
      ok: false,
      reason: "forged",
    });
  });

  it("accepts only the spelling it issued (base64url's spare bits changed: refused)", () => {
    const { token } = issueCardToken(secret, memberId, now);
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = token.at(-1) as string;
    // The signature's last character holds 4 bits and 2 unused ones: flipping the lowest unused bit
    // keeps the decoded bytes and changes the text.
    const respelt = `${token.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1]}`;
    expect(Buffer.from(respelt.split(".")[1] as string, "base64url")).toEqual(
      Buffer.from(token.split(".")[1] as string, "base64url"),
    );
    expect(verifyCardToken(secret, respelt, now)).toEqual({ ok: false, reason: "forged" });
  });

  it("rejects malformed input", () => {
    for (const bad of ["", "abc", "a.b", `${"A".repeat(27)}.${"B".repeat(23)}`, "💳"]) {
      expect(verifyCardToken(secret, bad, now)).toEqual({ ok: false, reason: "malformed" });
    }
  });
});
