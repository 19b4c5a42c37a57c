import type { Database } from "@platform/db/client";
import { loyaltyAccount, member, pointAdjustment, staffAccount, store } from "@platform/db/schema";
import type { LocalizedText } from "@platform/db/schema/catalog";
import { and, asc, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { Translate } from "~/lib/i18n";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { claimLimits, type Limit } from "../auth/rate-limits.server";
import { Refusal } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { adjustmentNeedsApproval, MANAGER_DAILY_ADJUSTMENT_FACTOR } from "../staff/permissions";
import { managerAdjustmentLimit } from "../staff/settings.server";
import {
  type AdjustmentFields,
  isAdjustmentReason,
  MAX_ADJUSTMENT,
  MAX_DETAIL_LENGTH,
  parseAdjustment,
} from "./adjustment-input";
import { LoyaltyError } from "./errors";
import { activeMember, lockAccount, type Tx } from "./ledger.server";
import { bookAdjustment } from "./points.server";

/**
 * Point adjustments from the console (issue 13, ADR 023). A manager books up to the limit (an admin
 * setting) — per adjustment, per member per Taipei day in total, and 5 × the limit per Taipei day over all
 * members — an admin any amount; above a manager's limit the adjustment waits (`pending`) and books
 * only when a **second** admin approves. The decision is one conditional update
 * (`status = 'pending' and requested_by <> approver … returning`), so racing approvals book once.
 * Every request, approval and rejection writes its audit row in the same transaction.
 */

export type AdjustmentErrorCode = "adjustment_not_found" | "adjustment_decided" | "own_adjustment";

/** A refused decision; nothing changed. (Refusals of the booking itself are LoyaltyErrors.) */
export class AdjustmentError extends Refusal<"approvals"> {
  override readonly code: AdjustmentErrorCode;
  constructor(code: AdjustmentErrorCode, message: string) {
    super("approvals", code, { message });
    this.name = "AdjustmentError";
    this.code = code;
  }
}

export type Adjustment = typeof pointAdjustment.$inferSelect;

/**
 * The console's adjustment form as `parseForm` reads it (ADR 008): the rules of `parseAdjustment` (amount,
 * reason from the list, the words `other` needs), each refusal worded by the reader's catalog beside its field;
 * the form's own key (a double submit books once) is one more field.
 */
export function adjustmentSchema(t: Translate) {
  return z
    .object({ amount: z.unknown(), reason: z.unknown(), detail: z.unknown(), requestKey: z.string().default("") })
    .transform(({ requestKey, ...raw }, ctx) => {
      const parsed = parseAdjustment(raw);
      if (parsed.ok) return { ...parsed.value, requestKey };
      for (const [field, code] of Object.entries(parsed.errors)) {
        ctx.addIssue({ code: "custom", path: [field], message: t(`console.adjust.error.${code}`) });
      }
      return z.NEVER;
    });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the ledger entry says (reason code and the requester's words; the entry has no other place for it). */
function ledgerReason(adjustment: Pick<Adjustment, "reason" | "detail">): string {
  return adjustment.detail ? `${adjustment.reason}: ${adjustment.detail}` : adjustment.reason;
}

async function book(tx: Tx, adjustment: Adjustment, actor: StaffActor, now: Date) {
  const entry = await bookAdjustment(
    tx,
    {
      memberId: adjustment.memberId,
      amount: adjustment.amount,
      reason: ledgerReason(adjustment),
      idempotencyKey: adjustment.id,
      staffUserId: actor.userId,
      storeId: adjustment.storeId,
    },
    now,
  );
  await tx.update(pointAdjustment).set({ entryId: entry.id }).where(eq(pointAdjustment.id, adjustment.id));
  const [account] = await tx
    .select({ balance: loyaltyAccount.balance })
    .from(loyaltyAccount)
    .where(eq(loyaltyAccount.memberId, adjustment.memberId));
  return { entryId: entry.id, balance: account?.balance ?? 0 };
}

/**
 * A manager's cumulative limits for one adjustment (issue 33 item 3): the points adjusted (either sign)
 * count against the manager's total for this member and the manager's total over all members, per Taipei
 * day. Claimed as weighted hits on `rate_limit_counter` in one statement (ADR 018), so simultaneous
 * requests on any number of instances cannot split one large adjustment into several that each fit.
 */
export function managerAdjustmentLimits(
  managerUserId: string,
  memberId: string,
  points: number,
  perMemberLimit: number,
): Limit[] {
  const weight = Math.abs(points);
  return [
    { key: `adjust:manager-member:${managerUserId}:${memberId}`, window: "day", max: perMemberLimit, weight },
    {
      key: `adjust:manager:${managerUserId}`,
      window: "day",
      max: perMemberLimit * MANAGER_DAILY_ADJUSTMENT_FACTOR,
      weight,
    },
  ];
}

/** Why an adjustment waits: above the limit on its own, or above what is left of the manager's day. */
async function approvalNeeded(
  tx: Tx,
  actor: StaffActor,
  memberId: string,
  points: number,
  limit: number,
  now: Date,
): Promise<"over_limit" | "over_daily_total" | null> {
  if (actor.role === "admin") return null;
  if (adjustmentNeedsApproval(actor.role, points, limit)) return "over_limit";
  // A savepoint (claimLimits' own transaction inside ours): a refused claim counts nothing and the
  // adjustment is stored as pending; a booking refused later rolls the claim back with everything else.
  const claimed = await claimLimits(tx, managerAdjustmentLimits(actor.userId, memberId, points, limit), now);
  return claimed.allowed ? null : "over_daily_total";
}

export type AdjustmentResult = {
  status: "booked" | "pending";
  adjustment: Adjustment;
  /** The member's balance after this call (unchanged while pending). */
  balance: number;
  /** The same form was sent before: nothing new happened. */
  replay: boolean;
};

/**
 * Books an adjustment (within the actor's limit) or stores it as pending (a manager above the limit).
 * `requestKey` is the form's own key: a double submit or a retry returns the first result.
 * A negative adjustment never takes the balance below zero (insufficient_points, with the balance).
 */
export async function requestAdjustment(
  db: Database,
  actor: StaffActor,
  input: AdjustmentFields & { memberId: string; requestKey: string },
  audit: AuditContext,
  now = new Date(),
): Promise<AdjustmentResult> {
  requirePermission(actor, "points.adjust", { storeId: actor.currentStoreId });
  if (!Number.isSafeInteger(input.amount) || input.amount === 0 || Math.abs(input.amount) > MAX_ADJUSTMENT) {
    throw new LoyaltyError("invalid_amount", "The adjustment must be a non-zero whole number of points");
  }
  if (!isAdjustmentReason(input.reason) || input.detail.length > MAX_DETAIL_LENGTH) {
    throw new LoyaltyError("invalid_input", "Unknown reason or too long a text");
  }
  if (!input.requestKey || input.requestKey.length > 100) throw new LoyaltyError("invalid_input", "No request key");
  const limit = await managerAdjustmentLimit(db);
  return auditedTx(db, audit, now, async (tx, record) => {
    const account = await lockAccount(tx, input.memberId);
    const [previous] = await tx.select().from(pointAdjustment).where(eq(pointAdjustment.requestKey, input.requestKey));
    if (previous) {
      if (previous.memberId !== input.memberId || previous.amount !== input.amount) {
        throw new LoyaltyError("idempotency_conflict", "This form was already used for another adjustment");
      }
      return {
        status: previous.status === "pending" ? "pending" : "booked",
        adjustment: previous,
        balance: account.balance,
        replay: true,
      };
    }
    await activeMember(tx, input.memberId);
    if (input.amount < 0 && account.balance + input.amount < 0) {
      throw new LoyaltyError(
        "insufficient_points",
        `The member has ${account.balance} points, ${-input.amount} to take away`,
      );
    }
    const waitsFor = await approvalNeeded(tx, actor, input.memberId, input.amount, limit, now);
    const pending = waitsFor !== null;
    const [created] = await tx
      .insert(pointAdjustment)
      .values({
        requestKey: input.requestKey,
        memberId: input.memberId,
        amount: input.amount,
        reason: input.reason,
        detail: input.detail,
        status: pending ? "pending" : "booked",
        requestedBy: actor.userId,
        requestedRole: actor.role,
        storeId: actor.currentStoreId,
        requestedAt: now,
        decidedBy: null,
        decidedAt: pending ? null : now,
      })
      .returning();
    if (!created) throw new Error("point_adjustment insert returned nothing");
    const before = account.balance;
    const booked = pending ? null : await book(tx, created, actor, now);
    await record(pending ? "points.adjustment_requested" : "points.adjusted", ["member", input.memberId], {
      before: { balance: before },
      after: {
        adjustmentId: created.id,
        amount: input.amount,
        reason: input.reason,
        detail: input.detail,
        status: created.status,
        limit: actor.role === "admin" ? null : limit,
        dailyLimit: actor.role === "admin" ? null : limit * MANAGER_DAILY_ADJUSTMENT_FACTOR,
        waitsFor,
        balance: booked?.balance ?? before,
      },
    });
    return {
      status: pending ? "pending" : "booked",
      adjustment: booked ? { ...created, entryId: booked.entryId } : created,
      balance: booked?.balance ?? before,
      replay: false,
    };
  });
}

/** Why a decision found nothing to decide (read after the conditional update changed nothing). */
async function explainRefusal(tx: Tx, id: string, actor: StaffActor, forApproval: boolean): Promise<never> {
  const [row] = await tx.select().from(pointAdjustment).where(eq(pointAdjustment.id, id));
  if (!row) throw new AdjustmentError("adjustment_not_found", "No such adjustment");
  if (row.status !== "pending") throw new AdjustmentError("adjustment_decided", "The adjustment was already decided");
  if (forApproval && row.requestedBy === actor.userId) {
    throw new AdjustmentError("own_adjustment", "An adjustment is approved by someone other than its requester");
  }
  throw new AdjustmentError("adjustment_decided", "The adjustment was already decided");
}

/**
 * A second admin approves a pending adjustment: one conditional update decides (pending, and not the
 * requester's own), then the ledger books it in the same transaction. A refused booking (the member is
 * disabled, or no longer has the points to take away) rolls the decision back: it stays pending.
 */
export async function approveAdjustment(
  db: Database,
  actor: StaffActor,
  adjustmentId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<{ adjustment: Adjustment; balance: number }> {
  requirePermission(actor, "points.approve");
  if (!UUID.test(adjustmentId)) throw new AdjustmentError("adjustment_not_found", "No such adjustment");
  return auditedTx(db, audit, now, async (tx, record) => {
    const [claimed] = await tx
      .update(pointAdjustment)
      .set({ status: "booked", decidedBy: actor.userId, decidedAt: now })
      .where(
        and(
          eq(pointAdjustment.id, adjustmentId),
          eq(pointAdjustment.status, "pending"),
          ne(pointAdjustment.requestedBy, actor.userId),
        ),
      )
      .returning();
    if (!claimed) return explainRefusal(tx, adjustmentId, actor, true);
    const account = await lockAccount(tx, claimed.memberId);
    const before = account.balance;
    const booked = await book(tx, claimed, actor, now);
    await record("points.adjustment_approved", ["point_adjustment", claimed.id], {
      before: { status: "pending", balance: before },
      after: {
        status: "booked",
        balance: booked.balance,
        memberId: claimed.memberId,
        amount: claimed.amount,
        requestedBy: claimed.requestedBy,
      },
    });
    return { adjustment: { ...claimed, entryId: booked.entryId }, balance: booked.balance };
  });
}

/** Rejects a pending adjustment (any approver, the requester too: withdrawing books nothing). */
export async function rejectAdjustment(
  db: Database,
  actor: StaffActor,
  adjustmentId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<{ adjustment: Adjustment }> {
  requirePermission(actor, "points.approve");
  if (!UUID.test(adjustmentId)) throw new AdjustmentError("adjustment_not_found", "No such adjustment");
  return auditedTx(db, audit, now, async (tx, record) => {
    const [claimed] = await tx
      .update(pointAdjustment)
      .set({ status: "rejected", decidedBy: actor.userId, decidedAt: now })
      .where(and(eq(pointAdjustment.id, adjustmentId), eq(pointAdjustment.status, "pending")))
      .returning();
    if (!claimed) return explainRefusal(tx, adjustmentId, actor, false);
    await record("points.adjustment_rejected", ["point_adjustment", claimed.id], {
      before: { status: "pending" },
      after: { status: "rejected", memberId: claimed.memberId, amount: claimed.amount },
    });
    return { adjustment: claimed };
  });
}

export type PendingAdjustment = {
  id: string;
  memberId: string;
  memberName: string;
  memberNumber: string;
  amount: number;
  reason: string;
  detail: string;
  requestedBy: string;
  requesterName: string | null;
  storeName: LocalizedText | null;
  requestedAt: Date;
};

/** The pending adjustments, oldest first (an approver's list). */
export async function pendingAdjustments(db: Database, actor: StaffActor, limit = 200): Promise<PendingAdjustment[]> {
  requirePermission(actor, "points.approve");
  return db
    .select({
      id: pointAdjustment.id,
      memberId: pointAdjustment.memberId,
      memberName: member.nameZh,
      memberNumber: member.memberNumber,
      amount: pointAdjustment.amount,
      reason: pointAdjustment.reason,
      detail: pointAdjustment.detail,
      requestedBy: pointAdjustment.requestedBy,
      requesterName: staffAccount.displayName,
      storeName: store.name,
      requestedAt: pointAdjustment.requestedAt,
    })
    .from(pointAdjustment)
    .innerJoin(member, eq(member.id, pointAdjustment.memberId))
    .leftJoin(staffAccount, eq(staffAccount.userId, pointAdjustment.requestedBy))
    .leftJoin(store, eq(store.id, pointAdjustment.storeId))
    .where(eq(pointAdjustment.status, "pending"))
    .orderBy(asc(pointAdjustment.requestedAt), asc(pointAdjustment.id))
    .limit(limit);
}

/** The member an adjustment page is about: name, number, balance (null for an unknown id). */
export async function memberForAdjustment(
  db: Database,
  actor: StaffActor,
  memberId: string,
): Promise<{ id: string; name: string; memberNumber: string; balance: number; disabled: boolean } | null> {
  requirePermission(actor, "points.adjust", { storeId: actor.currentStoreId });
  if (!UUID.test(memberId)) return null;
  const [row] = await db
    .select({
      id: member.id,
      name: member.nameZh,
      memberNumber: member.memberNumber,
      disabled: member.disabled,
      balance: loyaltyAccount.balance,
    })
    .from(member)
    .leftJoin(loyaltyAccount, eq(loyaltyAccount.memberId, member.id))
    .where(eq(member.id, memberId));
  return row ? { ...row, balance: row.balance ?? 0 } : null;
}

/** What became of an adjustment of this member (the result shown after the form). */
export async function adjustmentOutcome(
  db: Database,
  memberId: string,
  adjustmentId: string,
): Promise<{ status: Adjustment["status"]; amount: number } | null> {
  if (!UUID.test(adjustmentId)) return null;
  const [row] = await db
    .select({ status: pointAdjustment.status, amount: pointAdjustment.amount })
    .from(pointAdjustment)
    .where(and(eq(pointAdjustment.id, adjustmentId), eq(pointAdjustment.memberId, memberId)));
  return row ?? null;
}
