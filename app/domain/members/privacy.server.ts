import type { Database } from "@platform/db/client";
import {
  authAccount,
  authPasskey,
  authSession,
  authUser,
  authVerification,
  coupon,
  lineFriend,
  loyaltyAccount,
  materialFavourite,
  member,
  memberConsent,
  messageOutbox,
  oneTimeCode,
  pointEntry,
  purchase,
  purchaseRefund,
  rateLimitCounter,
  reward,
  tierChange,
  tradeApplication,
} from "@platform/db/schema";
import { and, asc, desc, eq, gt, inArray, like, or } from "drizzle-orm";
import { adjustPoints } from "../loyalty/points.server";
import { cancelCoupon } from "../loyalty/rewards.server";
import { holdRfmSummary } from "../segments/rfm.server";
import type { ExternalLoginRevoker } from "./external-logins.server";
import type { ConsentKind, Member } from "./members.server";
import { marketingOf, setMarketingPreferences } from "./profile-update.server";

/** 個資法: what the member agreed to. The latest decision per kind, with the version of the text. */
export type ConsentState = { kind: ConsentKind; granted: boolean; version: string; at: Date };

export async function currentConsents(db: Database, userId: string): Promise<ConsentState[]> {
  const rows = await db
    .select()
    .from(memberConsent)
    .where(eq(memberConsent.userId, userId))
    .orderBy(desc(memberConsent.createdAt));
  const latest = new Map<ConsentKind, ConsentState>();
  for (const row of rows) {
    if (!latest.has(row.kind))
      latest.set(row.kind, { kind: row.kind, granted: row.granted, version: row.version, at: row.createdAt });
  }
  const order: ConsentKind[] = [
    "terms",
    "privacy",
    "marketing_sms",
    "marketing_email",
    "marketing_line",
    "einvoice_sharing",
  ];
  return order.flatMap((kind) => latest.get(kind) ?? []);
}

/** The member's changes of their marketing choices, newest first, with how each was made (issue 16). */
export async function marketingHistory(db: Database, userId: string, limit = 10) {
  return db
    .select({
      kind: memberConsent.kind,
      granted: memberConsent.granted,
      source: memberConsent.source,
      at: memberConsent.createdAt,
    })
    .from(memberConsent)
    .where(and(eq(memberConsent.userId, userId), like(memberConsent.kind, "marketing_%")))
    .orderBy(desc(memberConsent.createdAt))
    .limit(limit);
}

/** Whether the member can be reached on LINE: linked, and following the Official Account. */
export async function lineReach(db: Database, userId: string): Promise<"following" | "not-following" | "not-linked"> {
  const [row] = await db
    .select({ following: lineFriend.following })
    .from(authAccount)
    .leftJoin(lineFriend, eq(lineFriend.lineUserId, authAccount.accountId))
    .where(and(eq(authAccount.userId, userId), eq(authAccount.providerId, "line")));
  if (!row) return "not-linked";
  return row.following ? "following" : "not-following";
}

// ─── "Download my data" ──────────────────────────────────────────────────────────────────────

export const EXPORT_FORMAT_VERSION = 1;

/**
 * Everything we hold about the member, as one JSON document (個資法 §3 right of access): profile,
 * logins, consents (full history), points ledger, purchases with refunds, coupons, tier changes,
 * favourites. Secrets (password hashes, passkey public keys, session tokens) are left out.
 */
