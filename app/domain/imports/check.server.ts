import { type Database, rowsOf } from "@platform/db/client";
import { importAuthUser, importRow, importRun, member, memberSource } from "@platform/db/schema";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { verifyFirebaseScrypt } from "../auth/firebase-scrypt.server";
import { normalizeTaiwanMobile } from "../members/taiwan";
import { Refusal } from "../refusals";
import { lastDayEnd, markDuplicates, matchRows } from "./match.server";
import { readCsvRow } from "./read-csv";
import { readFirebaseMember } from "./read-firebase";
import type { ImportPassword, ImportProblem, ImportProblemCode, ImportRecord, ReadResult } from "./record";
import {
  type ImportPlan,
  type ImportReport,
  type ImportRun,
  loadRun,
  optionsOf,
  type PasswordCheck,
  requireStatus,
  type StoredOptions,
} from "./run-store.server";

/**
 * The check (dry run): every staged row is read into a record with its problems (the readers), the file's own
 * duplicates are refused, the rest matched to members (match.server.ts), and the counts summed into the run's
 * report. Nothing outside import_row / import_run changes. Set-based where it can be: reading is per row (in
 * batches of 1,000, one UPDATE per batch), matching is a handful of statements over the whole run.
 */

const CHECK_BATCH = 1000;
/** The largest opening balance a row may carry (the ledger's amounts are 32-bit). */
const MAX_POINTS = 1_000_000_000;

type StagedRow = { line: number; externalId: string | null; raw: unknown };

/** Firebase member documents name their auth users by uid in these fields (ADR 038). */
function authUids(raw: unknown): string[] {
  if (!raw || typeof raw !== "object") return [];
  const doc = raw as Record<string, unknown>;
  return [doc.userEmailId, doc.userPhoneId].filter((v): v is string => typeof v === "string" && v.length > 0);
}

async function authUsersFor(db: Database, runId: string, rows: StagedRow[]): Promise<Map<string, unknown>> {
  const uids = [...new Set(rows.flatMap((r) => authUids(r.raw)))];
  if (uids.length === 0) return new Map();
  const found = await db
    .select({ localId: importAuthUser.localId, raw: importAuthUser.raw })
    .from(importAuthUser)
    .where(and(eq(importAuthUser.runId, runId), inArray(importAuthUser.localId, uids)));
  return new Map(found.map((u) => [u.localId, u.raw]));
}

/** One staged row read into a record with its problems, plus the engine's own checks (points, past expiry). */
function readStaged(run: ImportRun, options: StoredOptions, row: StagedRow, users: Map<string, unknown>, now: Date) {
  const read: ReadResult =
    run.kind === "firebase"
      ? readFirebaseMember({ documentId: row.externalId ?? `line:${row.line}`, raw: row.raw }, users)
      : readCsvRow((row.raw ?? {}) as Record<string, string>, options.mapping ?? {}, row.line);
  const problems: ImportProblem[] = [...read.problems];
  const has = (code: ImportProblemCode) => problems.some((p) => p.code === code);
  const record = read.record;
  if (record) {
    if (!Number.isSafeInteger(record.points) || record.points < 0 || record.points > MAX_POINTS) {
      if (!has("points_invalid")) problems.push({ field: "points", code: "points_invalid", severity: "reject" });
    }
    const end = lastDayEnd(record.pointsLastDay);
    if (record.pointsLastDay && !end && !has("expiry_invalid")) {
      problems.push({ field: "pointsLastDay", code: "expiry_invalid", severity: "reject" });
    }
    if (end && end <= now && record.points > 0 && !has("expiry_past")) {
      problems.push({ field: "pointsLastDay", code: "expiry_past", severity: "note" });
    }
  } else if (!problems.some((p) => p.severity === "reject")) {
    problems.push({ field: "", code: "not_an_object", severity: "reject" });
  }
  const reject = !record || problems.some((p) => p.severity === "reject");
  return { record, problems, plan: (reject ? "reject" : null) as ImportPlan | null };
}

