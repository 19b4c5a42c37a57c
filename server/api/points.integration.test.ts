import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, purchase } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { issueCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { adjustPoints } from "../../app/domain/loyalty/points.server";
import { pendingSpendCodes } from "../../app/domain/loyalty/spend-codes.server";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { serveApiV1ForTests } from "./api-v1-rig.testing";
import { API_ERROR_CODES } from "./v1/errors";
import { openApiDocument } from "./v1/openapi";

let database: DatabaseHandle;
let base: string;
let storeKey: string;
let cardSecret: string;
serveApiV1ForTests("api_points", (rig) => {
  ({ database, base, storeKey, cardSecret } = rig);
});

/** A JSON answer, loosely typed for assertions. */
type Answer = { status: number; body: Json };
// biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON fields.
type Json = any;

let keyCounter = 0;
async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string | undefined> = {},
): Promise<Answer> {
  const h: Record<string, string> = { authorization: `Bearer ${storeKey}` };
  if (method === "POST") {
    h["content-type"] = "application/json";
    h["idempotency-key"] = `k-${++keyCounter}`;
  }
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k];
    else h[k] = v;
  }
  const res = await fetch(`${base}${path}`, {
    method,
    headers: h,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("POS API: pay with points (issue 36)", () => {
  it("quotes, books a purchase paid partly with points, replays it, refuses conflicts and refunds in proportion", async () => {
    const m = await newMember(database.db);
    await adjustPoints(database.db, { memberId: m.id, amount: 1000, reason: "seed", idempotencyKey: `seed:${m.id}` });
    const quote = await call("GET", `/members/${m.memberNumber}/points-quote?amount=3280`);
    expect(quote).toEqual({
      status: 200,
      body: {
        memberNumber: m.memberNumber,
        amount: 3280,
        balance: 1000,
        maxPoints: 1000,
        maxValue: 1000,
        amountToPay: 2280,
        pointValue: 1,
        maxSharePercent: 50,
      },
    });
    expect((await call("GET", `/members/${m.memberNumber}/points-quote?amount=3280&points=500`)).body).toMatchObject({
      points: 500,
      value: 500,
      toPay: 2780,
    });
    // The member's card scanned at the till (ADR 052: a spend by card needs no code from the member).
    const cardToken = issueCardToken(cardSecret, m.id).token;
    const purchaseBody = { cardToken, receiptNumber: "PWP-1", netAmount: 3280, pointsToSpend: 500 };
    const first = await call("POST", "/purchases", purchaseBody);
    expect(first).toMatchObject({
      status: 201,
      body: { pointsSpent: 500, pointsSpentValue: 500, amountPaid: 2780, pointsEarned: 27, balance: 527 },
    });
    // A retry (another Idempotency-Key, the same receipt): the first result.
    expect(await call("POST", "/purchases", purchaseBody)).toMatchObject({
      status: 200,
      body: { purchaseId: first.body.purchaseId, pointsSpent: 500, pointsEarned: 27 },
    });
    // The same Idempotency-Key replays the stored answer.
    const keyed = { "idempotency-key": "pwp-same-key" };
    const once = await call(
      "POST",
      "/purchases",
      { ...purchaseBody, receiptNumber: "PWP-2", pointsToSpend: 100 },
      keyed,
    );
    expect(once).toMatchObject({ status: 201, body: { pointsSpent: 100 } });
    expect(
      await call("POST", "/purchases", { ...purchaseBody, receiptNumber: "PWP-2", pointsToSpend: 100 }, keyed),
    ).toMatchObject({ status: 201, body: { purchaseId: once.body.purchaseId } });
    expect((await call("POST", "/purchases", { ...purchaseBody, pointsToSpend: 400 })).body.error.code).toBe(
      "receipt_conflict",
    );
    // PWP-2: NT$3,280 − 100 points = NT$3,180 paid in money, 31 points.
    const balance = 527 - 100 + 31;
    expect(await ledgerTotals(database.db, m.id)).toMatchObject({ balance, ledgerSum: balance });

    const refund = await call("POST", `/purchases/${first.body.purchaseId}/refunds`, { amount: 1000 });
    expect(refund).toMatchObject({ status: 201, body: { pointsReturned: 152, pointsReversed: 8 } });
    const rest = await call("POST", `/purchases/${first.body.purchaseId}/refunds`, { amount: 2280 });
    expect(rest).toMatchObject({
      status: 201,
      body: { pointsReturned: 348, pointsReversed: 19, refundedAmount: 3280 },
    });
    const totals = await ledgerTotals(database.db, m.id);
    expect(totals.ledgerSum).toBe(totals.balance);
    expect(totals.balance).toBe(balance + 500 - 27);
  });

  it("refuses too many, fractional and negative points with stable codes, booking nothing", async () => {
    const m = await newMember(database.db);
    await adjustPoints(database.db, { memberId: m.id, amount: 300, reason: "seed", idempotencyKey: `seed:${m.id}` });
    const cardToken = issueCardToken(cardSecret, m.id).token;
    const buy = (receiptNumber: string, netAmount: number, pointsToSpend: unknown) =>
      call("POST", "/purchases", { cardToken, receiptNumber, netAmount, pointsToSpend });
    const cases: [Promise<Answer>, number, string][] = [
      [buy("X-1", 3280, 301), 409, "points_exceed_balance"],
      [buy("X-2", 400, 201), 422, "points_exceed_share"],
      [buy("X-3", 3280, 1.5), 400, "invalid_points"],
      [buy("X-4", 3280, -1), 400, "invalid_points"],
      [buy("X-5", 3280, "10"), 400, "invalid_points"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=3280&points=301`), 409, "points_exceed_balance"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=400&points=201`), 422, "points_exceed_share"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=3280&points=1.5`), 400, "invalid_points"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=3280&points=-1`), 400, "invalid_points"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=0`), 400, "invalid_amount"],
      [call("GET", `/members/${m.memberNumber}/points-quote`), 400, "invalid_amount"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=10&x=1`), 400, "invalid_query"],
      [call("GET", "/members/HL0000000/points-quote?amount=10"), 404, "member_not_found"],
      // NUL bytes in the query and the path: refused before any query is sent.
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=3280%00`), 400, "invalid_amount"],
      [call("GET", `/members/${m.memberNumber}/points-quote?amount=3280&points=5%00`), 400, "invalid_points"],
      [call("GET", "/members/HL%00/points-quote?amount=10"), 404, "member_not_found"],
    ];
    for (const [answer, status, code] of cases) {
      const { status: got, body } = await answer;
      expect([got, body.error?.code]).toEqual([status, code]);
      expect(API_ERROR_CODES.some((e) => e.code === code && e.status === status)).toBe(true);
    }
    expect(await database.db.select().from(purchase).where(eq(purchase.memberId, m.id))).toEqual([]);
    expect(await ledgerTotals(database.db, m.id)).toEqual({ balance: 300, ledgerSum: 300, lotsRemaining: 300 });
  });

  it("needs the member's code to spend points for a member given by number (ADR 052), none by card", async () => {
    const m = await newMember(database.db);
    await adjustPoints(database.db, { memberId: m.id, amount: 1000, reason: "seed", idempotencyKey: `seed:${m.id}` });
    const byNumber = { memberNumber: m.memberNumber, netAmount: 3280, pointsToSpend: 500 };
    // Without a code: refused, nothing booked; a plain purchase by number needs none.
    const without = await call("POST", "/purchases", { ...byNumber, receiptNumber: "SC-1" });
    expect([without.status, without.body.error.code]).toEqual([422, "spend_code_required"]);
    expect(
      (await call("POST", "/purchases", { memberNumber: m.memberNumber, receiptNumber: "SC-0", netAmount: 100 }))
        .status,
    ).toBe(201);
    // The till asks for a code: it waits in the member's member center.
    const asked = await call("POST", `/members/${m.memberNumber}/spend-code`, { netAmount: 3280, pointsToSpend: 500 });
    expect(asked).toMatchObject({ status: 201, body: { memberNumber: m.memberNumber, pointsToSpend: 500 } });
    const [pending] = await pendingSpendCodes(database.db, cardSecret, m.id);
    expect(pending).toMatchObject({ points: 500, netAmount: 3280 });
    const code = pending?.code ?? "";
    expect(code).toMatch(/^\d{6}$/);
    // A wrong code, a code for other points, then the right one; used once.
    const wrong = code === "000000" ? "000001" : "000000";
    const refused = await call("POST", "/purchases", { ...byNumber, receiptNumber: "SC-1", spendCode: wrong });
    expect([refused.status, refused.body.error.code]).toEqual([422, "spend_code_wrong"]);
    const other = await call("POST", "/purchases", {
      ...byNumber,
      pointsToSpend: 400,
      receiptNumber: "SC-1",
      spendCode: code,
    });
    expect([other.status, other.body.error.code]).toEqual([422, "spend_code_mismatch"]);
    const booked = await call("POST", "/purchases", { ...byNumber, receiptNumber: "SC-1", spendCode: code });
    expect(booked).toMatchObject({ status: 201, body: { pointsSpent: 500, amountPaid: 2780, pointsEarned: 27 } });
    const again = await call("POST", "/purchases", { ...byNumber, receiptNumber: "SC-2", spendCode: code });
    expect([again.status, again.body.error.code]).toEqual([422, "spend_code_expired"]);
    expect(await pendingSpendCodes(database.db, cardSecret, m.id)).toEqual([]);
    // The wrong tries were kept although their requests rolled back, and every step is in the audit log.
    const actions = await database.db
      .select({ action: auditLog.action, changes: auditLog.changes })
      .from(auditLog)
      .where(eq(auditLog.targetId, m.id));
    const refusals = actions.filter((a) => a.action === "points.spend_code_refused").map((a) => a.changes?.code?.after);
    expect(refusals.sort()).toEqual([
      "spend_code_expired",
      "spend_code_mismatch",
      "spend_code_required",
      "spend_code_wrong",
    ]);
    expect(actions.filter((a) => a.action === "points.spend_code_sent")).toHaveLength(1);
    // By card: no code.
    const cardToken = issueCardToken(cardSecret, m.id).token;
    const card = await call("POST", "/purchases", {
      cardToken,
      receiptNumber: "SC-3",
      netAmount: 1000,
      pointsToSpend: 100,
    });
    expect(card).toMatchObject({ status: 201, body: { pointsSpent: 100 } });
    // Exactly one of memberNumber and cardToken; a code is 6 digits.
    const both = await call("POST", "/purchases", { ...byNumber, cardToken, receiptNumber: "SC-4" });
    expect(both.status).toBe(400);
    const badCode = await call("POST", "/purchases", { ...byNumber, receiptNumber: "SC-4", spendCode: "12ab56" });
    expect(badCode.status).toBe(400);
    const totals = await ledgerTotals(database.db, m.id);
    expect(totals.ledgerSum).toBe(totals.balance);
    expect(totals.balance).toBe(1000 + 1 - 500 + 27 - 100 + 9);
  });

  it("documents the quote endpoint and pointsToSpend in the OpenAPI document", () => {
    const doc = openApiDocument() as { paths: Record<string, { get?: unknown; post?: { requestBody: unknown } }> };
    expect(doc.paths["/members/{memberNumber}/points-quote"]?.get).toBeTruthy();
    expect(JSON.stringify(doc.paths["/purchases"]?.post?.requestBody)).toContain("pointsToSpend");
    expect(JSON.stringify(doc.paths["/purchases"]?.post?.requestBody)).toContain("spendCode");
    expect(doc.paths["/members/{memberNumber}/spend-code"]?.post).toBeTruthy();
  });
});
