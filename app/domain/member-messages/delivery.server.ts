import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import {
  AUTOMATIC_KINDS,
  type AutomaticKind,
  authAccount,
  campaign,
  lineFriend,
  loyaltyAccount,
  type MessageChannel,
  type MessageStatus,
  member,
  memberMessage,
  rateLimitCounter,
  store,
} from "@platform/db/schema";
import { dueBy } from "@platform/jobs/due";
import type { Logger } from "@platform/logger";
import { countMessage } from "@platform/metrics";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Locale } from "~/lib/i18n";
import { isLocale } from "~/lib/i18n";
import type { LineMessagingClient } from "../line/messaging.server";
import { LINE_MULTICAST_MAX } from "../line/messaging.server";
import type { EmailTransport } from "../messaging/email-transport.server";
import { DeliveryError, MessageRejectedError } from "../messaging/errors";
import { composeSms } from "../messaging/sms";
import type { SmsProvider } from "../messaging/sms-provider";
import { finishCampaigns, startDueCampaigns } from "./campaigns.server";
import {
  chooseChannel,
  DEFAULT_WEEKLY_MARKETING_CAP,
  inQuietHours,
  type MarketingConsent,
  quietHoursEnd,
  type Reach,
  taipeiWeekStart,
} from "./channels";
import { linksOf, trackedTexts } from "./click-links.server";
import {
  type CampaignTexts,
  type ComposeContext,
  campaignChannels,
  campaignEmail,
  campaignLineMessages,
  campaignSmsText,
  composeAutomatic,
  type Outgoing,
  type Recipient,
} from "./compose.server";
import { type AutomaticSetting, automaticSettings } from "./settings.server";

/**
 * The delivery of messages to members (issue 16 items 3–6, ADR 034). `member_message` is the queue: a row is
 * claimed with `for update skip locked` (one instance sends it), its channel chosen at that moment from the
 * member's current consent and reach (a refusal made after it was queued stops it), the weekly marketing cap
 * claimed in one atomic statement, and then it is sent:
 *
 * - LINE with an `X-Line-Retry-Key` stored on the row before the call, so a retry after a lost answer, a crash or a
 *   429 sends the same key (LINE answers 409: delivered once). Campaign rows go as multicasts of up to 500 that
 *   share a key; automatic ones as pushes, each after a profile check (LINE takes a push to someone who blocked
 *   the account and drops it: a 404 marks the member unreachable on LINE and the next channel carries it).
 * - SMS and e-mail with the row id as the provider's idempotency key (Mitake's clientid, the outbox's unique key,
 *   the e-mail's Message-ID).
 *
 * A retryable failure puts the row back with a back-off; a permanent one, or the last attempt, marks it failed.
 * A claim older than five minutes (an instance that died mid-send) is taken over, key and all.
 */

export type DeliveryDeps = {
  db: Database;
  /** Null when LINE messages are off (no Messaging channel in production): the other channels carry everything. */
  line: LineMessagingClient | null;
  sms: SmsProvider;
  email: EmailTransport;
  /** Signs the unsubscribe links. */
  secret: string;
  publicBaseUrl: string;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  weeklyCap?: number;
  /** Provider calls in flight at once (default 4). */
  concurrency?: number;
  /** Rows claimed at a time (default 500, a multicast's worth). */
  batchSize?: number;
  /**
   * Awaited before each provider call and after each batch (with the batch's duration): the server lets the
   * requests it is serving go first, and while it serves pages spreads the batches out.
   */
  pace?: (workMs?: number) => Promise<void>;
};

export const MAX_ATTEMPTS = 8;
const STALE_CLAIM_MS = 5 * 60_000;

/** Seconds to wait before the next attempt: 30 s, 1 min, 2 min … at most an hour. */
export function backoffSeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);
}

type ClaimedRow = {
  id: string;
  memberId: string;
  kind: string;
  campaignId: string | null;
  purpose: "service" | "marketing";
  channel: MessageChannel | null;
  data: Record<string, string | number>;
  retryKey: string | null;
  attempts: number;
};

