import { type Database, rowsOf } from "@platform/db/client";
import {
  loyaltyAccount,
  member,
  purchase,
  referral,
  store,
  TRADE_KINDS,
  type TradeApplicationState,
  type TradeKind,
  tradeApplication,
} from "@platform/db/schema";
import { desc, eq, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { isValidTaxIdNumber } from "../members/taiwan";
import { normaliseDigits } from "../programme/input";
import { Refusal, type RefusalCode } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { COMPANY_MAX, REASON_MAX } from "./trade";

/**
 * Trade accounts (issue 38 part 2, ADR 057): a setting of the referral programme, not a second programme. A member
 * applies with a 統編, a company and a trade kind (`applyForTrade`, one pending or approved application at a time:
 * the partial unique index decides); an admin approves or rejects it (`decideTradeApplication`: one conditional
 * update decides, audited in its transaction; the approval sets `loyalty_account.trade`, which the purchase reads
 * with its lock and multiplies its points by the rules' `tradeMultiplierPermille`). A trade member sees the
 * purchases of the members they referred (`tradeClientPurchases`).
 */

export class TradeError extends Refusal<"trade"> {
  constructor(code: RefusalCode<"trade">, field?: string) {
    super("trade", code, { field });
    this.name = "TradeError";
  }
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: a control character (a NUL byte) is refused, never stored
const CONTROL = /[\u0000-\u001F\u007F]/;

export type TradeApplicationInput = { memberId: string; taxIdNumber: string; companyName: string; kind: string };

/** The application's fields as stored: the 統編 with the Ministry of Finance checksum, a company, a known kind. */
export function checkTradeApplication(input: Omit<TradeApplicationInput, "memberId">): {
  taxIdNumber: string;
  companyName: string;
  kind: TradeKind;
} {
  const taxIdNumber = normaliseDigits(input.taxIdNumber).replace(/[\s-]/g, "");
  if (!isValidTaxIdNumber(taxIdNumber)) throw new TradeError("invalid_tax_id", "taxIdNumber");
  const companyName = input.companyName.trim();
  if (!companyName || CONTROL.test(companyName) || [...companyName].length > COMPANY_MAX) {
    throw new TradeError("invalid_company", "companyName");
  }
  if (!(TRADE_KINDS as readonly string[]).includes(input.kind)) throw new TradeError("invalid_kind", "kind");
  return { taxIdNumber, companyName, kind: input.kind as TradeKind };
}

/**
 * A member's application. One statement decides it: the insert claims the member's open slot (the unique index on
 * pending or approved applications) and does nothing when one exists; the refusal then says which.
 */
export async function applyForTrade(db: Database, input: TradeApplicationInput, now = new Date()): Promise<string> {
  const fields = checkTradeApplication(input);
  const [row] = rowsOf<{ id: string }>(
    await db.execute(sql`
    insert into ${tradeApplication} (member_id, tax_id_number, company_name, kind, created_at)
    select m.id, ${fields.taxIdNumber}, ${fields.companyName}, ${fields.kind}, ${now.toISOString()}::timestamptz
      from ${member} m where m.id = ${input.memberId}::uuid and not m.disabled and m.deleted_at is null
    on conflict (member_id) where state in ('pending', 'approved') do nothing
    returning id`),
  );
  if (row) return row.id;
  const [open] = await db
    .select({ state: tradeApplication.state })
    .from(tradeApplication)
    .where(sql`${tradeApplication.memberId} = ${input.memberId}::uuid and ${tradeApplication.state} <> 'rejected'`);
  if (open?.state === "approved") throw new TradeError("already_trade");
  if (open) throw new TradeError("already_pending");
  throw new TradeError("not_found");
}

export type TradeDecision = { decision: "approve" | "reject"; applicationId: string; reason?: string };

/**
 * What refuses a decision before any row is read (a rejection's reason: required, 1–500 characters, no control
 * character), or null. The console asks for this before it asks for the second factor, so a code is never spent on
 * a form that is refused anyway; decideTradeApplication asks it again.
 */
export function tradeDecisionRefusal(input: Pick<TradeDecision, "decision" | "reason">): TradeError | null {
  if (input.decision !== "reject") return null;
  const reason = (input.reason ?? "").trim();
  if (!reason) return new TradeError("reason_required", "reason");
  if (CONTROL.test(reason) || [...reason].length > REASON_MAX) return new TradeError("invalid_reason", "reason");
  return null;
}

/**
 * An admin's decision on a pending application, audited in its transaction (`trade.approved` / `trade.rejected`).
 * One conditional update decides (`state = 'pending'`): of two admins at once the second finds it decided and is
 * refused with `already_decided`. An approval sets the account's trade flag in the same statement.
 */
export async function decideTradeApplication(
  db: Database,
  actor: StaffActor,
  input: TradeDecision,
  audit: AuditContext,
  now = new Date(),
): Promise<{ id: string; memberId: string; state: Exclude<TradeApplicationState, "pending"> }> {
  requirePermission(actor, "programme.edit");
  const refused = tradeDecisionRefusal(input);
  if (refused) throw refused;
  const reason = (input.reason ?? "").trim();
  const state = input.decision === "approve" ? "approved" : "rejected";
  return auditedTx(db, audit, now, async (tx, record) => {
    const [decided] = rowsOf<{ id: string; member_id: string; tax_id_number: string; company_name: string }>(
      await tx.execute(sql`
      with d as (
        update ${tradeApplication} set state = ${state}, reason = ${state === "rejected" ? reason : null},
               decided_by = ${actor.userId}, decided_at = ${now.toISOString()}::timestamptz
         where id = ${input.applicationId}::uuid and state = 'pending'
        returning id, member_id, tax_id_number, company_name
      ), flag as (
        insert into ${loyaltyAccount} (member_id, trade)
        select member_id, true from d where ${state} = 'approved'
        on conflict (member_id) do update set trade = true, updated_at = ${now.toISOString()}::timestamptz
      )
      select * from d`),
    );
    if (!decided) {
      const [found] = await tx
        .select({ id: tradeApplication.id })
        .from(tradeApplication)
        .where(eq(tradeApplication.id, input.applicationId));
      throw new TradeError(found ? "already_decided" : "not_found");
    }
    await record(`trade.${state}`, ["trade_application", decided.id], {
      before: { state: "pending" },
      after: { state, memberId: decided.member_id, ...(state === "rejected" ? { reason } : {}) },
    });
    return { id: decided.id, memberId: decided.member_id, state };
  });
}

// ---------------------------------------------------------------------------------------------
// Reading

export type TradeApplicationRow = {
  id: string;
  memberId: string;
  memberName: string;
  memberNumber: string;
  taxIdNumber: string;
  companyName: string;
  kind: TradeKind;
  state: TradeApplicationState;
  reason: string | null;
  createdAt: Date;
  decidedAt: Date | null;
};

/** What the member's trade page shows: their newest application (any state) and whether they are a trade account. */
export async function tradeStatusOf(
  db: Database,
  memberId: string,
): Promise<{ trade: boolean; latest: Omit<TradeApplicationRow, "memberName" | "memberNumber"> | null }> {
  const [[latest], [account]] = await Promise.all([
    db
      .select()
      .from(tradeApplication)
      .where(eq(tradeApplication.memberId, memberId))
      .orderBy(desc(tradeApplication.createdAt))
      .limit(1),
    db.select({ trade: loyaltyAccount.trade }).from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId)),
  ]);
  return {
    trade: account?.trade ?? false,
    latest: latest
      ? {
          id: latest.id,
          memberId: latest.memberId,
          taxIdNumber: latest.taxIdNumber,
          companyName: latest.companyName,
          kind: latest.kind,
          state: latest.state,
          reason: latest.reason,
          createdAt: latest.createdAt,
          decidedAt: latest.decidedAt,
        }
      : null,
  };
}

