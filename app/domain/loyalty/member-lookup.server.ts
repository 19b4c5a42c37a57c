import type { Database } from "@platform/db/client";
import { loyaltyAccount, member, purchase, type Tier } from "@platform/db/schema";
import { type Slots, selectStatement } from "@platform/db/statement";
import { and, eq } from "drizzle-orm";
import { QueryBuilder } from "drizzle-orm/pg-core";
import type { AuditContext } from "~/domain/audit/audit.server";
import { recordSecurityEvent } from "~/domain/audit/security-events.server";
import { normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { type ResolvedCard, resolveCardToken } from "./card-tokens.server";
import { LoyaltyError } from "./errors";
import type { Purchase } from "./purchases.server";

/**
 * Finding a member at a till or a counter: by the scanned member card, the member number or the
 * mobile number. The POS API and the staff counter call these same functions, so both find (and
 * refuse) the same members with the same codes.
 */

export type Member = typeof member.$inferSelect;

/** What a till may show about a member: the name masked, the tier and the balance. */
export type CounterMember = { memberNumber: string; maskedName: string; tier: Tier; balance: number };

export type MemberQuery = { cardToken: string } | { memberNumber: string } | { phone: string };

/** 王小明 → 王○明, 陳美 → 陳○, Alice → A○○○e. */
export function maskName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= 1) return "○";
  if (chars.length === 2) return `${chars[0]}○`;
  return `${chars[0]}${"○".repeat(chars.length - 2)}${chars[chars.length - 1]}`;
}

/** The member with this number (any case), disabled or not; null when there is none. */
export async function memberByNumber(db: Database, memberNumber: string): Promise<Member | null> {
  const [found] = await db.select().from(member).where(eq(member.memberNumber, memberNumber.trim().toUpperCase()));
  return found ?? null;
}

/**
 * The member with this mobile number, written any way sign-up accepts it (0912-345-678,
 * +886 912 345 678, 886912345678, …): the same normaliser, so whoever could sign up with a
 * spelling is found by it. Null for a number that is not a Taiwan mobile, or nobody's.
 */
export async function memberByPhone(db: Database, phone: string): Promise<Member | null> {
  const e164 = normalizeTaiwanMobile(phone);
  if (!e164) return null;
  const [found] = await db.select().from(member).where(eq(member.phoneNumber, e164));
  return found ?? null;
}

function active<T extends { disabled: boolean }>(found: T | null | undefined): T {
  if (!found) throw new LoyaltyError("member_not_found", "Unknown member");
  if (found.disabled) throw new LoyaltyError("member_disabled", "The member is disabled");
  return found;
}

/** The member a till may book for, by number: unknown and disabled members are refused. */
export async function activeMemberByNumber(db: Database, memberNumber: string): Promise<Member> {
  return active(await memberByNumber(db, memberNumber));
}

/**
 * activeMemberByNumber for a purchase, which needs only the member's id: the same lookup and refusals, two columns
 * instead of the member's whole row (what building, sending and mapping ~40 columns cost the app on every POS
 * purchase; bench/README.md, "the app's share").
 */
export async function activeMemberIdByNumber(db: Database, memberNumber: string): Promise<{ id: string }> {
  const [found] = await MEMBER_ID_BY_NUMBER(db, { memberNumber: memberNumber.trim().toUpperCase() });
  return { id: active(found).id };
}

/** activeMemberIdByNumber's select, built once (ADR 060, "Later (2026-12-07, the builders)"). */
const MEMBER_ID_BY_NUMBER = selectStatement((p: Slots<"memberNumber">) =>
  new QueryBuilder()
    .select({ id: member.id, disabled: member.disabled })
    .from(member)
    .where(eq(member.memberNumber, p.memberNumber)),
);

/**
 * The member a till or counter asked for (exactly one of card token, member number, phone), or a
 * LoyaltyError: member_not_found, member_disabled, card_token_expired / _forged / _malformed, and for an offline
 * card's code (ADR 043) card_token_future / _replayed, card_device_revoked / _unknown.
 */
export async function findMemberAtCounter(
  db: Database,
  query: MemberQuery,
  options: { cardSecret: string; now?: Date; audit?: AuditContext },
): Promise<Member> {
  if ("cardToken" in query) {
    const resolved = await resolveCardToken(db, options.cardSecret, query.cardToken, options.now);
    if (resolved.ok) return resolved.member;
    if (options.audit && SUSPICIOUS_CARD_REFUSALS.has(resolved.reason)) {
      await auditCardRefusal(db, options.audit, resolved, options.now);
    }
    if (resolved.reason === "member_disabled") throw new LoyaltyError("member_disabled", "The member is disabled");
    if (resolved.reason === "unknown_member") throw new LoyaltyError("member_not_found", "Unknown member");
    if (resolved.reason === "device_revoked" || resolved.reason === "device_unknown") {
      throw new LoyaltyError(`card_${resolved.reason}`, `The card's device is ${resolved.reason.slice(7)}`);
    }
    throw new LoyaltyError(`card_token_${resolved.reason}`, `The card token is ${resolved.reason}`);
  }
  if ("memberNumber" in query) return active(await memberByNumber(db, query.memberNumber));
  return active(await memberByPhone(db, query.phone));
}

/**
 * Card refusals that are not an ordinary slow scan or a typo: a forged code, a code used before, a removed device's
 * code, a code from the future. Each is a failed security event (ADR 020), written within the source's budget.
 */
const SUSPICIOUS_CARD_REFUSALS: ReadonlySet<string> = new Set(["forged", "replayed", "device_revoked", "future"]);

async function auditCardRefusal(
  db: Database,
  audit: AuditContext,
  refusal: Extract<ResolvedCard, { ok: false }>,
  now = new Date(),
): Promise<void> {
  const code = refusal.reason === "device_revoked" ? "card_device_revoked" : `card_token_${refusal.reason}`;
  await recordSecurityEvent(
    db,
    {
      context: audit,
      action: "member.card_refused",
      targetType: "member",
      targetId: refusal.memberId ?? null,
      after: { code },
    },
    now,
  );
}

/** The member as a till shows it (masked name, tier, balance). */
export async function counterMember(db: Database, found: Member): Promise<CounterMember> {
  const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, found.id));
  return {
    memberNumber: found.memberNumber,
    maskedName: maskName(found.nameZh),
    tier: account?.tier ?? "basic",
    balance: account?.balance ?? 0,
  };
}

/**
 * A purchase booked at this store. Another store's purchase is as unknown as a missing one, and an
 * id that is not a UUID is simply unknown (never a database error).
 */
export async function storePurchase(db: Database, storeId: string, purchaseId: string): Promise<Purchase> {
  const [found] = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(purchaseId)
    ? await db
        .select()
        .from(purchase)
        .where(and(eq(purchase.id, purchaseId), eq(purchase.storeId, storeId)))
    : [];
  if (!found) throw new LoyaltyError("purchase_not_found", "Unknown purchase");
  return found;
}
