import type { Database } from "@platform/db/client";
import { auditLog, loyaltyAccount, pointEntry, referral } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, desc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { type AuditContext, verifyAuditChain } from "../audit/audit.server";
import { checkLedger } from "../loyalty/ledger-check.server";
import { adjustPoints } from "../loyalty/points.server";
import { recordPurchase, refundPurchase } from "../loyalty/purchases.server";
import { changeRules, lotExpiry } from "../loyalty/rules.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { linkReferral, referralSummary, referralsOf, topReferrers } from "./referrals.server";
import { referralImpact } from "./rules.server";

/** Referrals (issue 38, ADR 053) on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set. */
let db: Database;
useMigratedTestDatabase("referrals", (handle) => {
  db = handle.db;
});

const t0 = new Date("2026-03-10T04:00:00Z");
let receipt = 0;
const buy = (memberId: string, netAmount: number, now = t0) =>
  recordPurchase(db, { memberId, storeId: "S01", receiptNumber: `R-${++receipt}`, netAmount, purchasedAt: now }, now);

const link = (friendId: string, code: string, ownCodes?: string[]) =>
  db.transaction((tx) => linkReferral(tx, { friendId, code, ownCodes }, t0));

async function pair() {
  const referrer = await newMember(db);
  const friend = await newMember(db);
  const outcome = await link(friend.id, referrer.referralCode);
  expect(outcome).toMatchObject({ linked: true, referrerId: referrer.id });
  return { referrer, friend };
}

const balance = async (memberId: string) => {
  const totals = await ledgerTotals(db, memberId);
  expect(totals.ledgerSum).toBe(totals.balance);
  return totals.balance;
};

describe("linking", () => {
  it("gives every member a code of the documented alphabet", async () => {
    const m = await newMember(db);
    expect(m.referralCode).toMatch(/^[2-9A-HJKMNP-Z]{10}$/);
  });

  it("links nothing for a disabled referrer's code, an unknown code or a NUL byte", async () => {
    const referrer = await newMember(db, { disabled: true });
    const friend = await newMember(db);
    expect(await link(friend.id, referrer.referralCode)).toEqual({ linked: false, reason: "referrer_disabled" });
    expect(await link(friend.id, "ZZZZZZZZZZ")).toEqual({ linked: false, reason: "unknown_code" });
    expect(await link(friend.id, "AB\u0000CDEFGHJ")).toEqual({ linked: false, reason: "unknown_code" });
    expect(await db.select().from(referral).where(eq(referral.friendId, friend.id))).toEqual([]);
  });

  it("links once: a second link (after sign-up) links nothing and says so", async () => {
    const { friend } = await pair();
    const other = await newMember(db);
    expect(await link(friend.id, other.referralCode)).toEqual({ linked: false, reason: "already_linked" });
    const [row] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, friend.id));
    expect(row?.referralPending).toBe(true);
  });

  it("refuses self-referral: the same member, e-mail, address or device", async () => {
    const referrer = await newMember(db, {
      email: `a${Date.now()}@example.com`,
      city: "台北市",
      district: "大安區",
      street: "復興南路一段 1 號",
    });
    expect(await link(referrer.id, referrer.referralCode)).toEqual({ linked: false, reason: "self" });
    const sameMail = await newMember(db, { pendingEmail: referrer.email });
    expect(await link(sameMail.id, referrer.referralCode)).toEqual({ linked: false, reason: "self" });
    const sameAddress = await newMember(db, { city: "台北市", district: "大安區", street: "復興南路一段1號" });
    expect(await link(sameAddress.id, referrer.referralCode)).toEqual({ linked: false, reason: "self" });
    const sameDevice = await newMember(db);
    expect(await link(sameDevice.id, referrer.referralCode, [referrer.referralCode.toLowerCase()])).toEqual({
      linked: false,
      reason: "self",
    });
  });
});

