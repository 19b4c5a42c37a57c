import { type Database, rowsOf } from "@platform/db/client";
import {
  authAccount,
  type CampaignAudience,
  type CampaignStatus,
  campaign,
  lineFriend,
  loyaltyAccount,
  member,
  memberMessage,
} from "@platform/db/schema";
import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { cursorTime, decodeTimeCursor, encodeTimeCursor, olderThan } from "~/lib/keyset.server";
import { type AuditContext, type AuditWriter, auditedTx } from "../audit/audit.server";
import { Refusal, type RefusalCode, VersionConflict } from "../refusals";
import { rfmConditions } from "../segments/rfm.server";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import type { AudienceCount } from "./campaign-values";
import { inQuietHours } from "./channels";
import { storeCampaignLinks } from "./click-links.server";
import { type CampaignTexts, campaignChannels } from "./compose.server";
import { CAMPAIGN_PAGE_SIZE } from "./limits";
import { showroomConditions } from "./showroom-audience.server";

export type { AudienceCount };

/**
 * Campaigns (issue 16 item 4, ADR 034): an admin composes a marketing message per channel for an audience of
 * members, sees the live count, sends a test to themselves, and sends now or at a time. At its time the campaign
 * is claimed by one instance (a conditional update) and its whole audience queued in the same transaction, one
 * `member_message` row per member (`campaign:<id>`, so never twice); the delivery does the rest.
 */

export type CampaignInput = CampaignTexts & {
  name: string;
  audience: CampaignAudience;
  /** The control group's share of the audience (0–50 %) and the attribution window in Taipei days (ADR 055). */
  controlPercent?: number;
  attributionDays?: number;
};

/**
 * Whether a member of a campaign's audience is held back as its control group: a hash of the campaign and the
 * member, so the same audience always splits the same way (ADR 055). As SQL over `member`.
 */
export function inControlGroup(campaignId: string, percent: number): SQL {
  if (percent <= 0) return sql`false`;
  return sql`(('x' || substr(md5(${`${campaignId}:`} || ${member.id}::text), 1, 7))::bit(28)::int % 100) < ${percent}::int`;
}

const linked = sql`exists (select 1 from ${authAccount} la join ${lineFriend} lf on lf.line_user_id = la.account_id
  where la.user_id = ${member.userId} and la.provider_id = 'line' and lf.following)`;

/** The members an audience names (active ones only), as conditions on member ⋈ loyalty_account. */
export function audienceWhere(a: CampaignAudience, now: Date): SQL {
  const day = 86_400_000;
  const conditions: (SQL | undefined)[] = [
    eq(member.disabled, false),
    sql`${member.deletedAt} is null`,
    // Members without a loyalty account yet (no points ever booked) are basic members with 0 points.
    a.tiers?.length
      ? sql`coalesce(${loyaltyAccount.tier}, 'basic') in (${sql.join(
          a.tiers.map((t) => sql`${t}`),
          sql`, `,
        )})`
      : undefined,
    a.city ? eq(member.city, a.city) : undefined,
    a.lastPurchaseDays && a.lastPurchaseDays > 0
      ? sql`${loyaltyAccount.lastPurchaseAt} >= ${new Date(now.getTime() - a.lastPurchaseDays * day).toISOString()}::timestamptz`
      : undefined,
    a.lastPurchaseDays && a.lastPurchaseDays < 0
      ? sql`(${loyaltyAccount.lastPurchaseAt} is null or ${loyaltyAccount.lastPurchaseAt} < ${new Date(now.getTime() + a.lastPurchaseDays * day).toISOString()}::timestamptz)`
      : undefined,
    a.balanceMin !== null && a.balanceMin !== undefined
      ? sql`coalesce(${loyaltyAccount.balance}, 0) >= ${a.balanceMin}`
      : undefined,
    a.balanceMax !== null && a.balanceMax !== undefined
      ? sql`coalesce(${loyaltyAccount.balance}, 0) <= ${a.balanceMax}`
      : undefined,
    a.birthdayMonth ? sql`extract(month from ${member.birthday}) = ${a.birthdayMonth}` : undefined,
    a.reachable === "line" ? linked : undefined,
    a.reachable === "email" ? sql`${member.email} is not null` : undefined,
    // "sms": every member has a phone number (member.phone_number is not null), so no condition.
    // Favourited category, visited store (ADR 048; "quote open" joins them there).
    ...showroomConditions(a, now),
    // RFM scores and groups (saved segments, ADR 056).
    rfmConditions(a),
  ];
  return and(...conditions) as SQL;
}

