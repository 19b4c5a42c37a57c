import type { Database } from "@platform/db/client";
import { auditLog, type CampaignAudience, campaign, loyaltyAccount, memberRfm } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPurchase, refundPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { audienceSchema } from "~/domain/member-messages/campaign-form.server";
import { campaignFormValues } from "~/domain/member-messages/campaign-values";
import {
  countAudience,
  createCampaign,
  scheduleCampaign,
  startDueCampaigns,
} from "~/domain/member-messages/campaigns.server";
import { audienceChoices } from "~/domain/member-messages/showroom-audience.server";
import { TAIWAN_CITIES } from "~/domain/members/address";
import { setMemberDisabled } from "~/domain/members/console.server";
import { isRefusal } from "~/domain/refusals";
import { testAdminActor } from "~/domain/staff/testing.server";
import { catalogT } from "~/lib/i18n.server";
import { refreshRfm, rfmAlone, rfmAsOf, rfmCount } from "./rfm.server";
import { archiveSegment, countSegment, createSegment, SegmentError, updateSegment } from "./segments.server";

/**
 * Saved segments and the nightly RFM summary (issue 38 part 6, ADR 056) on a known dataset: Taipei day edges of the
 * 12-month window, refunds netted out, quintile scores and groups; segment counts equal to the campaigns' audience;
 * changes audited, names unique. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
let db: Database;
useMigratedTestDatabase("segments", (handle) => {
  db = handle.db;
});

const taipei = (local: string) => new Date(`${local}+08:00`);
// The nightly run of 20 June 2026, 02:40 Taipei: the window is 20 June 2025 00:00 – 19 June 2026 24:00 (Taipei).
const runAt = taipei("2026-06-20T02:40:00");
const { actor, audit } = testAdminActor();

let receipt = 0;
async function buy(memberId: string, local: string, netAmount: number) {
  const at = taipei(local);
  const r = await recordPurchase(
    db,
    { memberId, storeId: "S1", receiptNumber: `RFM-${++receipt}`, netAmount, purchasedAt: at },
    at,
  );
  return r.purchase.id;
}
async function refund(purchaseId: string, amount: number, local: string) {
  await refundPurchase(db, { purchaseId, amount, idempotencyKey: `rfm-refund-${purchaseId}` }, taipei(local));
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  await insertTestStores(db, ["S1"]);
  for (const name of ["e1", "e2", "e3", "e4", "r1", "r2", "a", "b", "none"]) {
    ids[name] = (await newMember(db, { createdAt: taipei("2025-01-02T10:00:00"), marketingSms: true })).id;
  }
  await buy(ids.e1 as string, "2025-06-19T23:59:00", 900); // the day before the window: out
  await buy(ids.e2 as string, "2025-06-20T00:00:30", 800); // its first Taipei day (UTC: 19 June): in, 365 days
  await buy(ids.e3 as string, "2026-06-19T23:59:00", 1200); // its last Taipei day: in, 1 day
  await buy(ids.e4 as string, "2026-06-20T00:10:00", 700); // the run's own day (UTC: still 19 June): out
  await buy(ids.r1 as string, "2026-06-01T12:00:00", 1000);
  const full = await buy(ids.r1 as string, "2026-06-02T12:00:00", 3000);
  await refund(full, 3000, "2026-06-03T12:00:00"); // refunded in full: not a purchase
  const part = await buy(ids.r2 as string, "2026-05-01T12:00:00", 5000);
  await refund(part, 2000, "2026-05-02T12:00:00"); // NT$3,000 left
  for (const day of ["2026-03-01", "2026-04-01", "2026-06-10"]) await buy(ids.a as string, `${day}T12:00:00`, 2000);
  for (const day of ["2025-12-01", "2026-01-15"]) await buy(ids.b as string, `${day}T12:00:00`, 500);
  expect(await refreshRfm(db, runAt)).toEqual({ asOf: "2026-06-20", members: 6 });
});

describe("the nightly RFM summary", () => {
  it("scores the members with a purchase in the Taipei window, refunds netted out, by quintile of rank", async () => {
    const rows = await db.select().from(memberRfm);
    const by = Object.fromEntries(rows.map((r) => [r.memberId, r]));
    const row = (name: string) => {
      const r = by[ids[name] as string];
      return r && [r.recencyDays, r.frequency, r.monetary, r.r, r.f, r.m];
    };
    // n = 6; score = 1 + ⌊5·(rank − 1)/6⌋, ties sharing the lower rank.
    expect(row("e2")).toEqual([365, 1, 800, 1, 1, 1]);
    expect(row("b")).toEqual([156, 2, 1000, 1, 4, 1]);
    expect(row("r2")).toEqual([50, 1, 3000, 2, 1, 4]);
    expect(row("r1")).toEqual([19, 1, 1000, 3, 1, 1]);
    expect(row("a")).toEqual([10, 3, 6000, 4, 5, 5]);
    expect(row("e3")).toEqual([1, 1, 1200, 5, 1, 3]);
    for (const out of ["e1", "e4", "none"]) expect(row(out)).toBeUndefined();
    expect(rows.every((r) => r.asOf === "2026-06-20")).toBe(true);
    expect(await rfmAsOf(db)).toBe("2026-06-20");
  });

  it("replaces the whole table on each run (a later day drops what left the window)", async () => {
    const later = await refreshRfm(db, taipei("2026-06-21T02:40:00"));
    // 21 June: the window starts 21 June 2025, so e2 (20 June 2025) leaves it; e4's purchase (20 June) comes in.
    expect(later).toEqual({ asOf: "2026-06-21", members: 6 });
    const rows = await db.select({ id: memberRfm.memberId, asOf: memberRfm.asOf }).from(memberRfm);
    expect(rows.map((r) => r.id).sort()).toEqual(
      ["e3", "e4", "r1", "r2", "a", "b"].map((n) => ids[n] as string).sort(),
    );
    expect(new Set(rows.map((r) => r.asOf))).toEqual(new Set(["2026-06-21"]));
    await refreshRfm(db, runAt);
  });
});

describe("segment counts", () => {
  const sms = { lineText: null, smsText: "x", emailSubject: null, emailBody: null };
  const filters: CampaignAudience[] = [
    { rfmGroup: "champions" },
    { rfmGroup: "hibernating" },
    { rfmGroup: "lost" },
    { rfmGroup: "new" },
    { rfmR: 1 },
    { rfmM: 1 },
    { rfmF: 1, rfmM: 1 },
    { rfmGroup: "at-risk", tiers: ["basic"] },
    { lastPurchaseDays: 30 },
    {},
  ];
  const expected = [1, 2, 1, 1, 2, 3, 2, 1, 4, 9];

  it("name the members the campaign audience names for the same filter", async () => {
    for (const [i, f] of filters.entries()) {
      const segment = await countSegment(db, f, runAt);
      expect(segment, JSON.stringify(f)).toBe(expected[i]);
      expect((await countAudience(db, f, sms, false, runAt)).total, JSON.stringify(f)).toBe(segment);
    }
  });

  it("and a campaign sent to a saved segment's filters queues exactly its members", async () => {
    const saved = await createSegment(db, actor, { name: "沉睡顧客", audience: { rfmGroup: "hibernating" } }, audit);
    const c = await createCampaign(db, actor, { name: "回來看看", audience: saved.audience, ...sms }, audit, runAt);
    await scheduleCampaign(db, actor, c.id, c.version, null, audit, { lineOn: false }, runAt);
    await startDueCampaigns(db, runAt);
    const [row] = await db.select().from(campaign).where(eq(campaign.id, c.id));
    expect(row?.queuedCount).toBe(await countSegment(db, saved.audience, runAt));
    expect(row?.queuedCount).toBe(2);
  });

  it("read the query string with the campaign's filter schema: unknown scores, groups and NUL bytes are refused", async () => {
    const schema = audienceSchema(catalogT("en"), await audienceChoices(db));
    const read = (q: string) => schema.safeParse(campaignFormValues(new URLSearchParams(q)));
    expect(read("rfmGroup=champions&rfmR=5").data).toMatchObject({ rfmGroup: "champions", rfmR: 5 });
    for (const bad of ["rfmR=6", "rfmF=0", "rfmM=1.5", "rfmGroup=whales", "rfmGroup=lost%00", "rfmR=%00"]) {
      expect(read(bad).success, bad).toBe(false);
    }
  });
});

describe("saving segments", () => {
  it("audits each change in its transaction and keeps names unique (case and spacing aside) while in use", async () => {
    const s = await createSegment(db, actor, { name: "Big  Spenders", audience: { rfmM: 5 } }, audit);
    const taken = await createSegment(db, actor, { name: " big spenders ", audience: {} }, audit).catch((e) => e);
    expect(taken).toBeInstanceOf(SegmentError);
    expect(isRefusal(taken, "segments") && taken.code === "name_taken" && taken.field === "name").toBe(true);
    const other = await createSegment(db, actor, { name: "Others", audience: {} }, audit);
    const renamed = await updateSegment(
      db,
      actor,
      other.id,
      other.version,
      { name: "BIG SPENDERS", audience: {} },
      audit,
    )
      .then(() => null)
      .catch((e) => e);
    expect((renamed as SegmentError).code).toBe("name_taken");
    const stale = await updateSegment(db, actor, s.id, s.version + 5, { name: "x", audience: {} }, audit).catch(
      (e) => e,
    );
    expect(isRefusal(stale) && stale.code).toBe("version_conflict");
    const changed = await updateSegment(
      db,
      actor,
      s.id,
      s.version,
      { name: "Big spenders", audience: { rfmM: 4 } },
      audit,
    );
    expect(changed.version).toBe(s.version + 1);
    await archiveSegment(db, actor, s.id, audit);
    // Archived: its name is free again.
    await createSegment(db, actor, { name: "Big Spenders", audience: {} }, audit);
    const actions = await db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.targetType, "segment"), eq(auditLog.targetId, s.id)));
    expect(actions.map((a) => a.action).sort()).toEqual(["segment.archived", "segment.created", "segment.updated"]);
  });

  it("refuses staff without messages.manage, and writes nothing", async () => {
    const clerk = { ...actor, role: "staff" as const, userId: "clerk-1" };
    await expect(createSegment(db, clerk, { name: "Clerk's", audience: {} }, audit)).rejects.toThrow();
    const rows = await db.select().from(auditLog).where(eq(auditLog.action, "segment.created"));
    expect(rows.some((r) => JSON.stringify(r).includes("Clerk's"))).toBe(false);
  });
});

describe("counts from the summary alone (ADR 056, Later)", () => {
  const sms = { lineText: null, smsText: "x", emailSubject: null, emailBody: null };
  const both = async (f: CampaignAudience) => {
    const alone = await countSegment(db, f, runAt);
    expect((await countAudience(db, f, sms, false, runAt)).total, JSON.stringify(f)).toBe(alone);
    return alone;
  };

  it("are used for RFM filters with at most tiers beside them, the join otherwise", async () => {
    const schema = audienceSchema(catalogT("en"), await audienceChoices(db));
    const read = (q: string) => schema.parse(campaignFormValues(new URLSearchParams(q)));
    // The endpoint's own parse of the bench's filters: every other field is unset.
    for (const q of ["rfmGroup=champions", "rfmR=5", "rfmF=1&rfmM=1", "rfmGroup=loyal&tiers=basic,silver"]) {
      expect(rfmAlone(read(q)), q).toBe(true);
    }
    for (const q of [
      "",
      "tiers=gold",
      `rfmGroup=champions&city=${encodeURIComponent(TAIWAN_CITIES[0]?.name ?? "")}`,
      "rfmR=5&reachable=sms",
      "rfmM=1&balanceMin=0",
    ]) {
      expect(rfmAlone(read(q)), q).toBe(false);
    }
    await expect(rfmCount(db, { tiers: ["gold"] })).rejects.toThrow();
  });

  it("follow a member disabled or changing tier after the nightly job at once, as the campaign audience does", async () => {
    const a = ids.a as string; // R 4, F 5: a champion, basic (NT$6,000 in 12 months)
    expect(await both({ rfmGroup: "champions" })).toBe(1);
    expect(await both({ rfmGroup: "champions", tiers: ["basic"] })).toBe(1);
    const admin = { ...actor };
    const reason = { reason: "測試停用", confirmed: true };
    await setMemberDisabled(db, admin, a, { disabled: true, ...reason }, audit, runAt);
    expect(await both({ rfmGroup: "champions" })).toBe(0);
    expect(await both({ rfmF: 5 })).toBe(0);
    await setMemberDisabled(db, admin, a, { disabled: false, ...reason }, audit, runAt);
    expect(await both({ rfmGroup: "champions" })).toBe(1);
    // NT$50,000 more in 12 months: silver (the rules' default), by the purchase's own tier evaluation.
    await buy(a, "2026-06-20T10:00:00", 50_000);
    const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, a));
    expect(account?.tier).toBe("silver");
    expect(await both({ rfmGroup: "champions", tiers: ["basic"] })).toBe(0);
    expect(await both({ rfmGroup: "champions", tiers: ["silver", "gold"] })).toBe(1);
    expect(await both({ rfmM: 5, tiers: ["silver"] })).toBe(1);
    // Scores still move only nightly: the purchase of today is not in them.
    const [row] = await db.select().from(memberRfm).where(eq(memberRfm.memberId, a));
    expect([row?.frequency, row?.tier, row?.active]).toEqual([3, "silver", true]);
    // The next nightly run writes the same state.
    await refreshRfm(db, runAt);
    expect(await both({ rfmGroup: "champions", tiers: ["silver"] })).toBe(1);
    // The others are still basic.
    expect(await both({ rfmGroup: "hibernating", tiers: ["basic"] })).toBe(2);
  });
});
