import { createHmac, timingSafeEqual } from "node:crypto";
import type { MessageChannel } from "@platform/db/schema/member-messages";

/**
 * The no-login refusal link of marketing messages (issue 16 item 5, ADR 034): a token naming the member and the
 * channel, with an expiry, signed with an HMAC of the app's secret. It is the only credential of
 * `/unsubscribe/<token>` (the page and RFC 8058's one-click POST), so it is unguessable and cannot be altered;
 * it says nothing readable about the member beyond an opaque id.
 */

/** How long a link keeps working: mail is read late, but not forever. */
export const UNSUBSCRIBE_TOKEN_DAYS = 180;

const CHANNEL_CODE: Record<MessageChannel, string> = { line: "l", sms: "s", email: "e" };
const CODE_CHANNEL: Record<string, MessageChannel> = { l: "line", s: "sms", e: "email" };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function signature(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(`han-living/unsubscribe/v1:${payload}`).digest();
}

export function unsubscribeToken(
  secret: string,
  input: { memberId: string; channel: MessageChannel },
  now = new Date(),
): string {
  const expires = Math.floor(now.getTime() / 1000) + UNSUBSCRIBE_TOKEN_DAYS * 24 * 60 * 60;
  const payload = `${input.memberId}.${CHANNEL_CODE[input.channel]}.${expires.toString(36)}`;
  return `${payload}.${signature(secret, payload).toString("base64url")}`;
}

export type UnsubscribeTokenCheck =
  | { ok: true; memberId: string; channel: MessageChannel }
  | { ok: false; reason: "invalid" | "expired" };

export function checkUnsubscribeToken(secret: string, token: string, now = new Date()): UnsubscribeTokenCheck {
  if (token.length > 200) return { ok: false, reason: "invalid" };
  const parts = token.split(".");
  if (parts.length !== 4) return { ok: false, reason: "invalid" };
  const [memberId, code, expires36, sig] = parts as [string, string, string, string];
  const channel = CODE_CHANNEL[code];
  if (!UUID.test(memberId) || !channel || !/^[0-9a-z]{1,10}$/.test(expires36)) return { ok: false, reason: "invalid" };
  let given: Buffer;
  try {
    given = Buffer.from(sig, "base64url");
  } catch {
    return { ok: false, reason: "invalid" };
  }
  const expected = signature(secret, `${memberId}.${code}.${expires36}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  // Checked after the signature: an expired token is told apart only when it is genuine.
  if (Number.parseInt(expires36, 36) * 1000 <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, memberId, channel };
}