export const TRADE_LIST_PAGE = 30;

/**
 * The console's list: pending applications first (oldest first: the longest waiting on top), then the decided ones
 * (newest decision first), a page at a time.
 */
export async function tradeApplications(
  db: Database,
  page: number,
): Promise<{ rows: TradeApplicationRow[]; total: number; pending: number }> {
  const offset = (page - 1) * TRADE_LIST_PAGE;
  const [rows, [counts]] = await Promise.all([
    db
      .select({
        id: tradeApplication.id,
        memberId: tradeApplication.memberId,
        memberName: member.nameZh,
        memberNumber: member.memberNumber,
        taxIdNumber: tradeApplication.taxIdNumber,
        companyName: tradeApplication.companyName,
        kind: tradeApplication.kind,
        state: tradeApplication.state,
        reason: tradeApplication.reason,
        createdAt: tradeApplication.createdAt,
        decidedAt: tradeApplication.decidedAt,
      })
      .from(tradeApplication)
      .innerJoin(member, eq(member.id, tradeApplication.memberId))
      .orderBy(
        sql`(${tradeApplication.state} = 'pending') desc`,
        sql`case when ${tradeApplication.state} = 'pending' then ${tradeApplication.createdAt} end asc`,
        desc(tradeApplication.decidedAt),
        desc(tradeApplication.id),
      )
      .limit(TRADE_LIST_PAGE)
      .offset(offset),
    db
      .select({
        total: sql<number>`count(*)::int`,
        pending: sql<number>`(count(*) filter (where ${tradeApplication.state} = 'pending'))::int`,
      })
      .from(tradeApplication),
  ]);
  return { rows, total: Number(counts?.total ?? 0), pending: Number(counts?.pending ?? 0) };
}