type MemberInfo = {
  id: string;
  name: string;
  locale: Locale;
  phone: string;
  email: string | null;
  active: boolean;
  consent: MarketingConsent;
  lineUserId: string | null;
  following: boolean;
  balance: number;
};

type Outcome =
  | { id: string; status: "sent"; channel: MessageChannel }
  | {
      id: string;
      status: Exclude<MessageStatus, "sent" | "queued" | "held" | "sending">;
      channel: MessageChannel | null;
      error: string;
    }
  | { id: string; status: "retry"; channel: MessageChannel | null; error: string; attempts: number };

export type DeliveryReport = { claimed: number; sent: number; retried: number; skipped: number };

/** Claims and sends every message due at `now`, batch after batch, until none is left. */
export async function deliverDue(
  deps: DeliveryDeps,
  now = new Date(),
  options: { maxBatches?: number } = {},
): Promise<DeliveryReport> {
  const report: DeliveryReport = { claimed: 0, sent: 0, retried: 0, skipped: 0 };
  let batches = 0;
  const claimer = randomUUID();
  // Campaigns whose time has come queue their audience first (one instance each).
  await startDueCampaigns(deps.db, now);
  const quiet = inQuietHours(now);
  if (quiet) await holdMarketing(deps.db, now);
  for (;;) {
    if (options.maxBatches !== undefined && batches++ >= options.maxBatches) break;
    const batchStarted = performance.now();
    const rows = await claim(deps.db, claimer, now, quiet, deps.batchSize ?? 500);
    if (rows.length === 0) break;
    report.claimed += rows.length;
    const outcomes = await deliverBatch(deps, rows, now);
    for (const o of outcomes) {
      if (o.status === "sent") report.sent++;
      else if (o.status === "retry") report.retried++;
      else report.skipped++;
    }
    await record(deps.db, outcomes, now);
    await finishCampaigns(
      deps.db,
      [...new Set(rows.map((r) => r.campaignId).filter((id): id is string => id !== null))],
      now,
    );
    // Let the member pages this instance serves go first between batches.
    await new Promise((resolve) => setImmediate(resolve));
    await deps.pace?.(performance.now() - batchStarted);
  }
  return report;
}

/** In the quiet hours (21:00–09:00 Taipei) marketing that falls due waits until 09:00, as `held`. */
async function holdMarketing(db: Database, now: Date): Promise<void> {
  await db
    .update(memberMessage)
    .set({ status: "held", dueAt: quietHoursEnd(now), updatedAt: now })
    .where(
      and(
        eq(memberMessage.status, "queued"),
        eq(memberMessage.purpose, "marketing"),
        sql`${memberMessage.dueAt} < ${dueBy(now)}`,
      ),
    );
}

async function claim(db: Database, claimer: string, now: Date, quiet: boolean, limit: number): Promise<ClaimedRow[]> {
  const at = now.toISOString();
  const stale = new Date(now.getTime() - STALE_CLAIM_MS).toISOString();
  const result = await db.execute(sql`
    update ${memberMessage} m
       set status = 'sending', claim_job = ${claimer}, claimed_at = ${at}::timestamptz,
           attempts = m.attempts + 1, updated_at = ${at}::timestamptz
      from (select id from ${memberMessage}
             where ((status in ('queued', 'held') and due_at < ${dueBy(now)})
                    or (status = 'sending' and claimed_at < ${stale}::timestamptz))
               ${quiet ? sql`and purpose = 'service'` : sql``}
             order by due_at
             limit ${limit}
             for update skip locked) c
     where m.id = c.id
    returning m.id, m.member_id, m.kind, m.campaign_id, m.purpose, m.channel, m.data, m.retry_key, m.attempts`);
  return rowsOf<{
    id: string;
    member_id: string;
    kind: string;
    campaign_id: string | null;
    purpose: "service" | "marketing";
    channel: MessageChannel | null;
    data: Record<string, string | number> | string;
    retry_key: string | null;
    attempts: number;
  }>(result).map((r) => ({
    id: r.id,
    memberId: r.member_id,
    kind: r.kind,
    campaignId: r.campaign_id,
    purpose: r.purpose,
    channel: r.channel,
    data: typeof r.data === "string" ? (JSON.parse(r.data) as Record<string, string | number>) : (r.data ?? {}),
    retryKey: r.retry_key,
    attempts: Number(r.attempts),
  }));
}