/** The live count of the composer: one aggregate over the audience, split as the delivery would choose. */
export async function countAudience(
  db: Database,
  audience: CampaignAudience,
  texts: CampaignTexts,
  lineOn: boolean,
  now = new Date(),
): Promise<AudienceCount> {
  const channels = campaignChannels(texts);
  const useLine = lineOn && channels.includes("line");
  const useSms = channels.includes("sms");
  const useEmail = channels.includes("email");
  const lineReach = useLine ? linked : sql`false`;
  const smsReach = useSms ? sql`true` : sql`false`;
  const emailReach = useEmail ? sql`${member.email} is not null` : sql`false`;
  const lineOk = sql`(${lineReach} and ${member.marketingLine})`;
  const smsOk = sql`(${smsReach} and ${member.marketingSms})`;
  const emailOk = sql`(${emailReach} and ${member.marketingEmail})`;
  const result = await db.execute(sql`
    select count(*)::int as total,
           count(*) filter (where ${lineOk})::int as line,
           count(*) filter (where not ${lineOk} and ${smsOk})::int as sms,
           count(*) filter (where not ${lineOk} and not ${smsOk} and ${emailOk})::int as email,
           count(*) filter (where not ${lineOk} and not ${smsOk} and not ${emailOk}
                              and (${lineReach} or ${smsReach} or ${emailReach}))::int as opted_out
      from ${member} left join ${loyaltyAccount} on ${loyaltyAccount.memberId} = ${member.id}
     where ${audienceWhere(audience, now)}`);
  const [row] = rowsOf<{ total: number; line: number; sms: number; email: number; opted_out: number }>(result);
  const total = Number(row?.total ?? 0);
  const line = Number(row?.line ?? 0);
  const sms = Number(row?.sms ?? 0);
  const email = Number(row?.email ?? 0);
  const optedOut = Number(row?.opted_out ?? 0);
  return { total, line, sms, email, optedOut, unreachable: total - line - sms - email - optedOut };
}

export type CampaignRow = typeof campaign.$inferSelect;

/** A refused campaign change (a version conflict is a `VersionConflict` carrying the campaign now). */
export class CampaignError extends Refusal<"messages"> {
  constructor(
    code: Exclude<RefusalCode<"messages">, "version_conflict">,
    readonly current?: CampaignRow,
  ) {
    super("messages", code);
    this.name = "CampaignError";
  }
}

export async function campaignById(db: Database, id: string): Promise<CampaignRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(campaign).where(eq(campaign.id, id));
  return row ?? null;
}

function audited(c: CampaignInput | CampaignRow) {
  return {
    name: c.name,
    audience: JSON.stringify(c.audience),
    lineText: c.lineText,
    smsText: c.smsText,
    emailSubject: c.emailSubject,
    emailBody: c.emailBody,
    controlPercent: c.controlPercent ?? 0,
    attributionDays: c.attributionDays ?? 7,
  };
}

/** The draft, locked for this transaction, as the admin saw it: refused when gone, sent, or saved since. */
async function lockDraft(t: Database, id: string, version: number): Promise<CampaignRow> {
  const [before] = await t.select().from(campaign).where(eq(campaign.id, id)).for("update");
  if (!before) throw new CampaignError("not_found");
  if (before.status !== "draft") throw new CampaignError("not_draft", before);
  if (before.version !== version) throw new VersionConflict("messages", before);
  return before;
}

/** Every change of a campaign: an admin's (messages.manage), in one audited transaction. */
function campaignChange<T>(
  db: Database,
  actor: StaffActor,
  audit: AuditContext,
  now: Date,
  run: (t: Database, record: AuditWriter) => Promise<T>,
): Promise<T> {
  requirePermission(actor, "messages.manage");
  return auditedTx(db, audit, now, run);
}

export async function createCampaign(
  db: Database,
  actor: StaffActor,
  input: CampaignInput,
  audit: AuditContext,
  now = new Date(),
): Promise<CampaignRow> {
  return campaignChange(db, actor, audit, now, async (t, record) => {
    const [row] = await t
      .insert(campaign)
      .values({ ...input, createdBy: actor.userId, createdAt: now, updatedAt: now })
      .returning();
    if (!row) throw new Error("campaign insert returned nothing");
    await record("campaign.created", ["campaign", row.id], { after: audited(row) });
    return row;
  });
}

