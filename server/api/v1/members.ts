import {
  activeMemberByNumber,
  counterMember,
  findMemberAtCounter,
  type MemberQuery,
} from "../../../app/domain/loyalty/member-lookup.server";
import { memberPoints } from "../../../app/domain/loyalty/points.server";
import { apiHandler } from "./context";
import { ApiError, send } from "./errors";
import { LookupQuery } from "./schemas";

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