async function membersOf(db: Database, ids: string[]): Promise<Map<string, MemberInfo>> {
  const rows = await db
    .select({
      id: member.id,
      name: member.nameZh,
      locale: member.locale,
      phone: member.phoneNumber,
      email: member.email,
      disabled: member.disabled,
      deletedAt: member.deletedAt,
      marketingSms: member.marketingSms,
      marketingEmail: member.marketingEmail,
      marketingLine: member.marketingLine,
      lineUserId: authAccount.accountId,
      following: lineFriend.following,
      balance: loyaltyAccount.balance,
    })
    .from(member)
    .leftJoin(authAccount, and(eq(authAccount.userId, member.userId), eq(authAccount.providerId, "line")))
    .leftJoin(lineFriend, eq(lineFriend.lineUserId, authAccount.accountId))
    .leftJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id))
    .where(inArray(member.id, ids));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        locale: isLocale(r.locale) ? r.locale : "zh-TW",
        phone: r.phone,
        email: r.email,
        active: !r.disabled && r.deletedAt === null,
        consent: { sms: r.marketingSms, email: r.marketingEmail, line: r.marketingLine },
        lineUserId: r.lineUserId,
        following: r.following === true,
        balance: r.balance ?? 0,
      },
    ]),
  );
}

/** A campaign being delivered, with its tracked links (ADR 055: each member's message carries its own). */
type Campaign = CampaignTexts & { id: string; status: string; links: string[] };

async function campaignsOf(db: Database, ids: string[]): Promise<Map<string, Campaign>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: campaign.id,
      status: campaign.status,
      lineText: campaign.lineText,
      smsText: campaign.smsText,
      emailSubject: campaign.emailSubject,
      emailBody: campaign.emailBody,
    })
    .from(campaign)
    .where(inArray(campaign.id, ids));
  const links = await linksOf(db, ids);
  return new Map(rows.map((r) => [r.id, { ...r, links: links.get(r.id) ?? [] }]));
}

async function storeNames(db: Database): Promise<(id: string, locale: Locale) => string> {
  const rows = await db.select({ id: store.id, name: store.name }).from(store);
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return (id, locale) => names.get(id)?.[locale] ?? names.get(id)?.["zh-TW"] ?? id;
}

function reachOf(m: MemberInfo, lineOn: boolean): Reach {
  return {
    line: lineOn && m.lineUserId !== null && m.following,
    sms: m.active && Boolean(m.phone),
    email: Boolean(m.email),
  };
}

type Planned = { row: ClaimedRow; member: MemberInfo; channel: MessageChannel };