export type ClientPurchase = {
  id: string;
  clientName: string;
  storeName: (typeof store.$inferSelect)["name"] | null;
  netAmount: number;
  refundedAmount: number;
  purchasedAt: Date;
  /** The points the client earned with it. */
  clientPoints: number;
  /** The trade member's referral reward for it (the client's qualifying purchase), and whether it was reversed. */
  referrerPoints: number;
  reversed: boolean;
};

export const CLIENT_PAGE = 20;

/**
 * A trade member's clients' purchases: the members they referred, each purchase since the referral, newest first,
 * with the client's points and the referral reward the trade member earned for it (only the qualifying purchase has
 * one). The client's name is masked by the page; the amount too (ADR 057).
 */
export async function tradeClientPurchases(
  db: Database,
  memberId: string,
  page: number,
): Promise<{ rows: ClientPurchase[]; hasMore: boolean }> {
  const rows = await db
    .select({
      id: purchase.id,
      clientName: member.nameZh,
      storeName: store.name,
      netAmount: purchase.netAmount,
      refundedAmount: purchase.refundedAmount,
      purchasedAt: purchase.purchasedAt,
      clientPoints: purchase.pointsEarned,
      referrerPoints: sql<number>`case when ${referral.purchaseId} = ${purchase.id}
        and ${referral.state} in ('rewarded', 'reversed') then ${referral.points} else 0 end`,
      reversed: sql<boolean>`${referral.purchaseId} = ${purchase.id} and ${referral.state} = 'reversed'`,
    })
    .from(referral)
    .innerJoin(purchase, eq(purchase.memberId, referral.friendId))
    .innerJoin(member, eq(member.id, referral.friendId))
    .leftJoin(store, eq(store.id, purchase.storeId))
    .where(sql`${referral.referrerId} = ${memberId}::uuid and ${purchase.purchasedAt} >= ${referral.createdAt}`)
    .orderBy(desc(purchase.purchasedAt), desc(purchase.id))
    .limit(CLIENT_PAGE + 1)
    .offset((page - 1) * CLIENT_PAGE);
  return {
    rows: rows.slice(0, CLIENT_PAGE).map((r) => ({
      ...r,
      referrerPoints: Number(r.referrerPoints),
      reversed: Boolean(r.reversed),
    })),
    hasMore: rows.length > CLIENT_PAGE,
  };
}
