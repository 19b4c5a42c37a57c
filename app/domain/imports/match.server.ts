import type { Database } from "@platform/db/client";
import { type SQL, sql } from "drizzle-orm";
import { addDays, fromTaipeiWallClock, parseIsoDate } from "~/lib/time";
import { LINE_PROVIDER_ID } from "../line/line.server";
import type { ImportProblem } from "./record";

/**
 * Matching staged rows to members (ADR 038), set-based: a few UPDATE … FROM statements over the run's rows,
 * whatever their number. The check (dry run) runs it over the whole run; the apply runs it again over each
 * batch just before writing it, so a member who signed up between the check and the apply is merged into,
 * not duplicated.
 *
 * Order: the `member_source` key (unchanged), then the phone (merge), then the e-mail (merge); a phone held by
 * another login than the matched member's → reject `phone_taken`; then everything left is `create`. Notes:
 * `email_taken` (the e-mail stays out), `line_taken` (the LINE login is not linked).
 */

/** Codes the matching writes; the apply strips them before matching a batch again. */
export const MATCH_CODES = ["phone_taken", "email_taken", "line_taken"] as const;

type Scope = { runId: string; from?: number; to?: number };

function inScope(scope: Scope): SQL {
  const range =
    scope.from !== undefined && scope.to !== undefined
      ? sql` and r.line between ${scope.from}::int and ${scope.to}::int`
      : sql``;
  return sql`r.run_id = ${scope.runId}::uuid and r.state = 'pending'${range}`;
}

function problemJson(problem: ImportProblem): SQL {
  return sql`jsonb_build_array(jsonb_build_object('field', ${problem.field}::text, 'code', ${problem.code}::text, 'severity', ${problem.severity}::text))`;
}

/** The rows in scope whose plan is still open get one: unchanged, merge, reject (phone_taken) or create. */
export async function matchRows(db: Database, scope: Scope & { source: string }): Promise<void> {
  const where = inScope(scope);
  await db.execute(sql`
    update import_row r set plan = 'unchanged', member_id = s.member_id
    from member_source s
    where ${where} and r.plan is null and s.source = ${scope.source} and s.external_id = r.external_id`);
  await db.execute(sql`
    update import_row r set plan = 'merge', member_id = m.id
    from member m
    where ${where} and r.plan is null and m.phone_number = r.record->>'phoneNumber'`);
  await db.execute(sql`
    update import_row r set plan = 'merge', member_id = m.id
    from member m
    where ${where} and r.plan is null and r.record->>'email' is not null and m.email = r.record->>'email'`);
  await db.execute(sql`
    update import_row r set plan = 'reject', member_id = null,
      problems = coalesce(r.problems, '[]'::jsonb) || ${problemJson({ field: "phoneNumber", code: "phone_taken", severity: "reject" })}
    where ${where} and (r.plan is null or r.plan = 'merge')
      and exists (
        select 1 from auth_user u
        where u.phone_number = r.record->>'phoneNumber'
          and u.id is distinct from (select m.user_id from member m where m.id = r.member_id))`);
  await db.execute(sql`update import_row r set plan = 'create' where ${where} and r.plan is null`);

  // E-mail: only where it would be stored (a new member, or a member without one); the first row wins.
  await db.execute(sql`
    with target as (
      select r.line, r.record->>'email' as email, r.member_id, m.user_id,
        row_number() over (partition by r.record->>'email' order by r.line) as nth
      from import_row r left join member m on m.id = r.member_id
      where ${where} and r.record->>'email' is not null
        and (r.plan = 'create' or (r.plan = 'merge' and m.email is null))
    )
    update import_row r set problems = coalesce(r.problems, '[]'::jsonb) || ${problemJson({ field: "email", code: "email_taken", severity: "note" })}
    from target t
    where r.run_id = ${scope.runId}::uuid and r.line = t.line and (
      t.nth > 1
      or exists (select 1 from member o where o.email = t.email and o.id is distinct from t.member_id)
      or (t.email in (select o.pending_email from member o where o.pending_email is not null)
        and not exists (select 1 from member own where own.id = t.member_id and own.pending_email = t.email))
      or exists (select 1 from auth_user u where u.email = t.email and u.id is distinct from t.user_id))`);

  // LINE: linked only when no other login holds the id and the member has no other LINE login; first row wins.
  await db.execute(sql`
    with target as (
      select r.line, r.record->>'lineUserId' as line_id, m.user_id,
        row_number() over (partition by r.record->>'lineUserId' order by r.line) as nth
      from import_row r left join member m on m.id = r.member_id
      where ${where} and r.record->>'lineUserId' is not null and r.plan in ('create', 'merge')
    )
    update import_row r set problems = coalesce(r.problems, '[]'::jsonb) || ${problemJson({ field: "lineUserId", code: "line_taken", severity: "note" })}
    from target t
    where r.run_id = ${scope.runId}::uuid and r.line = t.line and (
      t.nth > 1
      or exists (select 1 from auth_account a where a.provider_id = ${LINE_PROVIDER_ID} and a.account_id = t.line_id
        and a.user_id is distinct from t.user_id)
      or exists (select 1 from auth_account a where a.provider_id = ${LINE_PROVIDER_ID} and a.user_id = t.user_id
        and a.account_id <> t.line_id))`);
}

/** Check only: the second and later rows of the file with the same old id or the same phone → duplicate_in_file. */
export async function markDuplicates(db: Database, runId: string): Promise<void> {
  await db.execute(sql`
    with ranked as (
      select r.line,
        row_number() over (partition by r.external_id order by r.line) as by_id,
        row_number() over (partition by r.record->>'phoneNumber' order by r.line) as by_phone,
        r.record->>'phoneNumber' as phone
      from import_row r
      where r.run_id = ${runId}::uuid and r.plan is null
    )
    update import_row r set plan = 'reject',
      problems = coalesce(r.problems, '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
        'field', case when k.by_id > 1 then 'externalId' else 'phoneNumber' end,
        'code', 'duplicate_in_file', 'severity', 'reject'))
    from ranked k
    where r.run_id = ${runId}::uuid and r.line = k.line and (k.by_id > 1 or (k.phone is not null and k.by_phone > 1))`);
}

/** Apply only: the batch's open rows lose their earlier match (plan, member, match notes) before matching again. */
export async function resetMatches(db: Database, scope: Scope): Promise<void> {
  const where = inScope(scope);
  await db.execute(sql`
    update import_row r set member_id = null, plan = null,
      problems = (select coalesce(jsonb_agg(p), '[]'::jsonb) from jsonb_array_elements(coalesce(r.problems, '[]'::jsonb)) p
        where p->>'code' not in ('phone_taken', 'email_taken', 'line_taken'))
    where ${where}`);
  await db.execute(sql`
    update import_row r set plan = 'reject'
    where ${where} and (r.record is null or exists (
      select 1 from jsonb_array_elements(coalesce(r.problems, '[]'::jsonb)) p where p->>'severity' = 'reject'))`);
}

/** The exclusive end of an inclusive Taipei last day (the start of the next Taipei day), or null. */
export function lastDayEnd(lastDay: string | null): Date | null {
  if (!lastDay) return null;
  const day = parseIsoDate(lastDay);
  return day ? fromTaipeiWallClock(addDays(day, 1)) : null;
}