export async function exportMemberData(db: Database, userId: string, now = new Date()) {
  const [m] = await db.select().from(member).where(eq(member.userId, userId)).limit(1);
  if (!m) throw new Error("exportMemberData: no member for this user");
  const [user] = await db.select().from(authUser).where(eq(authUser.id, userId)).limit(1);
  const [consents, accounts, passkeys, sessions, account, ledger, purchases, coupons, tiers, favourites, trade] =
    await Promise.all([
      db.select().from(memberConsent).where(eq(memberConsent.userId, userId)).orderBy(asc(memberConsent.createdAt)),
      db
        .select({ providerId: authAccount.providerId, createdAt: authAccount.createdAt })
        .from(authAccount)
        .where(eq(authAccount.userId, userId)),
      db
        .select({ name: authPasskey.name, deviceType: authPasskey.deviceType, createdAt: authPasskey.createdAt })
        .from(authPasskey)
        .where(eq(authPasskey.userId, userId)),
      db
        .select({
          createdAt: authSession.createdAt,
          lastActiveAt: authSession.updatedAt,
          ipAddress: authSession.ipAddress,
          userAgent: authSession.userAgent,
        })
        .from(authSession)
        .where(eq(authSession.userId, userId)),
      db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id)),
      db.select().from(pointEntry).where(eq(pointEntry.memberId, m.id)).orderBy(asc(pointEntry.createdAt)),
      db.select().from(purchase).where(eq(purchase.memberId, m.id)).orderBy(asc(purchase.purchasedAt)),
      db
        .select({ coupon, rewardName: reward.name })
        .from(coupon)
        .innerJoin(reward, eq(reward.id, coupon.rewardId))
        .where(eq(coupon.memberId, m.id))
        .orderBy(asc(coupon.issuedAt)),
      db.select().from(tierChange).where(eq(tierChange.memberId, m.id)).orderBy(asc(tierChange.createdAt)),
      db
        .select({ materialId: materialFavourite.materialId, createdAt: materialFavourite.createdAt })
        .from(materialFavourite)
        .where(eq(materialFavourite.memberId, m.id)),
      db
        .select()
        .from(tradeApplication)
        .where(eq(tradeApplication.memberId, m.id))
        .orderBy(asc(tradeApplication.createdAt)),
    ]);
  const refunds = purchases.length
    ? await db
        .select()
        .from(purchaseRefund)
        .where(
          inArray(
            purchaseRefund.purchaseId,
            purchases.map((p) => p.id),
          ),
        )
    : [];
  return {
    format: "han-living-member-export",
    version: EXPORT_FORMAT_VERSION,
    exportedAt: now.toISOString(),
    profile: {
      memberNumber: m.memberNumber,
      name: m.nameZh,
      gender: m.gender,
      birthday: m.birthday,
      phoneNumber: m.phoneNumber,
      email: m.email,
      pendingEmail: m.pendingEmail,
      companyName: m.companyName,
      taxIdNumber: m.taxIdNumber,
      einvoiceCarrier: m.einvoiceCarrier,
      // The switch "give my carrier and tax ID to the till" (ADR 041).
      einvoiceSharing: m.einvoiceSharing,
      address: { city: m.city, district: m.district, postalCode: m.postalCode, street: m.street },
      marketing: marketingOf(m),
      memberLevel: m.memberLevel,
      signupMethod: m.signupMethod,
      createdAt: m.createdAt.toISOString(),
      lastLoginAt: m.lastLoginAt?.toISOString() ?? null,
    },
    logins: {
      phoneNumber: user?.phoneNumber ?? null,
      email: m.email,
      providers: accounts.map((a) => ({ provider: a.providerId, linkedAt: a.createdAt.toISOString() })),
      passkeys: passkeys.map((p) => ({
        name: p.name,
        deviceType: p.deviceType,
        createdAt: p.createdAt?.toISOString(),
      })),
      sessions,
    },
    consents: consents.map((c) => ({
      kind: c.kind,
      version: c.version,
      granted: c.granted,
      at: c.createdAt.toISOString(),
      ipAddress: c.ipAddress,
    })),
    points: {
      balance: account[0]?.balance ?? 0,
      ledger: ledger.map((e) => ({
        kind: e.kind,
        amount: e.amount,
        at: e.createdAt.toISOString(),
        expiresAt: e.lotExpiresAt?.toISOString() ?? null,
        storeId: e.storeId,
        receiptNumber: e.receiptNumber,
        reason: e.reason,
      })),
    },
    purchases: purchases.map((p) => ({
      storeId: p.storeId,
      receiptNumber: p.receiptNumber,
      netAmount: p.netAmount,
      purchasedAt: p.purchasedAt.toISOString(),
      refundedAmount: p.refundedAmount,
      pointsEarned: p.pointsEarned,
      pointsReversed: p.pointsReversed,
      refunds: refunds
        .filter((r) => r.purchaseId === p.id)
        .map((r) => ({ amount: r.amount, pointsReversed: r.pointsReversed, at: r.createdAt.toISOString() })),
    })),
    coupons: coupons.map(({ coupon: c, rewardName }) => ({
      reward: rewardName,
      code: c.code,
      status: c.status,
      pointsCost: c.pointsCost,
      issuedAt: c.issuedAt.toISOString(),
      expiresAt: c.expiresAt.toISOString(),
      usedAt: c.usedAt?.toISOString() ?? null,
    })),
    tierChanges: tiers.map((t) => ({
      from: t.fromTier,
      to: t.toTier,
      reason: t.reason,
      at: t.createdAt.toISOString(),
    })),
    favouriteMaterials: favourites.map((f) => ({ materialId: f.materialId, at: f.createdAt.toISOString() })),
    // Trade-account applications (ADR 057): what the member sent and how it was decided (not by whom: a staff id).
    tradeApplications: trade.map((a) => ({
      taxIdNumber: a.taxIdNumber,
      companyName: a.companyName,
      kind: a.kind,
      state: a.state,
      reason: a.reason,
      appliedAt: a.createdAt.toISOString(),
      decidedAt: a.decidedAt?.toISOString() ?? null,
    })),
  };
}

