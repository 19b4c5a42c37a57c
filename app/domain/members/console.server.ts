import type { Database } from "@platform/db/client";
import {
  authAccount,
  authPasskey,
  authSession,
  campaign,
  coupon,
  loyaltyAccount,
  member,
  memberMessage,
  memberNote,
  pointEntry,
  purchase,
  reward,
  staffAccount,
  tierChange,
} from "@platform/db/schema";
import { and, count, desc, eq, max, sql } from "drizzle-orm";
import { z } from "zod";
import type { Locale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import { type AuditContext, auditedTx, recordPersonalDataView } from "../audit/audit.server";
import { CODE_POLICY, issueCode } from "../auth/one-time-codes.server";
import { claimLimitsIn, LimitRefusedError } from "../auth/rate-limits.server";
import { revokeCardDevices } from "../loyalty/card-devices.server";
import { couponState } from "../loyalty/coupon-state";
import { LoyaltyError } from "../loyalty/errors";
import { maskName } from "../loyalty/member-lookup.server";
import { pointsExpiringSoon } from "../loyalty/points.server";
import { cancelCoupon } from "../loyalty/rewards.server";
import type { Messaging } from "../messaging/types";
import { Refusal, type RefusalCode } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { hasPermission } from "../staff/permissions";
import { storeChoices } from "../staff/store-choices.server";
import { maskPhone } from "./console-search.server";
import { currentConsents } from "./privacy.server";

/**
 * One member in the console (issue 15, PRODUCT.md §5): everything about them, personal fields masked until a
 * role that may see them reveals them (audited), and the console's actions on them — disable / enable with a
 * reason (ends their sessions), end sessions, cancel an unused coupon (points return), an internal note. Each
 * action checks its permission and writes its audit row in the same transaction as the change.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class MemberActionError extends Refusal<"members"> {
  constructor(code: RefusalCode<"members">, field: string | null = null) {
    super("members", code, { field });
    this.name = "MemberActionError";
  }
}

/** Personal fields as the role sees them: masked, unless revealed (and then audited). */
const PERSONAL = ["nameZh", "phoneNumber", "email", "birthday", "companyName", "taxIdNumber", "address"] as const;

function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

async function memberRow(db: Database, memberId: string) {
  if (!UUID.test(memberId)) return null;
  const [row] = await db.select().from(member).where(eq(member.id, memberId));
  return row ?? null;
}

/** The detail page's data. `reveal` shows the personal fields in full and records that they were shown. */
export async function consoleMemberDetail(
  db: Database,
  actor: StaffActor,
  memberId: string,
  options: { reveal?: boolean; audit?: AuditContext; now?: Date } = {},
) {
  requirePermission(actor, "member.view");
  const found = await memberRow(db, memberId);
  if (!found) return null;
  const reveal = Boolean(options.reveal) && !found.deletedAt;
  if (reveal) {
    requirePermission(actor, "member.reveal");
    if (!options.audit) throw new Error("a reveal needs its audit context");
    await recordPersonalDataView(
      db,
      options.audit,
      { memberId, fields: [...PERSONAL], purpose: "console" },
      options.now,
    );
  }
  const uid = found.userId;
  // Internal notes are free text about a person (the audit log keeps their text out as personal data): only
  // who may reveal the personal fields reads them (issue 33 item 6). A clerk gets none, not even in the data.
  const mayReadNotes = hasPermission(actor, "member.reveal");
  const now = options.now ?? new Date();
  // Read beside the others (started first, awaited after them).
  const expiringSoon = pointsExpiringSoon(db, memberId, now);
  const [account, consents, line, passkeys, sessions, entries, purchases, coupons, tiers, notes, messages] =
    await Promise.all([
      db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId)),
      currentConsents(db, uid),
      db
        .select({ id: authAccount.id, since: authAccount.createdAt })
        .from(authAccount)
        .where(and(eq(authAccount.userId, uid), eq(authAccount.providerId, "line"))),
      db.select({ n: count() }).from(authPasskey).where(eq(authPasskey.userId, uid)),
      db
        .select({ n: count(), last: max(authSession.updatedAt) })
        .from(authSession)
        .where(eq(authSession.userId, uid)),
      db
        .select({
          id: pointEntry.id,
          kind: pointEntry.kind,
          amount: pointEntry.amount,
          storeId: pointEntry.storeId,
          reason: pointEntry.reason,
          at: pointEntry.createdAt,
        })
        .from(pointEntry)
        .where(eq(pointEntry.memberId, memberId))
        .orderBy(desc(pointEntry.createdAt))
        .limit(20),
      db.select().from(purchase).where(eq(purchase.memberId, memberId)).orderBy(desc(purchase.purchasedAt)).limit(10),
      db
        .select({
          id: coupon.id,
          code: coupon.code,
          status: coupon.status,
          name: reward.name,
          pointsCost: coupon.pointsCost,
          referralId: coupon.referralId,
          revokedReason: coupon.revokedReason,
          issuedAt: coupon.issuedAt,
          expiresAt: coupon.expiresAt,
          usedAt: coupon.usedAt,
        })
        .from(coupon)
        .innerJoin(reward, eq(reward.id, coupon.rewardId))
        .where(eq(coupon.memberId, memberId))
        // As the index coupon_member_issued_idx is ordered (desc nulls last), so a heavy member's thousands of
        // coupons are not read and sorted for the 20 shown.
        .orderBy(sql`${coupon.issuedAt} desc nulls last`)
        .limit(20),
      db
        .select()
        .from(tierChange)
        .where(eq(tierChange.memberId, memberId))
        .orderBy(desc(tierChange.createdAt))
        .limit(10),
      mayReadNotes
        ? db
            .select({
              id: memberNote.id,
              body: memberNote.body,
              at: memberNote.createdAt,
              author: staffAccount.displayName,
            })
            .from(memberNote)
            .leftJoin(staffAccount, eq(staffAccount.userId, memberNote.authorUserId))
            .where(eq(memberNote.memberId, memberId))
            .orderBy(desc(memberNote.createdAt))
            .limit(50)
        : null,
      // Messages to the member (issue 16): what went out, by which channel, or why not.
      db
        .select({
          id: memberMessage.id,
          kind: memberMessage.kind,
          campaign: campaign.name,
          status: memberMessage.status,
          channel: memberMessage.channel,
          at: memberMessage.createdAt,
          sentAt: memberMessage.sentAt,
        })
        .from(memberMessage)
        .leftJoin(campaign, eq(campaign.id, memberMessage.campaignId))
        .where(eq(memberMessage.memberId, memberId))
        .orderBy(desc(memberMessage.createdAt))
        .limit(20),
    ]);
  const address = [found.postalCode, found.city, found.district, found.street].filter(Boolean).join(" ");
  return {
    id: found.id,
    memberNumber: found.memberNumber,
    revealed: reveal,
    canReveal: hasPermission(actor, "member.reveal") && !found.deletedAt,
    canManage: hasPermission(actor, "member.manage"),
    canAdjust: hasPermission(actor, "points.adjust"),
    deleted: found.deletedAt !== null,
    disabled: found.disabled,
    name: reveal ? found.nameZh : maskName(found.nameZh),
    phone: reveal ? found.phoneNumber : maskPhone(found.phoneNumber),
    email: reveal ? found.email : maskEmail(found.email),
    pendingEmail: reveal ? found.pendingEmail : maskEmail(found.pendingEmail),
    /** An address given but not verified yet: "resend the verification code" applies. */
    emailPending: found.pendingEmail !== null && !found.deletedAt,
    birthday: reveal ? found.birthday : found.birthday ? "••••-••-••" : null,
    companyName: reveal ? found.companyName : found.companyName ? "•••" : null,
    taxIdNumber: reveal ? found.taxIdNumber : found.taxIdNumber ? "••••••••" : null,
    address: reveal ? address || null : address ? `${found.city ?? ""}${found.district ?? ""} •••` : null,
    signupMethod: found.signupMethod,
    createdAt: found.createdAt,
    lastLoginAt: found.lastLoginAt,
    tier: account[0]?.tier ?? "basic",
    balance: account[0]?.balance ?? 0,
    logins: {
      phone: true,
      email: Boolean(found.email),
      line: line.length > 0,
      lineSince: line[0]?.since ?? null,
      passkeys: passkeys[0]?.n ?? 0,
    },
    consents,
    marketing: { sms: found.marketingSms, email: found.marketingEmail, line: found.marketingLine },
    sessions: { count: sessions[0]?.n ?? 0, lastActiveAt: sessions[0]?.last ?? null },
    /** The soonest lots still ahead: their points and their (exclusive) end. */
    expiring: (await expiringSoon)[0] ?? null,
    entries,
    purchases,
    // Each coupon's status as the member center shows it (one function decides it).
    coupons: coupons.map((c) => ({ ...c, state: couponState(c, now) })),
    tiers,
    /** null: this viewer may not read internal notes (no `member.reveal`). */
    notes,
    messages,
  };
}

