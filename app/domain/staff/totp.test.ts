import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totp, totpStep } from "./totp";

// RFC 6238 Appendix B: the seeds are the ASCII strings below; 8 digits.
const SEED_SHA1 = Buffer.from("12345678901234567890");
const SEED_SHA256 = Buffer.from("12345678901234567890123456789012");
const SEED_SHA512 = Buffer.from("1234567890123456789012345678901234567890123456789012345678901234");
const VECTORS: [number, string, string, string][] = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
];

describe("TOTP (RFC 6238)", () => {
  it.each(VECTORS)("at %i s gives the RFC's codes for SHA-1, SHA-256 and SHA-512", (seconds, sha1, sha256, sha512) => {
    const at = new Date(seconds * 1000);
    expect(totp(SEED_SHA1, at, { digits: 8, algorithm: "sha1" })).toBe(sha1);
    expect(totp(SEED_SHA256, at, { digits: 8, algorithm: "sha256" })).toBe(sha256);
    expect(totp(SEED_SHA512, at, { digits: 8, algorithm: "sha512" })).toBe(sha512);
  });

  it("gives RFC 4226's HOTP values (Appendix D)", () => {
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ];
    expect(expected.map((_, counter) => hotp(SEED_SHA1, counter))).toEqual(expected);
  });

  it("round-trips base32 (RFC 4648 vectors)", () => {
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(base32Decode("MZXW6YTBOI").toString()).toBe("foobar");
    expect(base32Decode("mzxw 6ytb-oi").toString()).toBe("foobar");
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it("accepts the current code and one step of drift either side, nothing further", () => {
    const secret = base32Encode(SEED_SHA1);
    const at = new Date(1_700_000_000_000);
    const step = totpStep(at);
    const codeAt = (s: number) => hotp(SEED_SHA1, s);
    expect(matchTotp(secret, codeAt(step), at)).toBe(step);
    expect(matchTotp(secret, codeAt(step - 1), at)).toBe(step - 1);
    expect(matchTotp(secret, codeAt(step + 1), at)).toBe(step + 1);
    expect(matchTotp(secret, codeAt(step - 2), at)).toBeNull();
    expect(matchTotp(secret, codeAt(step + 2), at)).toBeNull();
    expect(matchTotp(secret, "12345", at)).toBeNull();
    expect(matchTotp(secret, "abcdef", at)).toBeNull();
  });

  it("writes an otpauth URI authenticator apps understand", () => {
    const uri = otpauthUri("JBSWY3DPEHPK3PXP", "clerk@example.com", "漢生活 Console");
    expect(uri).toMatch(/^otpauth:\/\/totp\/%E6%BC%A2%E7%94%9F%E6%B4%BB%20Console:clerk%40example\.com\?/);
    const params = new URL(uri).searchParams;
    expect(params.get("secret")).toBe("JBSWY3DPEHPK3PXP");
    expect(params.get("digits")).toBe("6");
    expect(params.get("period")).toBe("30");
  });
});