async function deliverBatch(deps: DeliveryDeps, rows: ClaimedRow[], now: Date): Promise<Outcome[]> {
  const { db } = deps;
  const [members, campaigns, settings, storeName] = await Promise.all([
    membersOf(db, [...new Set(rows.map((r) => r.memberId))]),
    campaignsOf(db, [...new Set(rows.map((r) => r.campaignId).filter((id): id is string => id !== null))]),
    automaticSettings(db),
    storeNames(db),
  ]);
  const settingOf = new Map<string, AutomaticSetting>(settings.map((s) => [s.kind, s]));
  const ctx: ComposeContext = { publicBaseUrl: deps.publicBaseUrl, secret: deps.secret, storeName, now };
  const outcomes: Outcome[] = [];
  const planned: Planned[] = [];
  const marketingSeen = new Set<string>();
  const release: string[] = [];

  for (const row of rows) {
    const m = members.get(row.memberId);
    const skip = (status: Exclude<MessageStatus, "sent" | "queued" | "held" | "sending">, error: string) =>
      outcomes.push({ id: row.id, status, channel: null, error });
    if (!m?.active) {
      skip("unreachable", "member_inactive");
      continue;
    }
    const c = row.campaignId ? campaigns.get(row.campaignId) : undefined;
    if (row.campaignId && (!c || c.status === "cancelled")) {
      skip("cancelled", "campaign_cancelled");
      continue;
    }
    // A retry of a call already made: the same channel (and LINE key, whose group must not change), no second
    // choice and no second count against the cap — but a refusal since the last attempt still stops a text or
    // an e-mail.
    if (row.channel && (row.channel !== "line" || row.retryKey)) {
      if (row.purpose === "marketing" && row.channel !== "line" && !m.consent[row.channel]) {
        skip("opted-out", "no_consent");
        continue;
      }
      planned.push({ row, member: m, channel: row.channel });
      continue;
    }
    let allowed: MessageChannel[];
    if (c) {
      allowed = campaignChannels(c);
    } else {
      const setting = settingOf.get(row.kind);
      if (!setting || !(AUTOMATIC_KINDS as readonly string[]).includes(row.kind)) {
        skip("failed", "unknown_kind");
        continue;
      }
      if (!setting.enabled) {
        skip("cancelled", "switched_off");
        continue;
      }
      allowed = setting.channels;
    }
    const choice = chooseChannel(row.purpose, allowed, reachOf(m, deps.line !== null), m.consent);
    if (!choice.ok) {
      skip(choice.reason, choice.reason === "opted-out" ? "no_consent" : "no_channel");
      continue;
    }
    if (row.purpose === "marketing") {
      // One marketing message per member per batch: the weekly cap is claimed per member in one statement.
      if (marketingSeen.has(m.id)) {
        release.push(row.id);
        continue;
      }
      marketingSeen.add(m.id);
    }
    planned.push({ row, member: m, channel: choice.channel });
  }

  // The weekly marketing cap, for first attempts only (a retry was counted when it was first decided).
  const firstMarketing = planned.filter((p) => p.row.purpose === "marketing" && !p.row.channel);
  const allowedMembers = await claimMarketingCap(
    db,
    firstMarketing.map((p) => p.member.id),
    now,
    deps.weeklyCap,
  );
  const sending: Planned[] = [];
  for (const p of planned) {
    if (p.row.purpose === "marketing" && !p.row.channel && !allowedMembers.has(p.member.id)) {
      outcomes.push({ id: p.row.id, status: "capped", channel: null, error: "weekly_cap" });
    } else sending.push(p);
  }
  if (release.length) {
    await db
      .update(memberMessage)
      .set({ status: "queued", claimJob: null, attempts: sql`${memberMessage.attempts} - 1` })
      .where(inArray(memberMessage.id, release));
  }

  // LINE keys before the calls: the groups (multicasts per campaign, pushes otherwise) and their keys are stored.
  const lineGroups = groupLine(
    sending.filter((p) => p.channel === "line"),
    (id) => (campaigns.get(id)?.links.length ?? 0) > 0,
  );
  await storeChannels(db, sending, lineGroups);

  const tasks: Array<() => Promise<void>> = [];
  for (const group of lineGroups) tasks.push(() => sendLine(deps, group, ctx, settingOf, campaigns, outcomes));
  for (const p of sending.filter((x) => x.channel !== "line")) {
    tasks.push(async () => {
      outcomes.push(await sendOne(deps, p, ctx, settingOf, campaigns));
    });
  }
  await runPool(tasks, deps.concurrency ?? 4, deps.pace);
  return outcomes;
}

type LineGroup = { key: string; members: Planned[]; campaignId: string | null };