/** Saves a draft over the version the admin saw; a later save of an older version is told (nothing lost). */
export async function updateCampaign(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  input: CampaignInput,
  audit: AuditContext,
  now = new Date(),
): Promise<CampaignRow> {
  return campaignChange(db, actor, audit, now, async (t, record) => {
    const before = await lockDraft(t, id, version);
    const [row] = await t
      .update(campaign)
      .set({ ...input, version: sql`${campaign.version} + 1`, updatedAt: now })
      .where(eq(campaign.id, id))
      .returning();
    if (!row) throw new CampaignError("not_found");
    await record("campaign.updated", ["campaign", id], { before: audited(before), after: audited(row) });
    return row;
  });
}

/**
 * Why a send time is refused, if it is: a time not in the future, or inside the quiet hours (21:00–09:00 Taipei).
 * Sending now (`when` null) is never refused here. The composer's schema asks it before the confirmation step.
 */
export function scheduleRefusal(when: Date | null, now: Date): CampaignError | null {
  if (when && when.getTime() <= now.getTime()) return new CampaignError("past");
  if (when && inQuietHours(when)) return new CampaignError("quiet_hours");
  return null;
}

/**
 * Who a draft would reach if sent now: refused when it has no channel or its audience names no one. The
 * confirmation step shows this count; the send refuses the same.
 */
export async function sendableCount(
  db: Database,
  c: CampaignRow,
  lineOn: boolean,
  now = new Date(),
): Promise<AudienceCount> {
  if (campaignChannels(c).length === 0) throw new CampaignError("no_channel", c);
  const count = await countAudience(db, c.audience, c, lineOn, now);
  if (count.total === 0) throw new CampaignError("empty_audience", c);
  return count;
}

/**
 * Sends a draft now (`when` null) or at a time: refused with an empty audience, no channel, a time in the past
 * or inside the quiet hours (21:00–09:00 Taipei). Sent now in the quiet hours, its messages wait until 09:00.
 */
export async function scheduleCampaign(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  when: Date | null,
  audit: AuditContext,
  options: { lineOn: boolean },
  now = new Date(),
): Promise<CampaignRow> {
  requirePermission(actor, "messages.manage");
  const refused = scheduleRefusal(when, now);
  if (refused) throw refused;
  return campaignChange(db, actor, audit, now, async (t, record) => {
    const before = await lockDraft(t, id, version);
    const count = await sendableCount(t, before, options.lineOn, now);
    const [row] = await t
      .update(campaign)
      .set({ status: "scheduled", scheduledAt: when ?? now, version: sql`${campaign.version} + 1`, updatedAt: now })
      .where(eq(campaign.id, id))
      .returning();
    if (!row) throw new CampaignError("not_found");
    await record(when ? "campaign.scheduled" : "campaign.sent", ["campaign", id], {
      before: { status: before.status },
      after: { status: "scheduled", scheduledAt: (when ?? now).toISOString(), audience: count.total },
    });
    return row;
  });
}

/** Stops a campaign: before its time nothing goes; while it is sending, what has not gone yet stays unsent. */
export async function cancelCampaign(
  db: Database,
  actor: StaffActor,
  id: string,
  audit: AuditContext,
  now = new Date(),
): Promise<CampaignRow> {
  return campaignChange(db, actor, audit, now, async (t, record) => {
    const [row] = await t
      .update(campaign)
      .set({ status: "cancelled", version: sql`${campaign.version} + 1`, updatedAt: now })
      .where(and(eq(campaign.id, id), inArray(campaign.status, ["draft", "scheduled", "sending"])))
      .returning();
    if (!row) {
      const current = await campaignById(t, id);
      throw new CampaignError(current ? "not_draft" : "not_found", current ?? undefined);
    }
    await t
      .update(memberMessage)
      .set({ status: "cancelled", error: "campaign_cancelled", updatedAt: now })
      .where(and(eq(memberMessage.campaignId, id), inArray(memberMessage.status, ["queued", "held"])));
    await record("campaign.cancelled", ["campaign", id], { after: { status: "cancelled" } });
    return row;
  });
}

/**
 * Campaigns whose time has come: each claimed by one instance (scheduled → sending, a conditional update) and its
 * audience queued in the same transaction, in one statement, whatever its size — the control group's members
 * (ADR 055) recorded as `control`, which no delivery claims — and its links stored for the click links. Returns
 * how many were started.
 */