/**
 * Disables or enables a member, with a reason and the person's explicit confirmation (the page's tick box, checked
 * here too: a page posted without it changes nothing); disabling ends every session at once. Audited once.
 */
export async function setMemberDisabled(
  db: Database,
  actor: StaffActor,
  memberId: string,
  input: { disabled: boolean; reason: string; confirmed: boolean },
  audit: AuditContext,
  now = new Date(),
): Promise<{ changed: boolean }> {
  requirePermission(actor, "member.manage");
  const reason = input.reason.trim();
  if (!reason || reason.length > 200) throw new MemberActionError("reason_required", "reason");
  if (!input.confirmed) throw new MemberActionError("confirm_required", "confirmed");
  const found = await memberRow(db, memberId);
  if (!found) throw new MemberActionError("member_not_found");
  if (found.deletedAt) throw new MemberActionError("member_deleted");
  return auditedTx(db, audit, now, async (t, record) => {
    const changed = await t
      .update(member)
      .set({ disabled: input.disabled, updatedAt: now })
      .where(and(eq(member.id, memberId), eq(member.disabled, !input.disabled)))
      .returning({ id: member.id });
    if (changed.length === 0) return { changed: false };
    const ended = input.disabled
      ? await t.delete(authSession).where(eq(authSession.userId, found.userId)).returning({ id: authSession.id })
      : [];
    // A disabled member's offline cards stop working too (ADR 043), like their logins.
    const cardsRevoked = input.disabled ? await revokeCardDevices(t, { user: found.userId }, now) : 0;
    await record(input.disabled ? "member.disabled" : "member.enabled", ["member", memberId], {
      before: { disabled: !input.disabled },
      after: {
        disabled: input.disabled,
        reason,
        sessionsEnded: ended.length,
        ...(cardsRevoked > 0 ? { cardsRevoked } : {}),
      },
    });
    return { changed: true };
  });
}

