import { describe, expect, it } from "vitest";
import {
  CARD_STEP_SECONDS,
  cardCode,
  cardCodeText,
  cardStep,
  hotpSha256,
  isCardCode,
  parseCardCode,
  sameCode,
  stepBytes,
} from "./card-code";

const rfcSecret = new TextEncoder().encode("12345678901234567890123456789012");
const member = "0b9c6a4e-7f1d-4c2a-9e3b-5d6f7a8b9c0d";
const device = "f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9";
const secret = Uint8Array.from({ length: 32 }, (_, i) => i * 7 + 1);

describe("the TOTP core (RFC 6238 appendix B, HMAC-SHA-256, 8 digits)", () => {
  it.each([
    [59, "46119246"],
    [1111111109, "68084774"],
    [1111111111, "67062674"],
    [1234567890, "91819424"],
    [2000000000, "90698825"],
    [20000000000, "77737706"],
  ])("at %i s: %s", async (seconds, expected) => {
    expect(await hotpSha256(rfcSecret, stepBytes(cardStep(seconds * 1000)))).toBe(expected);
  });

  it("a wrong secret or a neighbouring step gives another code", async () => {
    const step = stepBytes(cardStep(1234567890_000));
    const other = new TextEncoder().encode("12345678901234567890123456789013");
    expect(await hotpSha256(other, step)).not.toBe("91819424");
    expect(await hotpSha256(rfcSecret, stepBytes(cardStep(1234567890_000) + 1))).not.toBe("91819424");
  });
});

describe("the card code", () => {
  it("steps every 30 s", () => {
    expect(CARD_STEP_SECONDS).toBe(30);
    expect(cardStep(29_999)).toBe(0);
    expect(cardStep(30_000)).toBe(1);
  });

  it("writes HLD1.<device>.<step>.<code> and reads it back, short enough for a typed field of 60", async () => {
    const now = Date.UTC(2026, 11, 6, 4, 0, 10);
    const text = await cardCodeText(secret, member, device, now);
    expect(text).toMatch(/^HLD1\.[A-Za-z0-9_-]{22}\.\d+\.\d{8}$/);
    expect(text.length).toBeLessThanOrEqual(60);
    const parsed = parseCardCode(text);
    expect(parsed).toEqual({
      deviceId: device,
      step: cardStep(now),
      code: await cardCode(secret, member, device, cardStep(now)),
    });
    expect(isCardCode(text)).toBe(true);
  });

  it("signs the member and the device: the same step of another member or device has another code", async () => {
    const step = cardStep(Date.UTC(2026, 11, 6));
    const own = await cardCode(secret, member, device, step);
    expect(await cardCode(secret, device, device, step)).not.toBe(own);
    expect(await cardCode(secret, member, member, step)).not.toBe(own);
  });

  it.each([
    ["empty", ""],
    ["another prefix", "HLD2.AAAAAAAAAAAAAAAAAAAAAA.1.12345678"],
    ["the longer form with the member id written out", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.1.12345678"],
    ["short code", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.1.1234567"],
    ["step with a leading zero", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.01.12345678"],
    ["step beyond 32 bits", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.9999999999.12345678"],
    ["negative step", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.-1.12345678"],
    ["a NUL byte", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.1.1234567\u0000"],
    ["trailing space", "HLD1.AAAAAAAAAAAAAAAAAAAAAA.1.12345678 "],
    ["a second spelling of the same id bytes", "HLD1.AAAAAAAAAAAAAAAAAAAAAB.1.12345678"],
  ])("refuses %s", (_name, text) => {
    expect(parseCardCode(text)).toBeNull();
  });

  it("compares codes in constant time, by value", () => {
    expect(sameCode("12345678", "12345678")).toBe(true);
    expect(sameCode("12345678", "12345679")).toBe(false);
    expect(sameCode("1234567", "12345678")).toBe(false);
  });
});
