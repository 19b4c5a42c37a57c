import { readEinvoiceAtTill } from "../../../app/domain/einvoice/einvoice.server";
import {
  activeMemberByNumber,
  counterMember,
  findMemberAtCounter,
  type MemberQuery,
} from "../../../app/domain/loyalty/member-lookup.server";
import { memberPoints } from "../../../app/domain/loyalty/points.server";
import { hasScope, recordScopeRefusal } from "../../../app/domain/pos/api-keys.server";
import { apiHandler, posAudit } from "./context";
import { ApiError, send } from "./errors";
import { API_V1_ROUTES } from "./middleware/known-paths";
import { EinvoiceQuery, LookupQuery } from "./schemas";

/** GET /members/lookup?cardToken= | memberNumber= | phone= — the member with the name masked. */
export const lookupMember = apiHandler(async function lookupMember({ db, cardSecret, clock }, req, res) {
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
  const found = await findMemberAtCounter(db, asked, { cardSecret, now: clock() });
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
  const found = await findMemberAtCounter(db, asked, { cardSecret, now });
  send(res, 200, await readEinvoiceAtTill(db, found.id, posAudit(req, res, key), "api", now));
});
