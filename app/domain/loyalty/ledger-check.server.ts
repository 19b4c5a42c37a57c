import { type Database, rowsOf } from "@platform/db/client";
import { sql } from "drizzle-orm";

/** A member whose stored balance is not the sum of their ledger entries. */
export type LedgerMismatch = {
  memberId: string;
  memberNumber: string;
  balance: number;
  ledgerSum: number;
  /** balance − ledger sum. */
  difference: number;
};

export type LedgerCheck = {
  members: number;
  /** Sum of every stored balance. */
  totalBalance: number;
  /** Sum of every ledger entry. */
  totalLedger: number;
  mismatches: LedgerMismatch[];
};

/**
 * The ledger's first invariant (ADR 011) over every member at once: loyalty_account.balance equals
 * the sum of the member's point entries (a member without an account row has balance 0). Used to
 * verify a database before and after it is moved or restored.
 */
export async function checkLedger(db: Database): Promise<LedgerCheck> {
  const mismatches = rowsOf<{ member_id: string; member_number: string; balance: string; ledger_sum: string }>(
    await db.execute(sql`
      select m.id as member_id, m.member_number, coalesce(a.balance, 0)::bigint::text as balance,
             coalesce(e.total, 0)::bigint::text as ledger_sum
      from member m
      left join loyalty_account a on a.member_id = m.id
      left join (select member_id, sum(amount) as total from point_entry group by member_id) e on e.member_id = m.id
      where coalesce(a.balance, 0) <> coalesce(e.total, 0)
      order by m.member_number`),
  ).map((r) => ({
    memberId: r.member_id,
    memberNumber: r.member_number,
    balance: Number(r.balance),
    ledgerSum: Number(r.ledger_sum),
    difference: Number(r.balance) - Number(r.ledger_sum),
  }));
  const [totals] = rowsOf<{ members: string; balance: string; ledger: string }>(
    await db.execute(sql`
      select (select count(*) from member)::text as members,
             (select coalesce(sum(balance), 0) from loyalty_account)::text as balance,
             (select coalesce(sum(amount), 0) from point_entry)::text as ledger`),
  );
  return {
    members: Number(totals?.members ?? 0),
    totalBalance: Number(totals?.balance ?? 0),
    totalLedger: Number(totals?.ledger ?? 0),
    mismatches,
  };
}
