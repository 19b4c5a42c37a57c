import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, ADR 054): the secret is `whsec_` + base64 of
 * random bytes, the HMAC key is those bytes, and a signature is `v1,` + base64(HMAC-SHA256(key,
 * `${id}.${timestamp}.${body}`)). Several signatures (a rotation's old and new secret) are separated by spaces.
 */
export const SECRET_PREFIX = "whsec_";

/** A new endpoint secret: 24 random bytes (192 bits; the specification asks for 24 to 64). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString("base64");
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** One `v1,` signature of a message. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The `webhook-signature` header: one signature per valid secret (the current first). */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets.map((s) => signWebhook(s, id, timestamp, body)).join(" ");
}

/** The three headers of a delivery. */
export function webhookHeaders(
  secrets: readonly string[],
  id: string,
  timestamp: number,
  body: string,
): Record<string, string> {
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, id, timestamp, body),
  };
}

/**
 * A receiver's check, as the specification words it (docs/api.md shows the same): the timestamp within
 * `toleranceSeconds` of now, and any one `v1,` signature in the header equal (in constant time) to the expected one.
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!/^\d{1,12}$/.test(headers.timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, timestamp, body).slice(3), "base64");
  return headers.signature.split(" ").some((part) => {
    const [version, value] = part.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export { webhookMessageId } from "./message-id";

/** The body of a delivery: Standard Webhooks' recommended envelope (`type`, `timestamp`, `data`). */
export function webhookBody(eventType: string, occurredAt: Date, data: unknown): string {
  return JSON.stringify({ type: eventType, timestamp: occurredAt.toISOString(), data });
}

/**
 * The same envelope around a payload that is JSON text already (the outbox's jsonb as the database prints it): the
 * worker sends it without parsing and serializing it again. Same members and values as `webhookBody`.
 */
export function webhookBodyOfJson(eventType: string, occurredAt: Date, json: string): string {
  return `{"type":${JSON.stringify(eventType)},"timestamp":"${occurredAt.toISOString()}","data":${json}}`;
}
