import type { Database } from "@platform/db/client";
import { auditLog, loyaltyAccount, tradeApplication } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { pointsForAmount } from "../loyalty/earn";
import { recordPurchase } from "../loyalty/purchases.server";
import { changeRules, DEFAULT_RULES } from "../loyalty/rules.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { deleteMemberAccount } from "../members/privacy.server";
import { isRefusal } from "../refusals";
import { createTestStaff, testAdminActor } from "../staff/testing.server";
import { linkReferral } from "./referrals.server";
import { maskClientAmount } from "./trade";
import {
  applyForTrade,
  decideTradeApplication,
  tradeApplications,
  tradeClientPurchases,
  tradeStatusOf,
} from "./trade.server";

/** Trade accounts (issue 38 part 2, ADR 057) on PGlite, and on PostgreSQL when TEST_DATABASE_URL is set. */
let db: Database;
useMigratedTestDatabase("trade_accounts", (handle) => {
  db = handle.db;
});

const { actor: admin, audit } = testAdminActor();
const t0 = new Date("2026-03-10T04:00:00Z");
const TAX_ID = "22099131";
let receipt = 0;
const buy = (memberId: string, netAmount: number, now = t0) =>
  recordPurchase(db, { memberId, storeId: "S01", receiptNumber: `T-${++receipt}`, netAmount, purchasedAt: now }, now);

const apply = (memberId: string, fields: Partial<{ taxIdNumber: string; companyName: string; kind: string }> = {}) =>
  applyForTrade(
    db,
    { memberId, taxIdNumber: TAX_ID, companyName: "漢生設計有限公司", kind: "designer", ...fields },
    t0,
  );

const decide = (applicationId: string, decision: "approve" | "reject", reason?: string) =>
  decideTradeApplication(db, admin, { applicationId, decision, reason }, audit, t0);

/** The refusal's code and field, or "ok". */
async function refusal(run: Promise<unknown>): Promise<string> {
  try {
    await run;
    return "ok";
  } catch (error) {
    if (!isRefusal(error, "trade")) throw error;
    return error.field ? `${error.code}@${error.field}` : error.code;
  }
}

async function tradeMember() {
  const m = await newMember(db);
  await decide(await apply(m.id), "approve");
  return m;
}

describe("applying", () => {
  it("keeps one pending application: a second one, even at the same time, is refused", async () => {
    const m = await newMember(db);
    const outcomes = await Promise.allSettled([apply(m.id), apply(m.id)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(await refusal(apply(m.id))).toBe("already_pending");
    const rows = await db.select().from(tradeApplication).where(eq(tradeApplication.memberId, m.id));
    expect(rows.map((r) => r.state)).toEqual(["pending"]);
    expect((await tradeStatusOf(db, m.id)).latest?.state).toBe("pending");
  });

  it("refuses a bad 統編, an empty company, an unknown kind and a NUL byte, beside their fields", async () => {
    const m = await newMember(db);
    expect(await refusal(apply(m.id, { taxIdNumber: "12345678" }))).toBe("invalid_tax_id@taxIdNumber");
    expect(await refusal(apply(m.id, { taxIdNumber: "2209913" }))).toBe("invalid_tax_id@taxIdNumber");
    expect(await refusal(apply(m.id, { taxIdNumber: "2209\u00009131" }))).toBe("invalid_tax_id@taxIdNumber");
    expect(await refusal(apply(m.id, { companyName: "  " }))).toBe("invalid_company@companyName");
    expect(await refusal(apply(m.id, { companyName: "漢生\u0000設計" }))).toBe("invalid_company@companyName");
    expect(await refusal(apply(m.id, { kind: "architect" }))).toBe("invalid_kind@kind");
    expect(await db.select().from(tradeApplication).where(eq(tradeApplication.memberId, m.id))).toEqual([]);
    // Full-width digits and spaces are what people type: the same valid 統編.
    expect(await refusal(apply(m.id, { taxIdNumber: "２２０９ ９１３１" }))).toBe("ok");
  });
});

describe("deciding", () => {
  it("approves once: the account becomes a trade account, audited in the transaction; a second decision is refused", async () => {
    const m = await newMember(db);
    const id = await apply(m.id);
    const outcomes = await Promise.allSettled([decide(id, "approve"), decide(id, "reject", "資料不符")]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === "rejected");
    expect(refused && isRefusal(refused.reason, "trade") && refused.reason.code).toBe("already_decided");
    const [row] = await db.select().from(tradeApplication).where(eq(tradeApplication.id, id));
    const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
    expect(account?.trade ?? false).toBe(row?.state === "approved");
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "trade_application"), eq(auditLog.targetId, id)));
    expect(audits.map((a) => a.action)).toEqual([`trade.${row?.state}`]);
    expect(await refusal(decide(id, "approve"))).toBe("already_decided");
    expect(await refusal(decide("00000000-0000-4000-8000-000000000000", "approve"))).toBe("not_found");
  });

  it("rejects only with a reason, which the member sees; then the member may apply again", async () => {
    const m = await newMember(db);
    const id = await apply(m.id);
    expect(await refusal(decide(id, "reject"))).toBe("reason_required@reason");
    expect(await refusal(decide(id, "reject", "   "))).toBe("reason_required@reason");
    expect(await refusal(decide(id, "reject", "統編\u0000不符"))).toBe("invalid_reason@reason");
    await decide(id, "reject", "統編與公司名稱不符");
    const status = await tradeStatusOf(db, m.id);
    expect(status).toMatchObject({ trade: false, latest: { state: "rejected", reason: "統編與公司名稱不符" } });
    const again = await apply(m.id);
    expect(again).not.toBe(id);
  });

  it("refuses an approved member's new application, and a staff member without the permission", async () => {
    const m = await tradeMember();
    expect(await refusal(apply(m.id))).toBe("already_trade");
    const other = await newMember(db);
    const id = await apply(other.id);
    const clerk = await createTestStaff(db, "secret-secret-secret-secret-secret", { role: "staff", storeIds: ["S01"] });
    await expect(
      decideTradeApplication(db, clerk.actor, { applicationId: id, decision: "approve" }, audit, t0),
    ).rejects.toMatchObject({ init: { status: 403 } });
  });

  it("lists pending applications first", async () => {
    const m = await newMember(db);
    await apply(m.id);
    const { rows, pending } = await tradeApplications(db, 1);
    expect(pending).toBeGreaterThan(0);
    const firstDecided = rows.findIndex((r) => r.state !== "pending");
    const lastPending = rows.map((r) => r.state).lastIndexOf("pending");
    if (firstDecided >= 0) expect(lastPending).toBeLessThan(firstDecided);
  });
});