describe("rewards", () => {
  it("rewards both after the first purchase of at least the minimum, once, through the ledger", async () => {
    const { referrer, friend } = await pair();
    // Below the minimum (NT$3,000): nothing yet, the referral stays pending.
    await buy(friend.id, 2_999);
    expect((await referralsOf(db, friend.id)).referredBy?.state).toBe("pending");
    const before = await balance(friend.id);
    const qualifying = await buy(friend.id, 3_000);
    expect(await balance(friend.id)).toBe(before + 30 + 300);
    expect(await balance(referrer.id)).toBe(300);
    const rows = await referralsOf(db, referrer.id);
    expect(rows.referred).toHaveLength(1);
    expect(rows.referred[0]).toMatchObject({ state: "rewarded", points: 300 });
    expect(referralSummary(rows.referred)).toEqual({ friends: 1, rewarded: 1, points: 300, coupons: 0 });
    // A second qualifying purchase rewards nothing more.
    await buy(friend.id, 5_000);
    expect(await balance(referrer.id)).toBe(300);
    const entries = await db
      .select({ kind: pointEntry.kind, expires: pointEntry.lotExpiresAt })
      .from(pointEntry)
      .where(and(eq(pointEntry.memberId, referrer.id), eq(pointEntry.purchaseId, qualifying.purchase.id)));
    expect(entries).toEqual([{ kind: "referral", expires: lotExpiry(t0) }]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.action, "referral.rewarded"));
    expect(audits.some((a) => a.targetId === rows.referred[0]?.id)).toBe(true);
    expect((await topReferrers(db)).find((r) => r.memberId === referrer.id)).toMatchObject({ friends: 1, rewarded: 1 });
  });

  it("a refund of the qualifying purchase within the window reverses both; after the window, nothing", async () => {
    const { referrer, friend } = await pair();
    const bought = await buy(friend.id, 4_000);
    expect(await balance(referrer.id)).toBe(300);
    // The referrer spends nothing; the refund takes the reward back from both (the friend's 40 earned too).
    await refundPurchase(db, { purchaseId: bought.purchase.id, amount: 1_000, idempotencyKey: `rf-${receipt}` }, t0);
    expect(await balance(referrer.id)).toBe(0);
    expect(await balance(friend.id)).toBe(40 - 10);
    expect((await referralsOf(db, friend.id)).referredBy?.state).toBe("reversed");
    // A second refund reverses nothing more.
    await refundPurchase(db, { purchaseId: bought.purchase.id, amount: 1_000, idempotencyKey: `rf2-${receipt}` }, t0);
    expect(await balance(referrer.id)).toBe(0);

    const late = await pair();
    const lateBuy = await buy(late.friend.id, 3_500);
    const after = new Date(t0.getTime() + 31 * 86_400_000);
    await refundPurchase(
      db,
      { purchaseId: lateBuy.purchase.id, amount: 3_500, idempotencyKey: `rf3-${receipt}` },
      after,
    );
    expect(await balance(late.referrer.id)).toBe(300);
    expect((await checkLedger(db)).mismatches).toEqual([]);
  });

  it("books a referrer's reward below zero as any credit (the debt first), audited with the purchase in one append", async () => {
    // The decision's one statement books both credits (ADR 053, "Later (2026-12-07)"): a referrer whose balance a
    // refund took below zero gets a lot of what is left over and loses the flag, as credit() would give.
    const { referrer, friend } = await pair();
    const own = await buy(referrer.id, 10_000);
    await adjustPoints(
      db,
      { memberId: referrer.id, amount: -80, reason: "spent", idempotencyKey: `neg-${receipt}` },
      t0,
    );
    await refundPurchase(db, { purchaseId: own.purchase.id, amount: 10_000, idempotencyKey: `negr-${receipt}` }, t0);
    expect(await balance(referrer.id)).toBe(-80);
    const till: AuditContext = {
      actorType: "api_key",
      apiKeyId: "00000000-0000-4000-8000-000000000038",
      storeId: "S01",
      ip: null,
      userAgent: "HanPOS",
      requestId: null,
    };
    const bought = await recordPurchase(
      db,
      {
        memberId: friend.id,
        storeId: "S01",
        receiptNumber: `R-${++receipt}`,
        netAmount: 3_000,
        purchasedAt: t0,
        audit: till,
      },
      t0,
    );
    expect(bought.balance).toBe(330);
    expect(await balance(friend.id)).toBe(330);
    expect(await balance(referrer.id)).toBe(220);
    expect((await ledgerTotals(db, referrer.id)).lotsRemaining).toBe(220);
    const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, referrer.id));
    expect(account?.negativeSince).toBeNull();
    // The referral's row and the purchase's, one after the other in the store's chain, which verifies.
    const rows = await db.select().from(auditLog).where(eq(auditLog.chain, "S01")).orderBy(desc(auditLog.seq)).limit(2);
    const id = (await referralsOf(db, friend.id)).referredBy?.id;
    expect(rows.map((r) => [r.action, r.targetId])).toEqual([
      ["purchase.recorded", bought.purchase.id],
      ["referral.rewarded", id],
    ]);
    expect(rows[0]?.prevHash).toBe(rows[1]?.hash);
    expect(rows[1]?.changes).toMatchObject({ points: { after: 300 }, purchaseId: { after: bought.purchase.id } });
    expect(await verifyAuditChain(db, { chain: "S01" })).toMatchObject({ ok: true });
    expect((await checkLedger(db)).mismatches).toEqual([]);
  });

  it("stops at the monthly limit (Taipei month): the friend is linked, nobody is rewarded", async () => {
    await changeRules(db, { referralMonthlyCap: 2 }, new Date(t0.getTime() - 1000));
    try {
      const referrer = await newMember(db);
      const friends = await Promise.all([1, 2, 3].map(() => newMember(db)));
      for (const f of friends) await link(f.id, referrer.referralCode);
      for (const f of friends) await buy(f.id, 3_000);
      const rows = (await referralsOf(db, referrer.id)).referred;
      expect(rows.map((r) => r.state).sort()).toEqual(["capped", "rewarded", "rewarded"]);
      expect(await balance(referrer.id)).toBe(600);
      // Next Taipei month: a new friend is rewarded again.
      const next = await newMember(db);
      await link(next.id, referrer.referralCode);
      await buy(next.id, 3_000, new Date("2026-03-31T16:00:00Z"));
      expect(await balance(referrer.id)).toBe(900);
      // The rules page's preview over those decisions (the last 30 days): with the limit of 2 in force, 2 of the 3
      // March decisions and the April one are rewarded; a limit of 3 would have rewarded all four, a minimum above
      // NT$3,000 none of them (other tests' bigger purchases may still count).
      const at = new Date("2026-04-02T04:00:00Z");
      const impact = await referralImpact(db, { referralMonthlyCap: 3 }, at);
      const mine = await referralImpact(db, { referralMinAmount: 3_001 }, at);
      expect(impact.rewardedProposed - impact.rewardedCurrent).toBe(1);
      expect(mine.rewardedProposed).toBeLessThanOrEqual(impact.rewardedCurrent - 3);
      expect(impact.pointsCurrent).toBe(impact.rewardedCurrent * 600);
    } finally {
      await changeRules(db, { referralMonthlyCap: 5 }, new Date(t0.getTime() - 500));
    }
  });
});
