import { createHmac, timingSafeEqual } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { campaignClick, campaignLink, memberMessage } from "@platform/db/schema";
import { and, eq, sql } from "drizzle-orm";
import type { CampaignTexts } from "./compose.server";

/**
 * The click links of campaign messages (issue 38 part 5, ADR 055). When a campaign's audience is taken, the web
 * addresses in its LINE text and e-mail body are stored (`campaign_link`, numbered in order); each member's
 * message then carries `/r/<token>` instead of each address, the token naming that member's message and the
 * link's number, signed with an HMAC of the app's secret (unforgeable, nothing stored per link and member).
 * Opening it records the member's first click on that message in ONE `insert … on conflict do nothing` and
 * redirects to the address stored for the campaign — never to one read from the request.
 */

/** At most this many distinct links per campaign are tracked (the rest stay as written). */
export const MAX_CAMPAIGN_LINKS = 20;

const MAC_BYTES = 12;
/** 16 bytes of message id, 1 of link number, 12 of signature: 29 bytes, 39 base64url characters. */
export const CLICK_TOKEN = /^[A-Za-z0-9_-]{39}$/;

/** http(s) addresses as a reader (and a phone) sees them; trailing punctuation is not part of the address. */
const URL_IN_TEXT = /https?:\/\/[^\s<>"'`\u3000-\u303f\uff01-\uff0f\uff1a-\uff20]+/gi;
const TRAILING = /[.,;:!?)\]}'"]+$/;

function mac(secret: string, body: Buffer): Buffer {
  return createHmac("sha256", secret)
    .update("han-living/campaign-click/v1:")
    .update(body)
    .digest()
    .subarray(0, MAC_BYTES);
}

function uuidBytes(id: string): Buffer {
  return Buffer.from(id.replace(/-/g, ""), "hex");
}

function uuidOf(bytes: Buffer): string {
  const h = bytes.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The token of one link in one member's message. */
export function clickToken(secret: string, messageId: string, idx: number): string {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(messageId)) {
    throw new RangeError("message id is not a uuid");
  }
  if (!Number.isInteger(idx) || idx < 0 || idx > 255) throw new RangeError("link number out of range");
  const body = Buffer.concat([uuidBytes(messageId.toLowerCase()), Buffer.from([idx])]);
  return Buffer.concat([body, mac(secret, body)]).toString("base64url");
}

/** The message and link a token names, or null when it is malformed, altered or forged. */
export function readClickToken(secret: string, token: string): { messageId: string; idx: number } | null {
  if (!CLICK_TOKEN.test(token)) return null;
  const raw = Buffer.from(token, "base64url");
  // Only the one spelling of the bytes (the last character's spare bits zero): no two tokens for one link.
  if (raw.length !== 29 || raw.toString("base64url") !== token) return null;
  const body = raw.subarray(0, 17);
  const given = raw.subarray(17);
  if (!timingSafeEqual(given, mac(secret, body))) return null;
  return { messageId: uuidOf(body.subarray(0, 16)), idx: body[16] as number };
}

/** The addresses in a text, in order of appearance. */
export function linksIn(text: string | null): string[] {
  if (!text) return [];
  return [...text.matchAll(URL_IN_TEXT)].map((m) => m[0].replace(TRAILING, "")).filter((u) => URL.canParse(u));
}

/** A campaign's tracked links: the distinct addresses of its LINE text, then of its e-mail body (SMS has none). */
export function campaignLinks(c: Pick<CampaignTexts, "lineText" | "emailBody">): string[] {
  return [...new Set([...linksIn(c.lineText), ...linksIn(c.emailBody)])].slice(0, MAX_CAMPAIGN_LINKS);
}

/** The text with each tracked address replaced by this message's click link. */
export function trackLinks(
  text: string | null,
  links: readonly string[],
  link: (idx: number) => string,
): string | null {
  if (!text || links.length === 0) return text;
  return text.replace(URL_IN_TEXT, (found) => {
    const address = found.replace(TRAILING, "");
    const idx = links.indexOf(address);
    return idx < 0 ? found : `${link(idx)}${found.slice(address.length)}`;
  });
}

/** A campaign's texts as one member's message carries them: every tracked address through `/r/<token>`. */
export function trackedTexts<T extends CampaignTexts>(
  c: T,
  links: readonly string[],
  ctx: { secret: string; publicBaseUrl: string },
  messageId: string,
): T {
  if (links.length === 0) return c;
  const link = (idx: number) => new URL(`/r/${clickToken(ctx.secret, messageId, idx)}`, ctx.publicBaseUrl).toString();
  return { ...c, lineText: trackLinks(c.lineText, links, link), emailBody: trackLinks(c.emailBody, links, link) };
}

/** Stores a campaign's links (in the transaction that takes its audience); again for the same campaign, nothing. */
export async function storeCampaignLinks(
  t: Database,
  campaignId: string,
  c: Pick<CampaignTexts, "lineText" | "emailBody">,
): Promise<void> {
  const links = campaignLinks(c);
  if (links.length === 0) return;
  await t
    .insert(campaignLink)
    .values(links.map((url, idx) => ({ campaignId, idx, url })))
    .onConflictDoNothing();
}

/** The stored links of these campaigns, in order. */
export async function linksOf(db: Database, campaignIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (campaignIds.length === 0) return out;
  const rows = await db
    .select()
    .from(campaignLink)
    .where(
      sql`${campaignLink.campaignId} in (${sql.join(
        campaignIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`,
    )
    .orderBy(campaignLink.campaignId, campaignLink.idx);
  for (const r of rows) out.set(r.campaignId, [...(out.get(r.campaignId) ?? []), r.url]);
  return out;
}

/**
 * A click: the address to send the member on to, or null for a token that names nothing (forged, altered, or a
 * message or link that is gone). The first click on the message is recorded, once, by one statement.
 */
export async function recordClick(
  db: Database,
  secret: string,
  token: string,
  now = new Date(),
): Promise<{ url: string; first: boolean } | null> {
  const named = readClickToken(secret, token);
  if (!named) return null;
  const [target] = await db
    .select({ url: campaignLink.url, campaignId: memberMessage.campaignId, memberId: memberMessage.memberId })
    .from(memberMessage)
    .innerJoin(
      campaignLink,
      and(eq(campaignLink.campaignId, memberMessage.campaignId), eq(campaignLink.idx, named.idx)),
    )
    .where(eq(memberMessage.id, named.messageId));
  if (!target?.campaignId) return null;
  const inserted = await db.execute(sql`
    insert into ${campaignClick} (message_id, campaign_id, member_id, link_idx, clicked_at)
    values (${named.messageId}::uuid, ${target.campaignId}::uuid, ${target.memberId}::uuid, ${named.idx},
            ${now.toISOString()}::timestamptz)
    on conflict (message_id) do nothing
    returning 1`);
  return { url: target.url, first: rowsOf(inserted).length === 1 };
}