async function readAll(db: Database, run: ImportRun, now: Date): Promise<void> {
  const options = optionsOf(run);
  // The staged rows are new to the planner: without fresh statistics it takes this run for one row and joins each
  // batch's update against all of its rows (1,000,000 rows became quadratic). The update below is also bounded to
  // the batch's lines, so it reads only its own rows whatever the plan.
  await db.execute(sql`analyze import_row`);
  // Real promises (a query builder runs again each time it is awaited): each batch is read once.
  const batchAfter = (after: number) =>
    Promise.resolve(
      db
        .select({ line: importRow.line, externalId: importRow.externalId, raw: importRow.raw })
        .from(importRow)
        .where(and(eq(importRow.runId, run.id), gt(importRow.line, after)))
        .orderBy(asc(importRow.line))
        .limit(CHECK_BATCH),
    );
  // A pipeline: the next batch is read, and this batch's update written, while this process reads the rows, so
  // the database and this process work at the same time (a batch's update never touches the next batch's lines).
  let next = batchAfter(0);
  next.catch(() => undefined);
  let writing: Promise<unknown> = Promise.resolve();
  try {
    for (;;) {
      const rows = await next;
      if (rows.length === 0) break;
      const first = rows[0]?.line ?? 0;
      const last = rows[rows.length - 1]?.line ?? first;
      next = batchAfter(last);
      next.catch(() => undefined); // handled below (awaited, or settled in finally): never an unhandled rejection
      const users = run.kind === "firebase" ? await authUsersFor(db, run.id, rows) : new Map<string, unknown>();
      const values = rows.map((row) => {
        const read = readStaged(run, options, row, users, now);
        return {
          line: row.line,
          external_id: read.record?.externalId ?? row.externalId ?? `line:${row.line}`,
          record: read.record,
          problems: read.problems,
          plan: read.plan,
        };
      });
      await writing;
      writing = Promise.resolve(
        db.execute(sql`
        update import_row r set external_id = v.external_id, record = v.record, problems = v.problems, plan = v.plan,
          member_id = null, state = 'pending'
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as v(line int, external_id text, record jsonb, problems jsonb, plan text)
        where r.run_id = ${run.id}::uuid and r.line = v.line and r.line between ${first} and ${last}`),
      );
      writing.catch(() => undefined);
    }
  } finally {
    // Whatever failed, nothing is left running on the connection pool when this returns or throws.
    await Promise.allSettled([next, writing]);
  }
  await writing;
}

async function summarise(db: Database, runId: string): Promise<Omit<ImportReport, "passwordCheck">> {
  const plans = rowsOf<{ plan: ImportPlan | null; n: string; points: string }>(
    await db.execute(sql`
      select plan, count(*)::text as n,
        coalesce(sum(case when plan in ('create', 'merge') then (record->>'points')::bigint else 0 end), 0)::text as points
      from import_row where run_id = ${runId}::uuid group by plan`),
  );
  const codes = rowsOf<{ code: ImportProblemCode; n: string }>(
    await db.execute(sql`
      select p->>'code' as code, count(*)::text as n
      from import_row r, jsonb_array_elements(coalesce(r.problems, '[]'::jsonb)) p
      where r.run_id = ${runId}::uuid group by 1`),
  );
  const count = (plan: ImportPlan) => Number(plans.find((p) => p.plan === plan)?.n ?? 0);
  return {
    rows: plans.reduce((sum, p) => sum + Number(p.n), 0),
    create: count("create"),
    merge: count("merge"),
    unchanged: count("unchanged"),
    reject: count("reject"),
    points: plans.reduce((sum, p) => sum + Number(p.points), 0),
    problems: Object.fromEntries(codes.map((c) => [c.code, Number(c.n)])),
  };
}