export async function startDueCampaigns(db: Database, now = new Date()): Promise<number> {
  const due = await db
    .select({ id: campaign.id })
    .from(campaign)
    .where(and(eq(campaign.status, "scheduled"), sql`${campaign.scheduledAt} <= ${now.toISOString()}::timestamptz`));
  let started = 0;
  for (const { id } of due) {
    const ok = await db.transaction(async (t) => {
      const [claimed] = await t
        .update(campaign)
        .set({ status: "sending", startedAt: now, updatedAt: now })
        .where(and(eq(campaign.id, id), eq(campaign.status, "scheduled")))
        .returning();
      if (!claimed) return false;
      const occasion = `campaign:${id}`;
      await storeCampaignLinks(t, id, claimed);
      const result = await t.execute(sql`
        insert into ${memberMessage}
               (member_id, occasion, kind, campaign_id, purpose, status, due_at, created_at, updated_at)
        select ${member.id}, ${occasion}, 'campaign', ${id}::uuid, 'marketing',
               case when ${inControlGroup(id, claimed.controlPercent)} then 'control' else 'queued' end,
               ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
          from ${member} left join ${loyaltyAccount} on ${loyaltyAccount.memberId} = ${member.id}
         where ${audienceWhere(claimed.audience, now)}
        on conflict (member_id, occasion) do nothing
        returning status`);
      await t
        .update(campaign)
        .set({ queuedCount: rowsOf<{ status: string }>(result).filter((r) => r.status === "queued").length })
        .where(eq(campaign.id, id));
      return true;
    });
    if (ok) started++;
  }
  return started;
}

/** Campaigns with nothing left to send are `sent`. */
export async function finishCampaigns(db: Database, ids: string[], now = new Date()): Promise<void> {
  if (ids.length === 0) return;
  await db.execute(sql`
    update ${campaign} c set status = 'sent', updated_at = ${now.toISOString()}::timestamptz
     where c.id in (${sql.join(
       ids.map((id) => sql`${id}::uuid`),
       sql`, `,
     )}) and c.status = 'sending'
       and not exists (select 1 from ${memberMessage} m
                        where m.campaign_id = c.id and m.status in ('queued', 'held', 'sending'))`);
}

export type CampaignResults = {
  byStatus: Record<string, number>;
  byChannel: Record<string, number>;
  total: number;
};

/** What became of a campaign's messages: by status, and the sent ones by channel. */
export async function campaignResults(db: Database, id: string): Promise<CampaignResults> {
  const rows = await db
    .select({ status: memberMessage.status, channel: memberMessage.channel, n: sql<number>`count(*)::int` })
    .from(memberMessage)
    .where(eq(memberMessage.campaignId, id))
    .groupBy(memberMessage.status, memberMessage.channel);
  const byStatus: Record<string, number> = {};
  const byChannel: Record<string, number> = {};
  let total = 0;
  for (const r of rows) {
    const n = Number(r.n);
    total += n;
    byStatus[r.status] = (byStatus[r.status] ?? 0) + n;
    if (r.status === "sent" && r.channel) byChannel[r.channel] = (byChannel[r.channel] ?? 0) + n;
  }
  return { byStatus, byChannel, total };
}

export type CampaignListRow = Pick<
  CampaignRow,
  "id" | "name" | "status" | "scheduledAt" | "queuedCount" | "createdAt" | "startedAt"
>;

/** The console's list, newest first, keyset by (created_at, id). */
export async function listCampaigns(
  db: Database,
  options: { status?: CampaignStatus | null; after?: string | null } = {},
): Promise<{ rows: CampaignListRow[]; nextAfter: string | null }> {
  const cursor = decodeTimeCursor(options.after);
  const rows = await db
    .select({
      id: campaign.id,
      name: campaign.name,
      status: campaign.status,
      scheduledAt: campaign.scheduledAt,
      queuedCount: campaign.queuedCount,
      createdAt: campaign.createdAt,
      startedAt: campaign.startedAt,
      cursorAt: cursorTime(campaign.createdAt),
    })
    .from(campaign)
    .where(
      and(
        options.status ? eq(campaign.status, options.status) : undefined,
        olderThan(campaign.createdAt, campaign.id, cursor),
      ),
    )
    .orderBy(desc(campaign.createdAt), desc(campaign.id))
    .limit(CAMPAIGN_PAGE_SIZE + 1);
  const more = rows.length > CAMPAIGN_PAGE_SIZE;
  const page = more ? rows.slice(0, CAMPAIGN_PAGE_SIZE) : rows;
  const last = page.at(-1);
  return {
    rows: page.map(({ cursorAt: _, ...row }) => row),
    nextAfter: more && last ? encodeTimeCursor(last.cursorAt, last.id) : null,
  };
}