export type MemberExport = Awaited<ReturnType<typeof exportMemberData>>;

// ─── "Delete my account" ─────────────────────────────────────────────────────────────────────

export const DELETED_NAME = "";

/** The phone column is NOT NULL and unique: an erased member keeps a unique non-number there. */
export function erasedPhone(memberId: string): string {
  return `deleted:${memberId}`;
}

export type DeletionResult = { ok: true; revokeFailures: string[] } | { ok: false; reason: "already_deleted" };

/**
 * Erases the member's personal data and every way to log in (ADR 015). The member row stays,
 * anonymised (nameless, no contact, disabled, deletedAt set), so the points ledger, purchases and
 * coupons keep an owner for accounting; the member number stays as the pseudonymous key the
 * counter's receipts refer to. Unused coupons are cancelled and remaining points forfeited, both
 * as ledger entries. Sessions, passwords, passkeys and linked logins are deleted, so
 * the account can never log in again. External logins (LINE) are told first.
 *
 * Identity must already be proven (password or SMS code) by the caller.
 */
export async function deleteMemberAccount(
  db: Database,
  input: { userId: string; ip: string | null; revokers: readonly ExternalLoginRevoker[] },
  now = new Date(),
): Promise<DeletionResult> {
  const [m] = await db.select().from(member).where(eq(member.userId, input.userId)).limit(1);
  if (!m || m.deletedAt) return { ok: false, reason: "already_deleted" };

  // LINE and other providers first: they may need the tokens stored with our link rows. A provider
  // outage must not keep a member from leaving: failures are returned for the log, deletion goes on.
  const revokeFailures: string[] = [];
  for (const revoker of input.revokers) {
    try {
      await revoker.revoke({ db, userId: input.userId });
    } catch {
      revokeFailures.push(revoker.provider);
    }
  }

  await closeLoyaltyAccount(db, m.id, now);

  const contacts = [m.phoneNumber, m.email, m.pendingEmail].filter((v): v is string => Boolean(v));
  await db.transaction(async (tx) => {
    // The loyalty account first, in the order a purchase takes them: it locks the account, then its rows point at
    // the member (each foreign key a share lock on the member row, which the anonymised unique columns below lock
    // exclusively). Locked after the member, a purchase at the counter during the deletion deadlocked with it (and
    // could be the one refused); now it waits, then finds the member disabled.
    await tx
      .select({ memberId: loyaltyAccount.memberId })
      .from(loyaltyAccount)
      .where(eq(loyaltyAccount.memberId, m.id))
      .for("update");
    // And the RFM summary's lock before the member row, as the nightly replacement takes them (ADR 056).
    await holdRfmSummary(tx);
    // Marketing ends with the account; the withdrawal is recorded like any other.
    await setMarketingPreferences(
      tx,
      {
        memberId: m.id,
        userId: m.userId,
        from: marketingOf(m),
        to: { sms: false, email: false, line: false },
        ip: null,
      },
      now,
    );
    await tx
      .update(member)
      .set({
        nameZh: DELETED_NAME,
        gender: "undisclosed",
        birthday: null,
        phoneNumber: erasedPhone(m.id),
        email: null,
        pendingEmail: null,
        companyName: null,
        taxIdNumber: null,
        einvoiceCarrier: null,
        city: null,
        district: null,
        postalCode: null,
        street: null,
        disabled: true,
        lastLoginAt: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(member.id, m.id));
    await tx
      .update(authUser)
      .set({
        name: DELETED_NAME,
        email: `deleted-${m.userId}@deleted.invalid`,
        emailVerified: false,
        phoneNumber: null,
        phoneNumberVerified: false,
        image: null,
        updatedAt: now,
      })
      .where(eq(authUser.id, m.userId));
    // Every way in: sessions, password, LINE and other links, passkeys.
    await tx.delete(authSession).where(eq(authSession.userId, m.userId));
    await tx.delete(authAccount).where(eq(authAccount.userId, m.userId));
    await tx.delete(authPasskey).where(eq(authPasskey.userId, m.userId));
    // The consent history stays as evidence of what was agreed and when, without the IP addresses.
    await tx.update(memberConsent).set({ ipAddress: null }).where(eq(memberConsent.userId, m.userId));
    await tx.delete(materialFavourite).where(eq(materialFavourite.memberId, m.id));
    // A trade account's applications carry the 統編 and the company (ADR 057); the account is no trade account now.
    await tx.delete(tradeApplication).where(eq(tradeApplication.memberId, m.id));
    await tx.update(loyaltyAccount).set({ trade: false }).where(eq(loyaltyAccount.memberId, m.id));
    // Traces keyed by the phone number or e-mail address.
    if (contacts.length > 0) {
      await tx.delete(oneTimeCode).where(inArray(oneTimeCode.target, contacts));
      await tx.delete(messageOutbox).where(inArray(messageOutbox.recipient, contacts));
      await tx.delete(authVerification).where(inArray(authVerification.identifier, contacts));
      await tx
        .delete(rateLimitCounter)
        .where(or(...contacts.map((c) => like(rateLimitCounter.key, `%${c.replace(/[%_\\]/g, "\\$&")}%`))));
    }
    await tx.delete(rateLimitCounter).where(like(rateLimitCounter.key, `%${m.userId}%`));
  });
  return { ok: true, revokeFailures };
}

/**
 * Through the ledger, so the books stay balanced: unused coupons are cancelled (their points come
 * back, the reward's stock too), then the remaining points are forfeited with one adjustment entry.
 * Runs while the member is still active; both steps are idempotent, so a retried deletion is safe.
 */
async function closeLoyaltyAccount(db: Database, memberId: string, now: Date): Promise<void> {
  const open = await db
    .select({ id: coupon.id })
    .from(coupon)
    .where(and(eq(coupon.memberId, memberId), eq(coupon.status, "issued"), gt(coupon.expiresAt, now)));
  // Expired ones stay as they are: their points were spent and do not come back (cancelCoupon refuses them).
  for (const c of open) await cancelCoupon(db, { couponId: c.id, reason: "account deleted" }, now);
  const [account] = await db
    .select({ balance: loyaltyAccount.balance })
    .from(loyaltyAccount)
    .where(eq(loyaltyAccount.memberId, memberId));
  if (account && account.balance > 0) {
    await adjustPoints(
      db,
      {
        memberId,
        amount: -account.balance,
        reason: "account deleted: points forfeited",
        idempotencyKey: "account-deleted",
      },
      now,
    );
  }
}

/** Whether a member row is an erased account (for lists that must skip them). */
export function isDeleted(m: Pick<Member, "deletedAt">): boolean {
  return m.deletedAt !== null;
}