/** The sample password checked against its row's hash: the one way to tell a wrong hash key before applying. */
async function checkPasswords(db: Database, run: ImportRun, options: StoredOptions): Promise<PasswordCheck> {
  const [withHash] = rowsOf<{ n: string }>(
    await db.execute(sql`
      select count(*)::text as n from import_row
      where run_id = ${run.id}::uuid and record->'password' is not null and jsonb_typeof(record->'password') = 'object'`),
  );
  if (!options.hashConfig || Number(withHash?.n ?? 0) === 0) return "no_hashes";
  const sample = options.samplePassword;
  if (!sample) return "no_sample";
  const identifier = sample.identifier.trim();
  const phone = normalizeTaiwanMobile(identifier);
  const [row] = rowsOf<{ password: ImportPassword | null }>(
    await db.execute(sql`
      select record->'password' as password from import_row
      where run_id = ${run.id}::uuid and record is not null
        and (record->>'email' = ${identifier.toLowerCase()} or record->>'phoneNumber' = ${phone ?? ""}
          or external_id = ${identifier})
      order by line limit 1`),
  );
  if (!row?.password || typeof row.password !== "object") return "sample_not_found";
  return (await verifyFirebaseScrypt(options.hashConfig, row.password, sample.password)) ? "ok" : "wrong_key";
}

/** The dry run: plan and problems per row, the report on the run, status `checked`. */
export async function checkRun(db: Database, runId: string, now = new Date()): Promise<ImportReport> {
  const run = await loadRun(db, runId);
  requireStatus(run, ["staged", "checked"]);
  const options = optionsOf(run);
  if (run.kind === "csv" && !options.mapping) {
    throw new Refusal("imports", "import_wrong_state", { params: { status: run.status } });
  }
  await readAll(db, run, now);
  // Fresh statistics after writing every row: the matching's joins are planned on them (100,000 rows).
  await db.execute(sql`analyze import_row`);
  await markDuplicates(db, run.id);
  await matchRows(db, { runId: run.id, source: run.source });
  const summary = await summarise(db, run.id);
  const passwordCheck = run.kind === "firebase" ? await checkPasswords(db, run, options) : "no_hashes";
  const report: ImportReport = { ...summary, passwordCheck };
  const { samplePassword: _used, ...kept } = options;
  await db
    .update(importRun)
    .set({ status: "checked", report, options: kept, rowsDone: 0, rejected: 0 })
    .where(eq(importRun.id, run.id));
  return report;
}

export type PreviewRow = {
  line: number;
  record: ImportRecord | null;
  problems: ImportProblem[];
  plan: ImportPlan;
};

/** The first rows as they will be stored (read now with the current mapping) and what each will do. */
export async function previewRun(db: Database, runId: string, limit = 10, now = new Date()): Promise<PreviewRow[]> {
  const run = await loadRun(db, runId);
  const options = optionsOf(run);
  const rows = await db
    .select({ line: importRow.line, externalId: importRow.externalId, raw: importRow.raw })
    .from(importRow)
    .where(eq(importRow.runId, run.id))
    .orderBy(asc(importRow.line))
    .limit(Math.max(1, Math.min(limit, 100)));
  const users = run.kind === "firebase" ? await authUsersFor(db, run.id, rows) : new Map<string, unknown>();
  const preview: PreviewRow[] = [];
  for (const row of rows) {
    const read = readStaged(run, options, row, users, now);
    preview.push({
      line: row.line,
      record: read.record,
      problems: read.problems,
      plan: read.plan ?? (read.record ? await planOf(db, run.source, read.record) : "reject"),
    });
  }
  return preview;
}

/** One record's match, row by row (the preview's few rows; the check does it set-based). */
async function planOf(db: Database, source: string, record: ImportRecord): Promise<ImportPlan> {
  const [known] = await db
    .select({ id: memberSource.memberId })
    .from(memberSource)
    .where(and(eq(memberSource.source, source), eq(memberSource.externalId, record.externalId)))
    .limit(1);
  if (known) return "unchanged";
  const matches = [record.phoneNumber ? eq(member.phoneNumber, record.phoneNumber) : null];
  if (record.email) matches.push(eq(member.email, record.email));
  for (const match of matches) {
    if (!match) continue;
    const [found] = await db.select({ id: member.id }).from(member).where(match).limit(1);
    if (found) return "merge";
  }
  return "create";
}
