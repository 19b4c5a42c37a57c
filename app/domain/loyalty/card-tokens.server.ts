import { createHmac, type KeyObject, timingSafeEqual } from "node:crypto";
import type { Database } from "@platform/db/client";
import { member } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { isCardCode } from "~/lib/card-code";
import { derivedKey } from "~/lib/derived-key.server";
import { qrSvg } from "~/lib/qr.server";
import { type DeviceRefusal, verifyDeviceCode } from "./card-devices.server";
import type { CardTokenPayload } from "./card-token-payload";

/**
 * Member card tokens for the rotating QR code: base64url(member id (16 bytes) ‖ expiry (uint32,
 * Unix seconds)) "." base64url(first 16 bytes of HMAC-SHA256). The key is derived from the server
 * secret (HKDF, its own label), so a card token can never be confused with another signature.
 * 45 seconds of validity: a screenshot stops working almost at once.
 */
export const CARD_TOKEN_TTL_SECONDS = 45;

// A KeyObject, not a Buffer: createHmac with a Buffer key wraps it in a new key object each call
// (≈ 5× the cost of the HMAC itself; the member center signs a card token on every render).
function cardKey(secret: string): KeyObject {
  return derivedKey(secret, "member-card-token v1");
}

function sign(secret: string, payload: Buffer): Buffer {
  return createHmac("sha256", cardKey(secret)).update(payload).digest().subarray(0, 16);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function issueCardToken(secret: string, memberId: string, now = new Date()): { token: string; expiresAt: Date } {
  if (!UUID.test(memberId)) throw new Error("member id must be a UUID");
  const expires = Math.floor(now.getTime() / 1000) + CARD_TOKEN_TTL_SECONDS;
  const payload = Buffer.alloc(20);
  Buffer.from(memberId.replace(/-/g, ""), "hex").copy(payload, 0);
  payload.writeUInt32BE(expires, 16);
  return {
    token: `${payload.toString("base64url")}.${sign(secret, payload).toString("base64url")}`,
    expiresAt: new Date(expires * 1000),
  };
}

export type CardTokenCheck =
  | { ok: true; memberId: string; expiresAt: Date }
  | { ok: false; reason: "malformed" | "forged" | "expired" };

/** Verifies the signature first (constant time), then the expiry. */
export function verifyCardToken(secret: string, token: string, now = new Date()): CardTokenCheck {
  const match = /^([A-Za-z0-9_-]{27})\.([A-Za-z0-9_-]{22})$/.exec(token.trim());
  if (!match) return { ok: false, reason: "malformed" };
  const payload = Buffer.from(match[1]!, "base64url");
  const signature = Buffer.from(match[2]!, "base64url");
  if (payload.length !== 20 || signature.length !== 16) return { ok: false, reason: "malformed" };
  // One spelling per token: base64url's last character carries unused bits, and a token whose
  // spelling differs (same bytes) is not the token we issued.
  if (payload.toString("base64url") !== match[1] || signature.toString("base64url") !== match[2]) {
    return { ok: false, reason: "forged" };
  }
  if (!timingSafeEqual(signature, sign(secret, payload))) return { ok: false, reason: "forged" };
  const expires = payload.readUInt32BE(16);
  if (expires * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  const hex = payload.subarray(0, 16).toString("hex");
  const memberId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { ok: true, memberId, expiresAt: new Date(expires * 1000) };
}

export type ResolvedCard =
  | { ok: true; member: typeof member.$inferSelect }
  | {
      ok: false;
      reason: "malformed" | "forged" | "expired" | "unknown_member" | "member_disabled" | DeviceRefusal;
      /** The member whose offline card device the code names, when that device exists. */
      memberId?: string;
    };

/**
 * What the POS and staff do with a scanned card: the member, or why not. Two kinds of card code: the server's
 * token (the member center online) and the offline card's device code (`HLD1.…`, ADR 043), told apart by prefix.
 */
export async function resolveCardToken(
  db: Database,
  secret: string,
  token: string,
  now = new Date(),
): Promise<ResolvedCard> {
  if (isCardCode(token)) return verifyDeviceCode(db, secret, token, now);
  const check = verifyCardToken(secret, token, now);
  if (!check.ok) return check;
  const [found] = await db.select().from(member).where(eq(member.id, check.memberId));
  if (!found) return { ok: false, reason: "unknown_member" };
  if (found.disabled) return { ok: false, reason: "member_disabled" };
  return { ok: true, member: found };
}

/** A fresh token with its QR code (SVG markup rendered here, so the browser ships no QR encoder). */
export function cardTokenPayload(secret: string, memberId: string, now = new Date()): CardTokenPayload {
  const { token, expiresAt } = issueCardToken(secret, memberId, now);
  return { token, svg: qrSvg(token), expiresAt: expiresAt.toISOString(), issuedAt: now.toISOString() };
}
