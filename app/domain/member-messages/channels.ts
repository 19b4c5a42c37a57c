import type { MessageChannel } from "@platform/db/schema/member-message-kinds";
import { fromTaipeiWallClock, taipeiDate, taipeiParts } from "~/lib/time";

/**
 * Which channel carries a member's message (issue 16 item 3, ADR 034), and the quiet hours of marketing. Pure.
 *
 * LINE if the member linked LINE and follows the Official Account, else a text message, else e-mail — among the
 * channels the message may use. A service message (points, coupons, receipts) goes by the first of them that
 * reaches the member, per the terms; a marketing message only by a channel the member opted in to.
 */

export const CHANNEL_ORDER: readonly MessageChannel[] = ["line", "sms", "email"];

export type Reach = {
  /** Linked LINE and follows the Official Account (and LINE messages are on). */
  line: boolean;
  /** Has a mobile number (every member does, unless deleted). */
  sms: boolean;
  /** Has a verified e-mail address. */
  email: boolean;
};

export type MarketingConsent = { line: boolean; sms: boolean; email: boolean };

export type ChannelChoice = { ok: true; channel: MessageChannel } | { ok: false; reason: "unreachable" | "opted-out" };

export function chooseChannel(
  purpose: "service" | "marketing",
  allowed: readonly MessageChannel[],
  reach: Reach,
  consent: MarketingConsent,
): ChannelChoice {
  let reachable = false;
  for (const channel of CHANNEL_ORDER) {
    if (!allowed.includes(channel) || !reach[channel]) continue;
    reachable = true;
    if (purpose === "service" || consent[channel]) return { ok: true, channel };
  }
  return { ok: false, reason: reachable ? "opted-out" : "unreachable" };
}

/** Marketing is never sent 21:00–09:00 Asia/Taipei (PRODUCT.md §11). */
export const QUIET_FROM_HOUR = 21;
export const QUIET_UNTIL_HOUR = 9;

export function inQuietHours(instant: Date): boolean {
  const { hour } = taipeiParts(instant);
  return hour >= QUIET_FROM_HOUR || hour < QUIET_UNTIL_HOUR;
}

/** The end of the quiet hours an instant falls in (the next 09:00 in Taipei); the instant itself outside them. */
export function quietHoursEnd(instant: Date): Date {
  if (!inQuietHours(instant)) return instant;
  const { hour } = taipeiParts(instant);
  const today = taipeiDate(instant);
  const nine = fromTaipeiWallClock(today, QUIET_UNTIL_HOUR);
  if (hour < QUIET_UNTIL_HOUR) return nine;
  return new Date(nine.getTime() + 24 * 60 * 60 * 1000);
}

/** Marketing messages a member may get in one Taipei calendar week (Monday to Sunday) by default. */
export const DEFAULT_WEEKLY_MARKETING_CAP = 2;

/** The Monday 00:00 (Taipei) of the week an instant falls in: the window of the weekly marketing cap. */
export function taipeiWeekStart(instant: Date): Date {
  const { weekday } = taipeiParts(instant);
  const today = fromTaipeiWallClock(taipeiDate(instant));
  const sinceMonday = (weekday + 6) % 7;
  return new Date(today.getTime() - sinceMonday * 24 * 60 * 60 * 1000);
}
