import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { material } from "@platform/db/schema/catalog";
import { type QuoteStatus, quoteRequest } from "@platform/db/schema/quotes";
import { type SampleStatus, sampleRequest } from "@platform/db/schema/samples";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { seedCatalog } from "~/domain/demo";
import { recordPurchase, refundPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { panelRows } from "./csv";
import { loadDashboard } from "./dashboard.server";
import { loadShowroom } from "./showroom.server";

/**
 * The dashboard's samples and quotes figures (ADR 048) against a hand-counted history: samples handed out and
 * quotes asked / answered at 23:30 and 00:30 Taipei on both sides of the range's ends, and purchases on both sides
 * of the 30-day window after an answer. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
let db: Database;
useMigratedTestDatabase("showroom_samples_quotes", (handle) => {
  db = handle.db;
});

const X = "xinyi-flagship";
const B = "banqiao";
const taipei = (local: string) => new Date(`${local}+08:00`);
const input = { from: "2026-03-01", to: "2026-03-31", today: "2026-06-20", now: taipei("2026-06-20T10:00:00") };
let materialId = "";

async function member() {
  return (await newMember(db, { createdAt: taipei("2026-01-02T10:00:00") })).id;
}

async function sample(storeId: string, status: SampleStatus, handedOutLocal: string | null, dueBackOn: string | null) {
  await db.insert(sampleRequest).values({
    memberId: await member(),
    storeId,
    materialId,
    status,
    requestedAt: taipei("2026-02-20T10:00:00"),
    handedOutAt: handedOutLocal ? taipei(handedOutLocal) : null,
    dueBackOn,
    returnedAt: status === "returned" ? taipei("2026-04-10T10:00:00") : null,
  });
}

async function quote(
  memberId: string,
  storeId: string,
  status: QuoteStatus,
  askedLocal: string,
  answeredLocal?: string,
) {
  await db.insert(quoteRequest).values({
    reference: randomUUID().slice(0, 8).toUpperCase(),
    memberId,
    storeId,
    status,
    createdAt: taipei(askedLocal),
    answeredAt: answeredLocal ? taipei(answeredLocal) : null,
    validUntil: answeredLocal ? "2026-06-30" : null,
    total: answeredLocal ? 10_000 : null,
  });
}

let receipt = 0;
async function buy(memberId: string, storeId: string, amount: number, local: string) {
  const at = taipei(local);
  const r = await recordPurchase(
    db,
    { memberId, storeId, receiptNumber: `SQ-${++receipt}`, netAmount: amount, purchasedAt: at },
    at,
  );
  return r.purchase.id;
}

beforeAll(async () => {
  await seedCatalog(db);
  const [first] = await db.select({ id: material.id }).from(material).where(eq(material.published, true)).limit(1);
  materialId = first?.id ?? "";

  // Samples (one member each).
  await sample(X, "handed_out", "2026-02-28T23:30:00", "2026-03-14"); // Sa: before the range; out, overdue
  await sample(X, "returned", "2026-03-01T00:30:00", "2026-03-15"); // Sb: in the range (28 Feb in UTC)
  await sample(X, "handed_out", "2026-03-31T23:30:00", "2026-06-20"); // Sc: in the range; out, due today
  await sample(B, "handed_out", "2026-04-01T00:30:00", "2026-06-19"); // Sd: after the range; out, overdue
  await sample(B, "requested", null, null); // Se: not handed out
  await sample(B, "returned", "2026-03-15T12:00:00", "2026-03-29"); // Sf: in the range

  // Quotes.
  const [q1, q2, q3, q4, q5] = [await member(), await member(), await member(), await member(), await member()];
  await quote(q1, X, "answered", "2026-02-28T23:30:00", "2026-03-01T00:30:00"); // Q1: asked before, answered in
  await quote(q2, X, "accepted", "2026-03-10T10:00:00", "2026-03-31T23:30:00"); // Q2: both in
  await quote(q1, X, "closed", "2026-03-20T10:00:00", "2026-03-25T10:00:00"); // Q3: both in, same member as Q1
  await quote(q3, X, "requested", "2026-03-31T23:30:00"); // Q4: asked in, not answered
  await quote(q4, B, "requested", "2026-04-01T00:30:00"); // Q5: after the range
  await quote(q4, B, "answered", "2026-03-05T12:00:00", "2026-04-01T00:30:00"); // Q6: asked in, answered after
  await quote(q5, B, "withdrawn", "2026-03-02T10:00:00", "2026-03-03T12:00:00"); // Q7: answered, later withdrawn

  await buy(q1, X, 1_000, "2026-03-01T00:20:00"); // before Q1's answer: no
  const p = await buy(q1, X, 5_000, "2026-03-30T23:30:00"); // Q1 day +29 and Q3 day +5: yes, once
  await refundPurchase(db, { purchaseId: p, amount: 1_000, idempotencyKey: "sq-refund" }, taipei("2026-04-02T12:00"));
  await buy(q1, X, 2_000, "2026-03-31T00:30:00"); // Q1 day +30: no; Q3 day +6: yes
  await buy(q1, B, 900, "2026-03-05T12:00:00"); // another store: no
  await buy(q2, X, 3_000, "2026-04-29T23:50:00"); // Q2 day +29: yes
  await buy(q2, X, 100, "2026-04-30T00:10:00"); // Q2 day +30: no
  await buy(q4, B, 700, "2026-04-02T12:00:00"); // after Q6, whose answer is outside the range: no
  await buy(q5, B, 1_500, "2026-03-10T12:00:00"); // Q7 day +7: yes
});

describe("showroom samples and quotes", () => {
  it("count samples handed out in the range's Taipei days, and out / overdue today", async () => {
    const s = await loadShowroom(db, { ...input, scope: { kind: "all" } });
    expect(s.samples.rows).toEqual([
      { storeId: B, handedOut: 1, out: 1, overdue: 1 },
      { storeId: X, handedOut: 2, out: 2, overdue: 1 },
    ]);
    expect(s.samples.total).toEqual({ handedOut: 3, out: 3, overdue: 2 });
  });

  it("count quotes asked and answered by Taipei day, and the purchases at that store within 30 days", async () => {
    const s = await loadShowroom(db, { ...input, scope: { kind: "all" } });
    expect(s.quotes.rows).toEqual([
      { storeId: B, requested: 2, answered: 1, open: 0, bought: 1, purchases: 1, amount: 1_500 },
      // Q1, Q2, Q3 bought; the purchase after Q1 and Q3 counts once (net 4,000 after its refund).
      { storeId: X, requested: 3, answered: 3, open: 0, bought: 3, purchases: 3, amount: 9_000 },
    ]);
    expect(s.quotes.total).toEqual({ requested: 5, answered: 4, open: 0, bought: 4, purchases: 4, amount: 10_500 });
  });

  it("counts an answer's window as open while today is inside it", async () => {
    // Today 15 April: Q2 (31 Mar) and Q3 (25 Mar) were answered within the last 30 days, Q1 and Q7 before.
    const s = await loadShowroom(db, { ...input, today: "2026-04-15", scope: { kind: "all" } });
    expect(s.quotes.rows.map((r) => [r.storeId, r.open])).toEqual([
      [B, 0],
      [X, 2],
    ]);
  });

  it("shows a store's staff only their store, and the CSV the same figures", async () => {
    const d = await loadDashboard(db, { ...input, scope: { kind: "stores", storeIds: [B] } });
    expect(d.showroom.samples.rows.map((r) => r.storeId)).toEqual([B]);
    expect(d.showroom.quotes.total).toEqual({
      requested: 2,
      answered: 1,
      open: 0,
      bought: 1,
      purchases: 1,
      amount: 1_500,
    });
    expect(panelRows(d, "samples", (id) => `門市 ${id}`)).toEqual([
      ["store_id", "store", "handed_out", "out_now", "overdue_now"],
      [B, `門市 ${B}`, 1, 1, 1],
      ["", "total", 1, 1, 1],
    ]);
    expect(panelRows(d, "quotes", (id) => id)?.at(-1)).toEqual(["", "total", 2, 1, 1, 1, 1, 1_500, 0]);

    const none = await loadShowroom(db, { ...input, scope: { kind: "stores", storeIds: [] } });
    expect(none.samples.total).toEqual({ handedOut: 0, out: 0, overdue: 0 });
    expect(none.quotes.rows).toEqual([]);
  });
});
