import { readEinvoiceAtTill } from "../../../app/domain/einvoice/einvoice.server";
import { LoyaltyError } from "../../../app/domain/loyalty/errors";
import {
  activeMemberByNumber,
  counterMember,
  findMemberAtCounter,
  type MemberQuery,
} from "../../../app/domain/loyalty/member-lookup.server";
import { memberPoints } from "../../../app/domain/loyalty/points.server";
import { pointsQuote } from "../../../app/domain/loyalty/spend.server";
import { requestSpendCode } from "../../../app/domain/loyalty/spend-codes.server";
import { hasScope, recordScopeRefusal } from "../../../app/domain/pos/api-keys.server";
import { apiHandler, posAudit } from "./context";
import { ApiError, parseBody, send } from "./errors";
import { keepAfterRollback } from "./middleware/idempotency";
import { API_V1_ROUTES } from "./middleware/known-paths";
import { EinvoiceQuery, LookupQuery, PointsQuoteQuery, SpendCodeBody } from "./schemas";

/** GET /members/lookup?cardToken= | memberNumber= | phone= — the member with the name masked. */
export const lookupMember = apiHandler(async function lookupMember({ db, cardSecret, clock }, req, res, key) {
  const query = LookupQuery.safeParse(req.query);
  if (!query.success) {
    const issue = query.error.issues[0];
    const field = issue?.path.join(".");
    throw new ApiError(
      "invalid_query",
      field ? `${field}: ${issue?.message}` : "Give exactly one of phone, memberNumber, cardToken",
    );
  }
  const { phone, memberNumber, cardToken } = query.data;
  const asked: MemberQuery = cardToken ? { cardToken } : memberNumber ? { memberNumber } : { phone: phone ?? "" };
  const found = await findMemberAtCounter(db, asked, { cardSecret, now: clock(), audit: posAudit(req, res, key) });
  send(res, 200, await counterMember(db, found));
});

/** GET /members/{memberNumber}/balance — the balance, the tier and the newest 20 ledger entries. */
export const memberBalance = apiHandler(async function memberBalance({ db }, req, res) {
  const found = await activeMemberByNumber(db, String(req.params.memberNumber));
  const points = await memberPoints(db, found.id, 20);
  send(res, 200, {
    memberNumber: found.memberNumber,
    balance: points.balance,
    tier: points.tier,
    entries: points.entries.map((e) => ({ kind: e.kind, amount: e.amount, createdAt: e.createdAt.toISOString() })),
  });
});

/**
 * GET /members/einvoice?memberNumber= | cardToken= — the member's e-invoice carrier and 統編 (ADR 041). Needs
 * the `einvoice:read` scope: without it 403 `scope_missing`, and the refusal is audited. Every answer,
 * including one for a member who turned sharing off (200, `sharing: false`, nulls), is audited.
 */
export const memberEinvoice = apiHandler(async function memberEinvoice({ db, cardSecret, clock }, req, res, key) {
  const now = clock();
  if (!hasScope(key, "einvoice:read")) {
    await recordScopeRefusal(
      db,
      posAudit(req, res, key),
      key,
      { scope: "einvoice:read", endpoint: API_V1_ROUTES.einvoice },
      now,
    );
    throw new ApiError("scope_missing", "This API key lacks the einvoice:read scope");
  }
  const query = EinvoiceQuery.safeParse(req.query);
  if (!query.success) {
    const issue = query.error.issues[0];
    const field = issue?.path.join(".");
    throw new ApiError(
      "invalid_query",
      field ? `${field}: ${issue?.message}` : "Give exactly one of memberNumber, cardToken",
    );
  }
  const { memberNumber, cardToken } = query.data;
  const asked: MemberQuery = cardToken ? { cardToken } : { memberNumber: memberNumber ?? "" };
  const found = await findMemberAtCounter(db, asked, { cardSecret, now, audit: posAudit(req, res, key) });
  send(res, 200, await readEinvoiceAtTill(db, found.id, posAudit(req, res, key), "api", now));
});

/**
 * POST /members/{memberNumber}/spend-code — asks the member to confirm a spend of points (ADR 052): the code shows
 * in their member center; the purchase sends it as `spendCode`. Checked like the purchase (decideSpend), limited
 * per member and per key, audited.
 */
export const sendSpendCode = apiHandler(async function sendSpendCode({ db, cardSecret, clock }, req, res, key) {
  const body = parseBody(SpendCodeBody, req.body);
  const found = await activeMemberByNumber(db, String(req.params.memberNumber));
  const asker = { storeId: key.storeId, requester: `key:${key.id}`, audit: posAudit(req, res, key) };
  const spend = { memberId: found.id, points: body.pointsToSpend, netAmount: body.netAmount };
  const sent = await requestSpendCode(db, cardSecret, asker, spend, clock(), {
    keepAfterRollback: (work) => keepAfterRollback(res, work),
  });
  send(res, 201, {
    memberNumber: found.memberNumber,
    pointsToSpend: sent.points,
    netAmount: sent.netAmount,
    expiresAt: sent.expiresAt.toISOString(),
  });
});

/**
 * GET /members/{memberNumber}/points-quote?amount=3280[&points=500] — how many points the member may spend on NT$
 * amount (decideSpend, the booking's own decision), their value and what is left to pay; with `points`, whether
 * those may (points_exceed_balance, points_exceed_share). Issue 36, ADR 040.
 */
export const memberPointsQuote = apiHandler(async function memberPointsQuote({ db, clock }, req, res) {
  const found = await activeMemberByNumber(db, String(req.params.memberNumber));
  const query = PointsQuoteQuery.safeParse(req.query);
  if (!query.success) {
    const issue = query.error.issues[0];
    const field = String(issue?.path[0] ?? "");
    const message = `${field || "query"}: ${issue?.message ?? "invalid"}`;
    if (field === "points") throw new LoyaltyError("invalid_points", message);
    if (field === "amount") throw new LoyaltyError("invalid_amount", message);
    throw new ApiError("invalid_query", message);
  }
  const { amount, points } = query.data;
  const quote = await pointsQuote(db, found.id, amount, points ?? 0, clock());
  if (quote.problem)
    throw new LoyaltyError(quote.problem, `At most ${quote.maxPoints} points may pay for NT$${amount}`);
  send(res, 200, {
    memberNumber: found.memberNumber,
    amount,
    balance: quote.balance,
    maxPoints: quote.maxPoints,
    maxValue: quote.maxValue,
    amountToPay: quote.maxToPay,
    pointValue: quote.rules.pointValueCents / 100,
    maxSharePercent: quote.rules.maxSpendPercent,
    ...(points !== undefined ? { points: quote.points, value: quote.value, toPay: quote.toPay } : {}),
  });
});
