import { LINE_ISSUER } from "@platform/config";
import { createLocalJWKSet, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { type IdTokenFlow, verifyLineIdToken } from "./id-token.server";

const CHANNEL_ID = "1234567890";
const SECRET = "0123456789abcdef0123456789abcdef";
const NOW = new Date("2026-11-22T03:00:00Z");
const nowS = Math.floor(NOW.getTime() / 1000);
const SUB = `U${"a".repeat(32)}`;

let privateKey: CryptoKey;
let publicJwk: JWK;
let keys: ReturnType<typeof createLocalJWKSet>;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey as CryptoKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "key-1", alg: "ES256" };
  keys = createLocalJWKSet({ keys: [publicJwk] });
});

type Claims = Record<string, unknown>;
const baseClaims = (): Claims => ({ iss: LINE_ISSUER, aud: CHANNEL_ID, sub: SUB, iat: nowS - 10, exp: nowS + 3600 });

function webToken(claims: Claims = {}, secret = SECRET) {
  return new SignJWT({ ...baseClaims(), nonce: "n-1", ...claims })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .sign(new TextEncoder().encode(secret));
}

function liffToken(claims: Claims = {}, kid = "key-1") {
  return new SignJWT({ ...baseClaims(), ...claims }).setProtectedHeader({ alg: "ES256", kid }).sign(privateKey);
}

const verify = (token: string | null, flow: IdTokenFlow, nonce?: string) =>
  verifyLineIdToken(token, { flow, channelId: CHANNEL_ID, channelSecret: SECRET, keys, nonce, now: NOW });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("verifyLineIdToken: good tokens", () => {
  it("accepts a web (HS256) token with the right nonce and returns the LINE identity", async () => {
    const result = await verify(await webToken({ name: "林小美", email: "a@example.com" }), "web", "n-1");
    expect(result).toMatchObject({ ok: true, identity: { sub: SUB, name: "林小美", email: "a@example.com" } });
  });

  it("accepts a LIFF (ES256) token whose kid is in the JWKS", async () => {
    const result = await verify(await liffToken(), "liff");
    expect(result.ok).toBe(true);
  });
});

describe("verifyLineIdToken: bad input", () => {
  it("refuses a missing token", async () => {
    expect(await verify(null, "liff")).toEqual({ ok: false, reason: "missing" });
    expect(await verify("", "web", "n-1")).toEqual({ ok: false, reason: "missing" });
  });

  it("refuses alg none on both flows", async () => {
    const token = `${b64({ alg: "none", typ: "JWT" })}.${b64(baseClaims())}.`;
    expect(await verify(token, "liff")).toEqual({ ok: false, reason: "alg" });
    expect(await verify(token, "web")).toEqual({ ok: false, reason: "alg" });
  });

  it("refuses HS256 where ES256 is expected, also when signed with the public key", async () => {
    expect(await verify(await webToken(), "liff")).toEqual({ ok: false, reason: "alg" });
    const withPublicKey = await new SignJWT({ ...baseClaims() })
      .setProtectedHeader({ alg: "HS256", kid: "key-1" })
      .sign(new TextEncoder().encode(JSON.stringify(publicJwk)));
    expect(await verify(withPublicKey, "liff")).toEqual({ ok: false, reason: "alg" });
  });

  it("refuses ES256 where HS256 is expected (web login)", async () => {
    expect(await verify(await liffToken({ nonce: "n-1" }), "web", "n-1")).toEqual({ ok: false, reason: "alg" });
  });

  it("refuses an HS256 token signed with another secret", async () => {
    const token = await webToken({}, "ffffffffffffffffffffffffffffffff");
    expect(await verify(token, "web", "n-1")).toEqual({ ok: false, reason: "signature" });
  });

  it("refuses a wrong audience", async () => {
    expect(await verify(await liffToken({ aud: "999" }), "liff")).toEqual({ ok: false, reason: "aud" });
    expect(await verify(await webToken({ aud: "999" }), "web", "n-1")).toEqual({ ok: false, reason: "aud" });
  });

  it("refuses a wrong issuer", async () => {
    expect(await verify(await liffToken({ iss: "https://evil.example" }), "liff")).toEqual({
      ok: false,
      reason: "iss",
    });
    expect(await verify(await webToken({ iss: "https://access.line.me.evil" }), "web", "n-1")).toEqual({
      ok: false,
      reason: "iss",
    });
  });

  it("refuses an expired token (beyond the clock skew) but tolerates a few seconds", async () => {
    expect(await verify(await liffToken({ exp: nowS - 60, iat: nowS - 3600 }), "liff")).toEqual({
      ok: false,
      reason: "exp",
    });
    expect((await verify(await liffToken({ exp: nowS - 5 }), "liff")).ok).toBe(true);
  });

  it("refuses an iat in the future", async () => {
    expect(await verify(await liffToken({ iat: nowS + 600 }), "liff")).toEqual({ ok: false, reason: "iat" });
    expect(await verify(await webToken({ iat: nowS + 600 }), "web", "n-1")).toEqual({ ok: false, reason: "iat" });
  });

  it("refuses an unknown kid and a LIFF token without kid", async () => {
    expect(await verify(await liffToken({}, "other-key"), "liff")).toEqual({ ok: false, reason: "kid" });
    const noKid = await new SignJWT({ ...baseClaims() }).setProtectedHeader({ alg: "ES256" }).sign(privateKey);
    expect(await verify(noKid, "liff")).toEqual({ ok: false, reason: "kid" });
  });

  it("refuses a tampered payload (signature no longer matches)", async () => {
    const [header, , signature] = (await liffToken()).split(".");
    const tampered = `${header}.${b64({ ...baseClaims(), sub: `U${"b".repeat(32)}` })}.${signature}`;
    expect(await verify(tampered, "liff")).toEqual({ ok: false, reason: "signature" });
    const [wh, , ws] = (await webToken()).split(".");
    expect(
      await verify(`${wh}.${b64({ ...baseClaims(), nonce: "n-1", sub: `U${"c".repeat(32)}` })}.${ws}`, "web", "n-1"),
    ).toEqual({
      ok: false,
      reason: "signature",
    });
  });

  it("refuses a wrong or missing nonce where the flow has one", async () => {
    expect(await verify(await webToken(), "web", "n-2")).toEqual({ ok: false, reason: "nonce" });
    expect(await verify(await webToken({ nonce: undefined }), "web", "n-1")).toEqual({ ok: false, reason: "nonce" });
  });

  it("refuses garbage", async () => {
    expect(await verify("not-a-jwt", "liff")).toEqual({ ok: false, reason: "malformed" });
  });
});