/**
 * LINE calls: automatic messages one push each; a campaign's members in multicasts of up to 500 — unless its
 * message has links, which are each member's own (ADR 055): then one push per member.
 */
function groupLine(planned: Planned[], personal: (campaignId: string) => boolean): LineGroup[] {
  const groups: LineGroup[] = [];
  const byKey = new Map<string, LineGroup>();
  // Retries keep their stored key (and so their group).
  for (const p of planned.filter((x) => x.row.retryKey)) {
    const key = p.row.retryKey as string;
    let g = byKey.get(key);
    if (!g) {
      g = { key, members: [], campaignId: p.row.campaignId };
      byKey.set(key, g);
      groups.push(g);
    }
    g.members.push(p);
  }
  const fresh = planned.filter((x) => !x.row.retryKey);
  const byCampaign = new Map<string, Planned[]>();
  for (const p of fresh) {
    if (!p.row.campaignId) {
      groups.push({ key: randomUUID(), members: [p], campaignId: null });
      continue;
    }
    const list = byCampaign.get(p.row.campaignId) ?? [];
    list.push(p);
    byCampaign.set(p.row.campaignId, list);
  }
  for (const [campaignId, list] of byCampaign) {
    const size = personal(campaignId) ? 1 : LINE_MULTICAST_MAX;
    for (let i = 0; i < list.length; i += size) {
      groups.push({ key: randomUUID(), members: list.slice(i, i + size), campaignId });
    }
  }
  return groups;
}