describe("earning", () => {
  it("multiplies the tier's points by the trade multiplier, rounded down once", () => {
    const rules = { ...DEFAULT_RULES, tradeMultiplierPermille: 1500 };
    expect(pointsForAmount(rules, "basic", 10_000, true)).toBe(150);
    expect(pointsForAmount(rules, "silver", 10_000, true)).toBe(180);
    expect(pointsForAmount(rules, "gold", 10_000, true)).toBe(225);
    expect(pointsForAmount(rules, "gold", 10_000, false)).toBe(150);
    expect(pointsForAmount(rules, "silver", 1_100, true)).toBe(19); // 11 × 1.2 × 1.5 = 19.8
    expect(pointsForAmount({ ...rules, tradeMultiplierPermille: 1000 }, "gold", 10_000, true)).toBe(150);
  });

  it("a trade member's purchase earns the multiplied points; a non-trade member's is unaffected", async () => {
    await changeRules(db, { tradeMultiplierPermille: 1500 }, new Date(t0.getTime() - 60_000));
    const trade = await tradeMember();
    const plain = await newMember(db);
    expect((await buy(trade.id, 10_000)).pointsEarned).toBe(150);
    expect((await buy(plain.id, 10_000)).pointsEarned).toBe(100);
    await db.update(loyaltyAccount).set({ tier: "silver" }).where(eq(loyaltyAccount.memberId, trade.id));
    expect((await buy(trade.id, 10_000)).pointsEarned).toBe(180);
    const totals = await ledgerTotals(db, trade.id);
    expect(totals).toMatchObject({ balance: 330, ledgerSum: 330 });
  });
});

describe("clients", () => {
  it("shows the referred members' purchases with their points and the referral reward, masked and paged", async () => {
    const trade = await tradeMember();
    const client = await newMember(db, { nameZh: "林美華" });
    await db.transaction((tx) => linkReferral(tx, { friendId: client.id, code: trade.referralCode }, t0));
    const first = await buy(client.id, 3_200, new Date(t0.getTime() + 60_000));
    const second = await buy(client.id, 800, new Date(t0.getTime() + 120_000));
    const { rows, hasMore } = await tradeClientPurchases(db, trade.id, 1);
    expect(hasMore).toBe(false);
    expect(rows.map((r) => [r.id, r.clientPoints, r.referrerPoints])).toEqual([
      [second.purchase.id, second.pointsEarned, 0],
      [first.purchase.id, first.pointsEarned, 300],
    ]);
    expect(maskClientAmount(3_200)).toBe("3,xxx");
    expect(maskClientAmount(800)).toBe("< 1,000");
    // Another member sees none of them.
    expect((await tradeClientPurchases(db, client.id, 1)).rows).toEqual([]);
  });
});

describe("leaving", () => {
  it("a deleted account's applications (統編, company) go, and it is no trade account any more", async () => {
    const m = await tradeMember();
    const result = await deleteMemberAccount(db, { userId: m.userId, ip: null, revokers: [] }, t0);
    expect(result.ok).toBe(true);
    expect(await db.select().from(tradeApplication).where(eq(tradeApplication.memberId, m.id))).toEqual([]);
    expect((await tradeStatusOf(db, m.id)).trade).toBe(false);
  });
});
