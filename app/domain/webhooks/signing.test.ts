import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signatureHeader, signWebhook, verifyWebhook, webhookMessageId } from "./signing";

/** The Standard Webhooks specification's published test vector. */
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

/** The specification's algorithm written out independently: base64-decode after `whsec_`, HMAC the joined string. */
function specSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.split("_")[1] ?? "", "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

describe("Standard Webhooks signing", () => {
  it("reproduces the specification's test vector", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
    expect(specSignature(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it("verifies the vector, refuses a changed body, another secret and an old timestamp", () => {
    const headers = { id: VECTOR.id, timestamp: String(VECTOR.timestamp), signature: VECTOR.signature };
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body, VECTOR.timestamp + 10)).toBe(true);
    expect(verifyWebhook(VECTOR.secret, headers, '{"test": 2432232315}', VECTOR.timestamp)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), headers, VECTOR.body, VECTOR.timestamp)).toBe(false);
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body, VECTOR.timestamp + 301)).toBe(false);
    expect(verifyWebhook(VECTOR.secret, { ...headers, signature: "v2,abc" }, VECTOR.body, VECTOR.timestamp)).toBe(
      false,
    );
  });

  it("signs with both secrets during a rotation: a receiver holding either one accepts", () => {
    const [next, old] = [newWebhookSecret(), newWebhookSecret()];
    const header = signatureHeader([next, old], "msg_1", 1700000000, "{}");
    expect(header.split(" ")).toHaveLength(2);
    for (const secret of [next, old]) {
      expect(verifyWebhook(secret, { id: "msg_1", timestamp: "1700000000", signature: header }, "{}", 1700000000)).toBe(
        true,
      );
    }
  });

  it("makes secrets in the specification's format and stable message ids", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(webhookMessageId("0b7c9d1e-1111-4222-8333-944445555666")).toBe("msg_0b7c9d1e111142228333944445555666");
  });
});