/** The channel (and LINE's retry key) of each row, stored before any call is made. */
async function storeChannels(db: Database, sending: Planned[], lineGroups: LineGroup[]): Promise<void> {
  const keyOf = new Map<string, string>();
  for (const g of lineGroups) for (const p of g.members) keyOf.set(p.row.id, g.key);
  const fresh = sending.filter((p) => !p.row.channel || (p.channel === "line" && !p.row.retryKey));
  if (fresh.length === 0) return;
  const values = sql.join(
    fresh.map((p) => sql`(${p.row.id}::uuid, ${p.channel}::text, ${keyOf.get(p.row.id) ?? null}::uuid)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${memberMessage} m set channel = v.channel, retry_key = v.retry_key
      from (values ${values}) as v(id, channel, retry_key)
     where m.id = v.id`);
}

/**
 * Claims one marketing message of the week for each member, in ONE statement (ADR 018's atomic counters): the
 * upsert only counts while the member's row for this Taipei week is under the cap, and returns the members it
 * counted. Simultaneous deliveries on any number of instances queue on the row; none gets past the cap.
 */
async function claimMarketingCap(
  db: Database,
  memberIds: string[],
  now: Date,
  cap = DEFAULT_WEEKLY_MARKETING_CAP,
): Promise<Set<string>> {
  if (memberIds.length === 0) return new Set();
  const week = taipeiWeekStart(now);
  const end = new Date(week.getTime() + 7 * 24 * 3600_000);
  const keys = [...new Set(memberIds)].sort().map((id) => `marketing:${id}:week`);
  const result = await db.execute(sql`
    insert into ${rateLimitCounter} (key, window_start, count, last_hit_at, expires_at)
    select k, ${week.toISOString()}::timestamptz, 1, ${now.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz
      from unnest(${sql`array[${sql.join(
        keys.map((k) => sql`${k}`),
        sql`, `,
      )}]::text[]`}) as k
    on conflict (key, window_start) do update
      set count = ${rateLimitCounter}.count + 1, last_hit_at = excluded.last_hit_at
      where ${rateLimitCounter}.count < ${cap}::int
    returning key`);
  return new Set(rowsOf<{ key: string }>(result).map((r) => r.key.slice("marketing:".length, -":week".length)));
}

function failure(error: unknown): { retryable: boolean; code: string } {
  if (error instanceof DeliveryError) {
    return { retryable: error.retryable, code: `${error.provider}:${error.code ?? error.status ?? "error"}` };
  }
  if (error instanceof MessageRejectedError) return { retryable: false, code: `rejected:${error.reason}` };
  if (error instanceof RangeError) return { retryable: false, code: "rejected:limits" };
  return { retryable: true, code: "internal" };
}

function afterFailure(p: Planned, error: unknown, channel: MessageChannel | null): Outcome {
  const f = failure(error);
  if (f.retryable && p.row.attempts < MAX_ATTEMPTS) {
    return { id: p.row.id, status: "retry", channel, error: f.code, attempts: p.row.attempts };
  }
  return { id: p.row.id, status: "failed", channel, error: f.code };
}

function recipientOf(m: MemberInfo): Recipient {
  return { memberId: m.id, name: m.name, locale: m.locale, balance: m.balance };
}

function composeFor(
  p: Planned,
  channel: MessageChannel,
  ctx: ComposeContext,
  settings: Map<string, AutomaticSetting>,
  campaigns: Map<string, Campaign>,
): Outgoing {
  const recipient = recipientOf(p.member);
  if (p.row.campaignId) {
    const stored = campaigns.get(p.row.campaignId) as Campaign;
    // The campaign's links through this member's click links (ADR 055); SMS carries none.
    const c = trackedTexts(stored, stored.links, ctx, p.row.id);
    if (channel === "line") return { channel, messages: campaignLineMessages(c, ctx) };
    if (channel === "sms") return { channel, text: campaignSmsText(c) };
    return campaignEmail(c, recipient, ctx);
  }
  const kind = p.row.kind as AutomaticKind;
  const setting = settings.get(kind) as AutomaticSetting;
  return composeAutomatic(kind, setting.text[recipient.locale], p.row.data, channel, recipient, ctx);
}

/** One SMS or e-mail. */
async function sendOne(
  deps: DeliveryDeps,
  p: Planned,
  ctx: ComposeContext,
  settings: Map<string, AutomaticSetting>,
  campaigns: Map<string, Campaign>,
): Promise<Outcome> {
  try {
    const out = composeFor(p, p.channel, ctx, settings, campaigns);
    if (out.channel === "sms") {
      const sms = composeSms({ to: p.member.phone, text: out.text });
      await deps.sms.send({ ...sms, idempotencyKey: p.row.id });
      countMessage("sms", deps.sms.name, "sent");
    } else if (out.channel === "email") {
      await deps.email.send({
        to: p.member.email as string,
        subject: out.subject,
        text: out.text,
        html: out.html,
        idempotencyKey: p.row.id,
        ...(out.headers ? { headers: out.headers } : {}),
      });
      countMessage("email", deps.email.name, "sent");
    }
    return { id: p.row.id, status: "sent", channel: p.channel };
  } catch (error) {
    const outcome = afterFailure(p, error, p.channel);
    countMessage(
      p.channel === "sms" ? "sms" : "email",
      p.channel === "sms" ? deps.sms.name : deps.email.name,
      outcome.status === "retry" ? "retry" : "failed",
    );
    deps.logger?.warn({ err: (error as Error).message, message: p.row.id }, "member message not sent");
    return outcome;
  }
}

/** A LINE push (one member) or multicast (a campaign's group), with the group's stored retry key. */
async function sendLine(
  deps: DeliveryDeps,
  group: LineGroup,
  ctx: ComposeContext,
  settings: Map<string, AutomaticSetting>,
  campaigns: Map<string, Campaign>,
  outcomes: Outcome[],
): Promise<void> {
  const line = deps.line;
  const first = group.members[0] as Planned;
  if (!line) {
    for (const p of group.members)
      outcomes.push({ id: p.row.id, status: "unreachable", channel: null, error: "line_off" });
    return;
  }
  try {
    if (group.campaignId) {
      const ids = group.members.map((p) => p.member.lineUserId as string);
      const messages = composeFor(first, "line", ctx, settings, campaigns) as Extract<Outgoing, { channel: "line" }>;
      // A message with click links is this member's alone: a push (a group of one, ADR 055).
      if ((campaigns.get(group.campaignId)?.links.length ?? 0) > 0) {
        await line.push(ids[0] as string, messages.messages, group.key);
      } else await line.multicast(ids, messages.messages, group.key);
    } else {
      // First attempt of an automatic push: LINE accepts a push to someone who blocked the account and drops
      // it, so ask first; a 404 means blocked — mark it, and let the next channel carry the message.
      if (first.row.attempts === 1 && !(await line.isFollower(first.member.lineUserId as string))) {
        await markUnfollowed(deps.db, first.member.lineUserId as string, ctx.now);
        const fallback = chooseChannel(
          "service",
          (settings.get(first.row.kind)?.channels ?? []).filter((c) => c !== "line"),
          { ...reachOf(first.member, false) },
          first.member.consent,
        );
        if (!fallback.ok) {
          outcomes.push({ id: first.row.id, status: "unreachable", channel: null, error: "line_blocked" });
          return;
        }
        await deps.db
          .update(memberMessage)
          .set({ channel: fallback.channel, retryKey: null })
          .where(eq(memberMessage.id, first.row.id));
        outcomes.push(await sendOne(deps, { ...first, channel: fallback.channel }, ctx, settings, campaigns));
        return;
      }
      const messages = composeFor(first, "line", ctx, settings, campaigns) as Extract<Outgoing, { channel: "line" }>;
      await line.push(first.member.lineUserId as string, messages.messages, group.key);
    }
    countMessage("line", "line", "sent");
    for (const p of group.members) outcomes.push({ id: p.row.id, status: "sent", channel: "line" });
  } catch (error) {
    const after = group.members.map((p) => afterFailure(p, error, "line"));
    // One call for the group: a retry when it goes again (a 429, a 5xx), failed when it does not.
    countMessage("line", "line", after.some((o) => o.status === "retry") ? "retry" : "failed");
    deps.logger?.warn({ err: (error as Error).message, size: group.members.length }, "LINE message not sent");
    outcomes.push(...after);
  }
}

async function markUnfollowed(db: Database, lineUserId: string, now: Date): Promise<void> {
  await db
    .insert(lineFriend)
    .values({ lineUserId, following: false, changedAt: now })
    .onConflictDoUpdate({ target: lineFriend.lineUserId, set: { following: false, changedAt: now } });
}

/** Writes the outcomes: one statement for all of them. */
async function record(db: Database, outcomes: Outcome[], now: Date): Promise<void> {
  if (outcomes.length === 0) return;
  const values = sql.join(
    outcomes.map((o) => {
      const status = o.status === "retry" ? "queued" : o.status;
      const due =
        o.status === "retry" ? new Date(now.getTime() + backoffSeconds(o.attempts) * 1000).toISOString() : null;
      const error = "error" in o ? o.error : null;
      return sql`(${o.id}::uuid, ${status}::text, ${o.channel}::text, ${error}::text, ${due}::timestamptz)`;
    }),
    sql`, `,
  );
  await db.execute(sql`
    update ${memberMessage} m
       set status = v.status,
           channel = coalesce(v.channel, m.channel),
           error = v.error,
           due_at = coalesce(v.due_at, m.due_at),
           sent_at = case when v.status = 'sent' then ${now.toISOString()}::timestamptz else m.sent_at end,
           claim_job = null,
           updated_at = ${now.toISOString()}::timestamptz
      from (values ${values}) as v(id, status, channel, error, due_at)
     where m.id = v.id`);
}

/**
 * Runs the tasks, `concurrency` at a time, each after `pace`. A worker takes its task before it waits
 * for `pace`: taken after, two workers that both saw one task left would both take it (one got nothing).
 */
export async function runPool(
  tasks: Array<() => Promise<void>>,
  concurrency: number,
  pace?: (workMs?: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const task = tasks[next++] as () => Promise<void>;
      await pace?.(0);
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
}