/** Ends every session of the member (a lost phone, a shared computer) and revokes their offline cards. */
export async function endMemberSessions(
  db: Database,
  actor: StaffActor,
  memberId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<number> {
  requirePermission(actor, "member.manage");
  const found = await memberRow(db, memberId);
  if (!found) throw new MemberActionError("member_not_found");
  return auditedTx(db, audit, now, async (t, record) => {
    const ended = await t
      .delete(authSession)
      .where(eq(authSession.userId, found.userId))
      .returning({ id: authSession.id });
    // The offline cards those logins registered stop working as well (ADR 043): a lost phone keeps no card.
    const cardsRevoked = await revokeCardDevices(t, { user: found.userId }, now);
    if (ended.length > 0 || cardsRevoked > 0) {
      await record("member.sessions_ended", ["member", memberId], {
        after: { sessionsEnded: ended.length, ...(cardsRevoked > 0 ? { cardsRevoked } : {}) },
      });
    }
    return ended.length;
  });
}

/** Cancels one of the member's unused coupons: its points go back to the lots they came from. */
export async function cancelMemberCoupon(
  db: Database,
  actor: StaffActor,
  memberId: string,
  couponId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<{ balance: number }> {
  requirePermission(actor, "member.manage");
  if (!UUID.test(couponId)) throw new LoyaltyError("coupon_not_found", "Unknown coupon");
  return auditedTx(db, audit, now, async (t, record) => {
    const [own] = await t
      .select({ id: coupon.id })
      .from(coupon)
      .where(and(eq(coupon.id, couponId), eq(coupon.memberId, memberId)));
    if (!own) throw new LoyaltyError("coupon_not_found", "Unknown coupon");
    const result = await cancelCoupon(
      t,
      { couponId, reason: "cancelled in the console", staffUserId: actor.userId },
      now,
    );
    if (!result.replayed) {
      await record("coupon.cancelled", ["coupon", couponId], {
        before: { status: "issued" },
        after: { status: "cancelled", memberId, pointsReturned: result.coupon.pointsCost },
      });
    }
    return { balance: result.balance };
  });
}

/** An internal note (up to 1,000 characters) from a manager or an admin. */
export async function addMemberNote(
  db: Database,
  actor: StaffActor,
  memberId: string,
  body: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "member.reveal");
  const text = body.trim();
  if (!text || text.length > 1000) throw new MemberActionError("note_required", "note");
  const found = await memberRow(db, memberId);
  if (!found) throw new MemberActionError("member_not_found");
  await auditedTx(db, audit, now, async (t, record) => {
    const [note] = await t
      .insert(memberNote)
      .values({ memberId, authorUserId: actor.userId, body: text, createdAt: now })
      .returning({ id: memberNote.id });
    await record("member.note_added", ["member", memberId], { after: { noteId: note?.id ?? null, note: text } });
  });
}

/** E-mail codes one member of staff may have sent to members in an hour (on top of each address's own limits). */
export const STAFF_EMAIL_CODES_PER_HOUR = 20;

export type ResendResult =
  | { ok: true; expiresAt: Date }
  | { ok: false; reason: "cooldown" | "rate_limited"; retryAfterSeconds: number };

/**
 * Sends a member a new code for their e-mail address that is not verified yet (`pending_email`; they type it in
 * the member center, ADR 009: our e-mails carry codes, not links). The code goes through the same atomic
 * cooldown and limits as the member's own resend (ADR 018: 60 s per address, the address's 5/h and 10/day, the
 * member's 5/h and 10/day; the staff member's IP is not the member's and is not counted), plus 20 an hour per
 * member of staff; the code, the limits and the audit row are one transaction, and a refusal leaves none of
 * them. The e-mail is queued after the commit, like every code flow.
 */
export async function resendMemberEmailVerification(
  deps: { db: Database; messaging: Messaging; secret: string },
  actor: StaffActor,
  memberId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<ResendResult> {
  requirePermission(actor, "member.manage");
  const found = await memberRow(deps.db, memberId);
  if (!found) throw new MemberActionError("member_not_found");
  if (found.deletedAt) throw new MemberActionError("member_deleted");
  const email = found.pendingEmail;
  if (!email) throw new MemberActionError("not_pending");
  // A first address, or a change of a verified one: the member's side derives the same purpose from the row.
  const purpose = found.email ? "change-email" : "verify-email";
  let sent: { code: string; expiresAt: Date };
  try {
    const outcome = await auditedTx(deps.db, audit, now, async (t, record) => {
      const issued = await issueCode(
        t,
        { purpose, target: email, ip: null, secret: deps.secret, memberUserId: found.userId },
        now,
      );
      if (!issued.ok) return issued;
      await claimLimitsIn(
        t,
        [{ key: `console:email-code:staff:${actor.userId}`, window: "hour", max: STAFF_EMAIL_CODES_PER_HOUR }],
        now,
      );
      await record("member.email_verification_sent", ["member", memberId], {
        after: { email, purpose, expiresAt: issued.expiresAt.toISOString() },
      });
      return issued;
    });
    if (!outcome.ok) return outcome;
    sent = outcome;
  } catch (error) {
    if (error instanceof LimitRefusedError) {
      return { ok: false, reason: "rate_limited", retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  }
  await deps.messaging.sendEmail({
    to: email,
    locale: "zh-TW",
    template: "one-time-code",
    data: { code: sent.code, purpose, minutes: CODE_POLICY.validMinutes },
  });
  return { ok: true, expiresAt: sent.expiresAt };
}

type Detail = NonNullable<Awaited<ReturnType<typeof consoleMemberDetail>>>;

/** The detail as the page gets it (dates as ISO text, a purchase's own fields only). */
export function memberDetailView(detail: Detail) {
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  return {
    ...detail,
    createdAt: detail.createdAt.toISOString(),
    lastLoginAt: iso(detail.lastLoginAt),
    logins: { ...detail.logins, lineSince: iso(detail.logins.lineSince) },
    consents: detail.consents.map((c) => ({ ...c, at: c.at.toISOString() })),
    sessions: { count: detail.sessions.count, lastActiveAt: iso(detail.sessions.lastActiveAt) },
    entries: detail.entries.map((e) => ({ ...e, at: e.at.toISOString() })),
    purchases: detail.purchases.map((p) => ({
      id: p.id,
      storeId: p.storeId,
      receiptNumber: p.receiptNumber,
      netAmount: p.netAmount,
      refundedAmount: p.refundedAmount,
      pointsEarned: p.pointsEarned,
      purchasedAt: p.purchasedAt.toISOString(),
    })),
    expiring: detail.expiring
      ? { points: detail.expiring.points, expiresAt: detail.expiring.expiresAt.toISOString() }
      : null,
    coupons: detail.coupons.map((c) => ({
      ...c,
      issuedAt: c.issuedAt.toISOString(),
      expiresAt: c.expiresAt.toISOString(),
      usedAt: iso(c.usedAt),
    })),
    tiers: detail.tiers.map((c) => ({ id: c.id, from: c.fromTier, to: c.toTier, at: c.createdAt.toISOString() })),
    notes: detail.notes?.map((n) => ({ ...n, at: n.at.toISOString() })) ?? null,
    messages: detail.messages.map((x) => ({ ...x, at: x.at.toISOString(), sentAt: iso(x.sentAt) })),
  };
}

export type ConsoleMemberView = ReturnType<typeof memberDetailView>;

/** The changes that say so above the page when they are done (`?done=`); the others have their own notice. */
const DONE_NOTICES = ["disable", "enable", "end-sessions", "note"] as const;

/**
 * The member page's data: the member (null for an unknown id), the stores of their purchases by name, and what
 * the address asks or says: `?cancel=<id>` asks before cancelling an unused coupon, `?done=` names what was done.
 */
export async function memberPageData(
  db: Database,
  actor: StaffActor,
  memberId: string,
  search: URLSearchParams,
  locale: Locale,
  now: Date,
) {
  const detail = await consoleMemberDetail(db, actor, memberId, { now });
  if (!detail) return null;
  const member = memberDetailView(detail);
  const done = search.get("done");
  const asking = member.canManage
    ? member.coupons.find((c) => c.id === search.get("cancel") && c.state === "unused")
    : null;
  const cancelled =
    done === "cancel-coupon"
      ? member.coupons.find((c) => c.id === search.get("coupon") && c.state === "cancelled")
      : null;
  const stores = await storeChoices(db, [...new Set(member.purchases.map((p) => p.storeId))]);
  return {
    member,
    canAudit: hasPermission(actor, "audit.view"),
    storeNames: Object.fromEntries(stores.map((s) => [s.id, pick(s.name, locale)])),
    notice: DONE_NOTICES.find((d) => d === done) ?? null,
    resent: done === "resend-verification",
    minutes: CODE_POLICY.validMinutes,
    confirmCancel: asking?.id ?? null,
    cancelled: cancelled
      ? { name: cancelled.name, points: cancelled.pointsCost, fromReferral: cancelled.referralId !== null }
      : null,
  };
}

/**
 * The member page's forms (ADR 008), one per `intent`: the texts as typed, cut to their longest (the rules of a
 * reason and a note are the actions' own). A cancel not `confirmed` only asks. The one refusal here is an unknown
 * intent (an old page, a hand-made post).
 */
const formText = (max: number) =>
  z
    .string()
    .default("")
    .transform((v) => v.slice(0, max));

export const memberActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.enum(["reveal", "end-sessions", "resend-verification"]) }),
  z.object({ intent: z.enum(["disable", "enable"]), reason: formText(1000), confirmed: z.string().optional() }),
  z.object({ intent: z.literal("cancel-coupon"), couponId: formText(64), confirmed: z.string().optional() }),
  z.object({ intent: z.literal("note"), note: formText(5000) }),
]);
