import type { Database } from "@platform/db/client";
import { importRow, importRun, member, staffAccount } from "@platform/db/schema";
import type { JobContext, JobQueue } from "@platform/jobs/queue";
import { willRetry } from "@platform/jobs/queue";
import { and, asc, count, desc, eq, gt, inArray, ne, sql } from "drizzle-orm";
import { type AuditContext, auditedTx, recordAudit } from "../audit/audit.server";
import { claimLimits, type Limit, limitCount } from "../auth/rate-limits.server";
import { credit, entryByKey, lockAccountOf, tryLockAccountOf } from "../loyalty/ledger.server";
import { lotExpiry } from "../loyalty/rules.server";
import { recordOccasion } from "../member-messages/occasions.server";
import { type MemberSearch, memberIdsOfSearch } from "../members/console-search.server";
import { normalizeTaiwanMobile } from "../members/taiwan";
import { Refusal, type RefusalCode } from "../refusals";
import { csvCell } from "../reports/csv";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { MANAGER_DAILY_ADJUSTMENT_FACTOR } from "../staff/permissions";
import { managerAdjustmentLimit } from "../staff/settings.server";
import { parseGrantPoints, readGrantCsv } from "./grant-csv";
import { GRANT_FILE_MAX_BYTES, MAX_GRANT_REASON } from "./grant-limits";

export { GRANT_FILE_MAX_BYTES, MAX_GRANT_REASON };

/**
 * Bulk point grants (issue 35 item 5, ADR 038): a CSV of member number or phone, points and reason, or the
 * members of a filter of the member list, staged into `import_run` (kind and source `grant`) and `import_row`.
 *
 * - The dry run (`checkGrant`) resolves each row to a member and refuses, with a code, an unknown member, a
 *   disabled or deleted one, points that are not a whole number 1 … 100,000 and the same member twice; it sums
 *   the points of the rows that will book.
 * - `submitGrant`: a total above the manager limit (the admin setting of ADR 023) waits for a second person
 *   (`awaiting_approval`) whatever the starter's role; an admin with `points.approve` who did not start it
 *   approves or rejects it, by one conditional update (racing approvals decide once). Otherwise it is queued.
 * - One pg-boss job per run applies it in batches: each row one ledger credit of kind `adjust` with the key
 *   `grant:<runId>:<line>` (a retried or doubled job books nothing twice), the counters and heartbeat on the run in
 *   the batch's transaction, the cancel flag read between batches, one audit row `points.bulk_granted` at the end.
 * - Only if the starter chose it (`notify`), each booked row also records the automatic message `points-granted`
 *   ("您獲得 {points} 點：{reason}", ADR 034) in the same transaction, with the occasion `grant:<runId>:<line>`:
 *   a message exists if and only if its points were booked, and a retried job records none twice.
 */

export const GRANT_QUEUE = "points.bulk-grant";
export const GRANT_MAX_ROWS = 100_000;
export const GRANT_BATCH = 500;
export const GRANTS_PAGE_SIZE = 20;

export const GRANT_PROBLEM_CODES = [
  "member_missing",
  "member_unknown",
  "member_disabled",
  "points_invalid",
  "reason_too_long",
  "duplicate_in_file",
] as const;
export type GrantProblemCode = (typeof GRANT_PROBLEM_CODES)[number];
export type GrantProblem = { field: string; code: GrantProblemCode; severity: "reject" };

export type GrantReport = {
  rows: number;
  valid: number;
  rejected: number;
  total: number;
  problems: Partial<Record<GrantProblemCode, number>>;
};

export type GrantOptions = {
  reason: string;
  /** Filter grants: the points each member gets, and the filter (as the member list's query string). */
  points?: number;
  filter?: string;
  /** Send each member booked the automatic message `points-granted` (off unless chosen). */
  notify?: boolean;
  /** Who started it, for the audit rows the job writes later. */
  starter?: AuditContext;
};

export type GrantRun = typeof importRun.$inferSelect;

export class GrantError extends Refusal<"grants"> {
  constructor(code: RefusalCode<"grants">, message: string, field: string | null = null) {
    super("grants", code, { message, field });
    this.name = "GrantError";
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function cleanReason(reason: string): string {
  return reason.trim().slice(0, MAX_GRANT_REASON);
}

async function insertRows(db: Database, runId: string, rows: { line: number; raw: Record<string, unknown> }[]) {
  for (let i = 0; i < rows.length; i += 1000) {
    const batch = rows.slice(i, i + 1000);
    if (batch.length) await db.insert(importRow).values(batch.map((r) => ({ runId, line: r.line, raw: r.raw })));
  }
}

async function newRun(db: Database, actor: StaffActor, options: GrantOptions, file: Record<string, unknown> | null) {
  const [run] = await db
    .insert(importRun)
    .values({
      kind: "grant",
      source: "grant",
      status: "staged",
      files: file ? [file] : [],
      fileSha256: (file?.sha256 as string | undefined) ?? "",
      options,
      createdBy: actor.userId,
    })
    .returning();
  if (!run) throw new Error("import_run insert returned nothing");
  return run;
}

/**
 * A grant from a CSV (UTF-8 or Big5): staged and checked (the dry run) at once. The run reason applies to rows
 * that give none. A file that cannot be read is refused beside the file field; nothing is stored then.
 */
export async function stageGrantCsv(
  db: Database,
  actor: StaffActor,
  input: { name: string; bytes: Uint8Array; reason: string; notify?: boolean; starter: AuditContext },
  now = new Date(),
): Promise<GrantRun> {
  requirePermission(actor, "points.bulk");
  if (input.bytes.length > GRANT_FILE_MAX_BYTES) throw new GrantError("file_too_large", "File too large", "file");
  const read = await readGrantCsv(input.bytes);
  if (!read.ok) throw new GrantError("file_invalid", read.error, "file");
  if (read.rows.length > GRANT_MAX_ROWS) throw new GrantError("too_many_rows", "Too many rows", "file");
  const { createHash } = await import("node:crypto");
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  const run = await newRun(
    db,
    actor,
    { reason: cleanReason(input.reason), notify: input.notify === true, starter: input.starter },
    { role: "grant", name: input.name.slice(0, 200), bytes: input.bytes.length, sha256, encoding: read.encoding },
  );
  await insertRows(
    db,
    run.id,
    read.rows.map((r) => ({
      line: r.line,
      raw: { number: r.number, phone: r.phone, points: r.points, reason: r.reason },
    })),
  );
  await checkGrant(db, run.id, now);
  return (await getGrantRun(db, run.id)) as GrantRun;
}

/** A grant of the same points to every member of a member-list filter (the same filters, the same results). */
export async function stageGrantFilter(
  db: Database,
  actor: StaffActor,
  input: {
    search: MemberSearch;
    filter: string;
    points: number;
    reason: string;
    notify?: boolean;
    starter: AuditContext;
  },
  now = new Date(),
): Promise<GrantRun> {
  requirePermission(actor, "points.bulk");
  const run = await newRun(
    db,
    actor,
    {
      reason: cleanReason(input.reason),
      points: input.points,
      filter: input.filter,
      notify: input.notify === true,
      starter: input.starter,
    },
    null,
  );
  let line = 0;
  let batch: { line: number; raw: Record<string, unknown> }[] = [];
  for await (const memberId of memberIdsOfSearch(db, actor, { ...input.search, after: null })) {
    if (line >= GRANT_MAX_ROWS) {
      await db.delete(importRun).where(eq(importRun.id, run.id));
      throw new GrantError("too_many_rows", "Too many members", "points");
    }
    batch.push({ line: ++line, raw: { memberId, points: String(input.points) } });
    if (batch.length >= 1000) {
      await insertRows(db, run.id, batch);
      batch = [];
    }
  }
  await insertRows(db, run.id, batch);
  if (line === 0) {
    await db.delete(importRun).where(eq(importRun.id, run.id));
    throw new GrantError("nothing_to_grant", "No member matches the filter");
  }
  await checkGrant(db, run.id, now);
  return (await getGrantRun(db, run.id)) as GrantRun;
}

type Raw = { memberId?: string; number?: string; phone?: string; points?: string; reason?: string };

/**
 * The dry run: every row resolved to a member, refused with its codes or planned; the total of the points that
 * will book. Rows are read in batches by line; members looked up by number and phone per batch.
 */
export async function checkGrant(db: Database, runId: string, _now = new Date()): Promise<GrantReport> {
  const run = await getGrantRun(db, runId);
  if (!run) throw new GrantError("grant_not_found", "No such grant");
  const options = run.options as GrantOptions;
  const seen = new Set<string>();
  const report: GrantReport = { rows: 0, valid: 0, rejected: 0, total: 0, problems: {} };
  let after = 0;
  for (;;) {
    const rows = await db
      .select({ line: importRow.line, raw: importRow.raw })
      .from(importRow)
      .where(and(eq(importRow.runId, runId), sql`${importRow.line} > ${after}`))
      .orderBy(asc(importRow.line))
      .limit(1000);
    if (rows.length === 0) break;
    after = rows.at(-1)?.line ?? after;
    const raws = rows.map((r) => ({ line: r.line, raw: r.raw as Raw }));
    const numbers = new Set<string>();
    const phones = new Set<string>();
    const ids = new Set<string>();
    for (const { raw } of raws) {
      if (raw.memberId) ids.add(raw.memberId);
      else if (raw.number) numbers.add(raw.number.toUpperCase());
      else if (raw.phone) {
        const phone = normalizeTaiwanMobile(raw.phone);
        if (phone) phones.add(phone);
      }
    }
    const columns = {
      id: member.id,
      memberNumber: member.memberNumber,
      phoneNumber: member.phoneNumber,
      disabled: member.disabled,
      deletedAt: member.deletedAt,
    };
    const found = [
      ...(ids.size
        ? await db
            .select(columns)
            .from(member)
            .where(inArray(member.id, [...ids]))
        : []),
      ...(numbers.size
        ? await db
            .select(columns)
            .from(member)
            .where(inArray(member.memberNumber, [...numbers]))
        : []),
      ...(phones.size
        ? await db
            .select(columns)
            .from(member)
            .where(inArray(member.phoneNumber, [...phones]))
        : []),
    ];
    const byId = new Map(found.map((m) => [m.id, m]));
    const byNumber = new Map(found.map((m) => [m.memberNumber, m]));
    const byPhone = new Map(found.map((m) => [m.phoneNumber, m]));
    for (const { line, raw } of raws) {
      const problems: GrantProblem[] = [];
      const reject = (field: string, code: GrantProblemCode) => problems.push({ field, code, severity: "reject" });
      const phone = raw.phone ? normalizeTaiwanMobile(raw.phone) : null;
      const target = raw.memberId
        ? byId.get(raw.memberId)
        : raw.number
          ? byNumber.get(raw.number.toUpperCase())
          : phone
            ? byPhone.get(phone)
            : undefined;
      const field = raw.number ? "number" : "phone";
      if (!raw.memberId && !raw.number && !raw.phone) reject("number", "member_missing");
      else if (!target) reject(field, "member_unknown");
      else if (target.disabled || target.deletedAt) reject(field, "member_disabled");
      else if (seen.has(target.id)) reject(field, "duplicate_in_file");
      const points = parseGrantPoints(raw.points ?? "");
      if (points === null) reject("points", "points_invalid");
      const rowReason = (raw.reason ?? "").trim();
      if (rowReason.length > MAX_GRANT_REASON) reject("reason", "reason_too_long");
      if (target && !target.disabled && !target.deletedAt) seen.add(target.id);
      report.rows++;
      if (problems.length) {
        report.rejected++;
        for (const p of problems) report.problems[p.code] = (report.problems[p.code] ?? 0) + 1;
      } else {
        report.valid++;
        report.total += points as number;
      }
      await db
        .update(importRow)
        .set(
          problems.length
            ? { state: "rejected", plan: "reject", problems, memberId: target?.id ?? null, record: null }
            : {
                state: "pending",
                plan: null,
                problems: null,
                memberId: target?.id ?? null,
                record: { memberId: target?.id, points, reason: rowReason || options.reason },
              },
        )
        .where(and(eq(importRow.runId, runId), eq(importRow.line, line)));
    }
  }
  await db
    .update(importRun)
    .set({ status: "checked", report, rowsTotal: report.valid, rejected: report.rejected, rowsDone: 0 })
    .where(and(eq(importRun.id, runId), inArray(importRun.status, ["staged", "checked"])));
  return report;
}

export async function getGrantRun(db: Database, runId: string): Promise<GrantRun | null> {
  if (!UUID.test(runId)) return null;
  const [run] = await db
    .select()
    .from(importRun)
    .where(and(eq(importRun.id, runId), eq(importRun.kind, "grant")));
  return run ?? null;
}

async function requireRun(db: Database, runId: string): Promise<GrantRun> {
  const run = await getGrantRun(db, runId);
  if (!run) throw new GrantError("grant_not_found", "No such grant");
  return run;
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

/** Queues the job of a run (one per run: a second send of the same run is dropped by the singleton key). */
async function enqueue(jobs: JobQueue, runId: string) {
  await jobs.send(GRANT_QUEUE, { runId }, { singletonKey: runId });
}

/**
 * What a starter's grants claim against their Taipei day (issue 35 review: five grants of 1,000 each went out
 * without a second person where one of 5,000 waited): the grant's total counts against the starter's direct
 * grants of the day (at most the manager limit in total, the same figure as for one grant) and against the
 * manager's day over all members that point adjustments also claim (5 × the limit, ADR 023). Claimed as
 * weighted hits on `rate_limit_counter` in one statement (ADR 018), so simultaneous sends on any number of
 * instances cannot split one large grant into several that each fit.
 */
export function grantDailyLimits(starterUserId: string, total: number, limit: number): Limit[] {
  return [
    { key: `grant:starter:${starterUserId}`, window: "day", max: limit, weight: total },
    {
      key: `adjust:manager:${starterUserId}`,
      window: "day",
      max: limit * MANAGER_DAILY_ADJUSTMENT_FACTOR,
      weight: total,
    },
  ];
}

/** Points a starter can still grant today without a second person (what is left of both daily totals). */
export async function grantAllowanceToday(
  db: Database,
  starterUserId: string,
  limit: number,
  now = new Date(),
): Promise<number> {
  const [own, day] = await Promise.all(grantDailyLimits(starterUserId, 1, limit).map((l) => limitCount(db, l, now)));
  return Math.max(0, Math.min(limit - (own ?? 0), limit * MANAGER_DAILY_ADJUSTMENT_FACTOR - (day ?? 0)));
}

/** Why a grant waits for a second person: its total on its own, or what is left of the starter's day. */
export type GrantWait = "over_limit" | "over_daily_total";

/**
 * The starter sends a checked grant: above the manager limit on its own, or above what is left of the starter's
 * day (`grantDailyLimits`), it waits for an admin's approval (`points.bulk_grant_requested`, saying why);
 * otherwise it is queued at once and its total is counted against the day. Refused: nothing to grant, another
 * grant being applied (grant_busy), or the run not in the checked state.
 */
export async function submitGrant(
  db: Database,
  jobs: JobQueue,
  actor: StaffActor,
  runId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<{ status: "queued" | "awaiting_approval"; limit: number; waitsFor: GrantWait | null }> {
  requirePermission(actor, "points.bulk");
  const run = await requireRun(db, runId);
  if (run.createdBy !== actor.userId) throw new GrantError("grant_wrong_state", "Sent by its starter only");
  const report = run.report as GrantReport | null;
  if (run.status !== "checked" || !report) throw new GrantError("grant_wrong_state", "The grant is not checked");
  if (report.valid === 0) throw new GrantError("nothing_to_grant", "No row to book");
  const limit = await managerAdjustmentLimit(db);
  let outcome: { status: "queued" | "awaiting_approval"; waitsFor: GrantWait | null };
  try {
    outcome = await auditedTx(db, audit, now, async (tx, record) => {
      // The day's totals are claimed first (a savepoint: a refused claim counts nothing); a send refused below
      // (already sent, another grant applying) rolls the claim back with everything else.
      const waitsFor: GrantWait | null =
        report.total > limit
          ? "over_limit"
          : (await claimLimits(tx, grantDailyLimits(actor.userId, report.total, limit), now)).allowed
            ? null
            : "over_daily_total";
      const status = waitsFor ? "awaiting_approval" : "queued";
      const [claimed] = await tx
        .update(importRun)
        .set({ status })
        .where(and(eq(importRun.id, runId), eq(importRun.status, "checked")))
        .returning({ id: importRun.id });
      if (!claimed) throw new GrantError("grant_wrong_state", "The grant was already sent");
      if (waitsFor) {
        await record("points.bulk_grant_requested", ["import_run", runId], {
          after: {
            total: report.total,
            rows: report.valid,
            limit,
            dailyLimit: limit * MANAGER_DAILY_ADJUSTMENT_FACTOR,
            waitsFor,
            reason: (run.options as GrantOptions).reason,
          },
        });
      }
      return { status, waitsFor } as const;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new GrantError("grant_busy", "Another grant is being applied");
    throw error;
  }
  if (outcome.status === "queued") await enqueue(jobs, runId);
  return { ...outcome, limit };
}

/**
 * An admin with `points.approve` who did not start the grant decides it: one conditional update (awaiting, not
 * one's own) moves it to `to`, so racing decisions decide once; the audit row in the same transaction. Anything
 * else (unknown, decided, one's own) is explained by `explainDecision`.
 */
async function decideGrant(
  db: Database,
  actor: StaffActor,
  runId: string,
  audit: AuditContext,
  now: Date,
  decision: { to: "queued" | "rejected"; action: "points.bulk_grant_approved" | "points.bulk_grant_rejected" },
): Promise<void> {
  requirePermission(actor, "points.approve");
  if (!UUID.test(runId)) throw new GrantError("grant_not_found", "No such grant");
  await auditedTx(db, audit, now, async (tx, record) => {
    const [claimed] = await tx
      .update(importRun)
      .set({
        status: decision.to,
        decidedBy: actor.userId,
        decidedAt: now,
        ...(decision.to === "rejected" ? { finishedAt: now } : {}),
      })
      .where(
        and(
          eq(importRun.id, runId),
          eq(importRun.kind, "grant"),
          eq(importRun.status, "awaiting_approval"),
          ne(importRun.createdBy, actor.userId),
        ),
      )
      .returning();
    if (!claimed) return explainDecision(tx, runId, actor);
    const report = claimed.report as GrantReport;
    await record(decision.action, ["import_run", runId], {
      before: { status: "awaiting_approval" },
      after: { status: decision.to, total: report.total, rows: report.valid, requestedBy: claimed.createdBy },
    });
  });
}

/**
 * An admin who did not start the grant approves it: the decision queues it (twenty simultaneous approvals queue
 * one job).
 */
export async function approveGrant(
  db: Database,
  jobs: JobQueue,
  actor: StaffActor,
  runId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  try {
    await decideGrant(db, actor, runId, audit, now, { to: "queued", action: "points.bulk_grant_approved" });
  } catch (error) {
    if (isUniqueViolation(error)) throw new GrantError("grant_busy", "Another grant is being applied");
    throw error;
  }
  await enqueue(jobs, runId);
}

/** An admin who did not start the grant rejects it: nothing is booked. */
export async function rejectGrant(
  db: Database,
  actor: StaffActor,
  runId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  await decideGrant(db, actor, runId, audit, now, { to: "rejected", action: "points.bulk_grant_rejected" });
}

async function explainDecision(tx: Database, runId: string, actor: StaffActor): Promise<never> {
  const run = await getGrantRun(tx, runId);
  if (!run) throw new GrantError("grant_not_found", "No such grant");
  if (run.status !== "awaiting_approval") throw new GrantError("grant_wrong_state", "Already decided");
  if (run.createdBy === actor.userId) throw new GrantError("own_grant", "Decided by someone other than its starter");
  throw new GrantError("grant_wrong_state", "Already decided");
}

/**
 * Cancels a grant: before it is applied (staged, checked or awaiting approval) it ends at once, with its audit
 * row `points.bulk_grant_cancelled` in the same transaction; while queued or running the worker stops between
 * batches (what was booked stays booked, each row whole; the job's `points.bulk_granted` row says cancelled).
 */
export async function cancelGrant(
  db: Database,
  actor: StaffActor,
  runId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<void> {
  requirePermission(actor, "points.bulk");
  const run = await requireRun(db, runId);
  const before = ["staged", "checked", "awaiting_approval"] as const;
  if ((before as readonly string[]).includes(run.status)) {
    const ended = await auditedTx(db, audit, now, async (tx, record) => {
      const [done] = await tx
        .update(importRun)
        .set({ status: "cancelled", cancelRequestedAt: now, finishedAt: now })
        .where(and(eq(importRun.id, runId), inArray(importRun.status, [...before])))
        .returning();
      if (!done) return false;
      const report = done.report as GrantReport | null;
      await record("points.bulk_grant_cancelled", ["import_run", runId], {
        before: { status: run.status },
        after: {
          status: "cancelled",
          total: report?.total ?? 0,
          rows: report?.valid ?? 0,
          reason: (done.options as GrantOptions).reason,
          requestedBy: done.createdBy,
        },
      });
      return true;
    });
    if (ended) return;
  }
  const [flagged] = await db
    .update(importRun)
    .set({ cancelRequestedAt: now })
    .where(and(eq(importRun.id, runId), inArray(importRun.status, ["queued", "running"])))
    .returning({ id: importRun.id });
  if (!flagged) throw new GrantError("grant_wrong_state", "The grant has ended");
}

type Planned = { memberId: string; points: number; reason: string };

/** Ends a run once (the conditional update) with its one audit row `points.bulk_granted`. */
async function finish(db: Database, runId: string, status: "done" | "cancelled" | "failed", now: Date, error?: string) {
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .update(importRun)
      .set({ status, finishedAt: now, heartbeatAt: now, error: error ?? null })
      .where(and(eq(importRun.id, runId), inArray(importRun.status, ["queued", "running"])))
      .returning();
    if (!ended) return;
    const options = ended.options as GrantOptions;
    const report = ended.report as GrantReport;
    await recordAudit(
      tx,
      {
        context: options.starter ?? { actorType: "system", label: "grant", ip: null, userAgent: null, requestId: null },
        action: "points.bulk_granted",
        targetType: "import_run",
        targetId: runId,
        after: {
          status,
          reason: options.reason,
          rows: report.rows,
          booked: ended.rowsDone - (ended.rejected - report.rejected),
          rejected: ended.rejected,
          total: report.total,
          pointsBooked: ended.pointsBooked,
          approvedBy: ended.decidedBy,
        },
      },
      now,
    );
  });
}

/**
 * The worker: applies a queued (or interrupted) grant in batches. Each batch is one transaction that locks the
 * run row first (two workers of the same run take turns; the second finds the rows done), books each pending row
 * under its account lock with the key `grant:<runId>:<line>`, and moves the counters and the heartbeat.
 */
export async function applyGrant(
  db: Database,
  runId: string,
  options: { batchSize?: number; now?: () => Date; signal?: AbortSignal } = {},
): Promise<GrantRun | null> {
  const clock = options.now ?? (() => new Date());
  const batchSize = options.batchSize ?? GRANT_BATCH;
  const [started] = await db
    .update(importRun)
    .set({ status: "running", startedAt: sql`coalesce(${importRun.startedAt}, ${clock().toISOString()}::timestamptz)` })
    .where(and(eq(importRun.id, runId), inArray(importRun.status, ["queued", "running"])))
    .returning();
  if (!started) return getGrantRun(db, runId);
  for (;;) {
    if (options.signal?.aborted) throw new Error("The grant job was stopped");
    const now = clock();
    const outcome = await db.transaction(async (tx) => {
      const [run] = await tx.select().from(importRun).where(eq(importRun.id, runId)).for("update");
      if (run?.status !== "running") return "ended" as const;
      if (run.cancelRequestedAt) return "cancel" as const;
      const rows = await tx
        .select({ line: importRow.line, record: importRow.record })
        .from(importRow)
        .where(and(eq(importRow.runId, runId), eq(importRow.state, "pending")))
        .orderBy(asc(importRow.line))
        .limit(batchSize);
      if (rows.length === 0) return "done" as const;
      const staffUserId = run.createdBy;
      const notify = (run.options as GrantOptions).notify === true;
      let booked = 0;
      let points = 0;
      let refused = 0;
      // Accounts locked in member order, and only the first waited for: a referred friend's purchase locks the
      // friend's account, then the referrer's (ADR 053), so a batch that waited for one while holding others
      // deadlocked with it (and the purchase could be the one refused). A member whose account is busy stays pending
      // for the next batch; each batch books at least its first.
      const planned = rows
        .map((r) => ({ line: r.line, ...(r.record as Planned) }))
        .sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : a.line - b.line));
      const doneLines: number[] = [];
      let holding = false;
      for (const row of planned) {
        const key = `grant:${runId}:${row.line}`;
        const locked = holding ? await tryLockAccountOf(tx, row.memberId) : await lockAccountOf(tx, row.memberId);
        if (!locked) continue;
        holding = true;
        const { account, disabled } = locked;
        if (await entryByKey(tx, key)) {
          doneLines.push(row.line);
          continue;
        }
        if (disabled) {
          refused++;
          await tx
            .update(importRow)
            .set({
              state: "rejected",
              plan: "reject",
              problems: [{ field: "number", code: "member_disabled", severity: "reject" }],
            })
            .where(and(eq(importRow.runId, runId), eq(importRow.line, row.line)));
          continue;
        }
        await credit(
          tx,
          account,
          {
            kind: "adjust",
            key,
            amount: row.points,
            reason: `grant: ${row.reason}`.slice(0, 500),
            staffUserId,
            expiresAt: lotExpiry(now),
          },
          now,
        );
        if (notify) {
          await recordOccasion(
            tx,
            {
              memberId: row.memberId,
              occasion: key,
              kind: "points-granted",
              data: { points: row.points, reason: row.reason },
            },
            now,
          );
        }
        booked++;
        points += row.points;
        doneLines.push(row.line);
      }
      if (doneLines.length) {
        await tx
          .update(importRow)
          .set({ state: "done" })
          .where(and(eq(importRow.runId, runId), inArray(importRow.line, doneLines)));
      }
      await tx
        .update(importRun)
        .set({
          rowsDone: sql`${importRun.rowsDone} + ${booked + refused}`,
          rejected: sql`${importRun.rejected} + ${refused}`,
          pointsBooked: sql`${importRun.pointsBooked} + ${points}`,
          heartbeatAt: now,
        })
        .where(eq(importRun.id, runId));
      return "more" as const;
    });
    if (outcome === "ended") break;
    if (outcome === "done") {
      await finish(db, runId, "done", clock());
      break;
    }
    if (outcome === "cancel") {
      await finish(db, runId, "cancelled", clock());
      break;
    }
  }
  return getGrantRun(db, runId);
}

/** The job: one per run; a failed last attempt marks the run failed (with its audit row). */
export async function registerGrantJobs(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(GRANT_QUEUE, { retryLimit: 5, retryDelay: 10, expireInSeconds: 60 * 60 });
  await jobs.work<{ runId: string }>(GRANT_QUEUE, async (job: JobContext<{ runId: string }>) => {
    try {
      const run = await applyGrant(db, job.data.runId, { signal: job.signal });
      return { status: run?.status ?? "unknown" };
    } catch (error) {
      if (!willRetry(job, error)) {
        await finish(db, job.data.runId, "failed", new Date(), error instanceof Error ? error.message : String(error));
      }
      throw error;
    }
  });
}

export type GrantListRow = {
  id: string;
  status: GrantRun["status"];
  reason: string;
  fileName: string | null;
  filter: string | null;
  rows: number;
  total: number;
  rowsDone: number;
  rowsTotal: number;
  createdBy: string | null;
  starterName: string | null;
  createdAt: Date;
};

/** The grants, newest first, 20 a page (for anyone with points.bulk or points.approve). */
export async function listGrants(db: Database, page: number): Promise<{ rows: GrantListRow[]; total: number }> {
  const [counted] = await db.select({ n: count() }).from(importRun).where(eq(importRun.kind, "grant"));
  const rows = await db
    .select({ run: importRun, starterName: staffAccount.displayName })
    .from(importRun)
    .leftJoin(staffAccount, eq(staffAccount.userId, importRun.createdBy))
    .where(eq(importRun.kind, "grant"))
    .orderBy(desc(importRun.createdAt), desc(importRun.id))
    .limit(GRANTS_PAGE_SIZE)
    .offset((page - 1) * GRANTS_PAGE_SIZE);
  return {
    total: counted?.n ?? 0,
    rows: rows.map(({ run, starterName }) => grantListRow(run, starterName)),
  };
}

function grantListRow(run: GrantRun, starterName: string | null): GrantListRow {
  const options = run.options as GrantOptions;
  const report = run.report as GrantReport | null;
  const file = (run.files as { name?: string }[])[0];
  return {
    id: run.id,
    status: run.status,
    reason: options.reason,
    fileName: file?.name ?? null,
    filter: options.filter ?? null,
    rows: report?.rows ?? 0,
    total: report?.total ?? 0,
    rowsDone: run.rowsDone,
    rowsTotal: run.rowsTotal,
    createdBy: run.createdBy,
    starterName,
    createdAt: run.createdAt,
  };
}

/**
 * The grants waiting for a second admin (`awaiting_approval`), oldest first: the approvals page lists them beside
 * the pending point adjustments (ADR 023), each deciding on its own page. `points.approve` only.
 */
export async function pendingGrants(db: Database, actor: StaffActor, limit = 200): Promise<GrantListRow[]> {
  requirePermission(actor, "points.approve");
  const rows = await db
    .select({ run: importRun, starterName: staffAccount.displayName })
    .from(importRun)
    .leftJoin(staffAccount, eq(staffAccount.userId, importRun.createdBy))
    .where(and(eq(importRun.kind, "grant"), eq(importRun.status, "awaiting_approval")))
    .orderBy(asc(importRun.createdAt), asc(importRun.id))
    .limit(limit);
  return rows.map(({ run, starterName }) => grantListRow(run, starterName));
}

export type GrantDetail = GrantListRow & {
  /** The members booked get the automatic message `points-granted`. */
  notify: boolean;
  report: GrantReport | null;
  rejectedCount: number;
  pointsBooked: number;
  decidedBy: string | null;
  deciderName: string | null;
  decidedAt: Date | null;
  startedAt: Date | null;
  heartbeatAt: Date | null;
  finishedAt: Date | null;
  cancelRequested: boolean;
  error: string | null;
  rejectedRows: { line: number; raw: Raw; problems: GrantProblem[] }[];
};

/** One grant with its first rejected rows (up to `limit`). */
export async function grantDetail(db: Database, runId: string, limit = 200): Promise<GrantDetail | null> {
  const run = await getGrantRun(db, runId);
  if (!run) return null;
  const names = await db
    .select({ userId: staffAccount.userId, name: staffAccount.displayName })
    .from(staffAccount)
    .where(
      inArray(
        staffAccount.userId,
        [run.createdBy, run.decidedBy].filter((x): x is string => Boolean(x)),
      ),
    );
  const nameOf = (id: string | null) => names.find((n) => n.userId === id)?.name ?? null;
  const rejected = await db
    .select({ line: importRow.line, raw: importRow.raw, problems: importRow.problems })
    .from(importRow)
    .where(and(eq(importRow.runId, runId), eq(importRow.state, "rejected")))
    .orderBy(asc(importRow.line))
    .limit(limit);
  return {
    ...grantListRow(run, nameOf(run.createdBy)),
    notify: (run.options as GrantOptions).notify === true,
    report: run.report as GrantReport | null,
    rejectedCount: run.rejected,
    pointsBooked: run.pointsBooked,
    decidedBy: run.decidedBy,
    deciderName: nameOf(run.decidedBy),
    decidedAt: run.decidedAt,
    startedAt: run.startedAt,
    heartbeatAt: run.heartbeatAt,
    finishedAt: run.finishedAt,
    cancelRequested: run.cancelRequestedAt !== null,
    error: run.error,
    rejectedRows: rejected.map((r) => ({
      line: r.line,
      raw: r.raw as Raw,
      problems: (r.problems as GrantProblem[] | null) ?? [],
    })),
  };
}

/**
 * All the refused rows of a grant as CSV lines (header first, with its byte-order mark, each line ending CRLF):
 * the row's cells as read (member number, phone, the member id of a filter grant, points, reason), then the
 * problem codes and their words. Every cell goes through csvCell (as the imports' rejected rows), so a formula
 * in the file is neutralised. Read in pages of 1,000 by line; `describe` words a code (default: the code).
 */
export async function* grantRejectedCsv(
  db: Database,
  runId: string,
  describe: (code: GrantProblemCode) => string = (code) => code,
): AsyncIterable<string> {
  const line = (cells: (string | number | null)[]) => `${cells.map((c) => csvCell(c)).join(",")}\r\n`;
  yield `\uFEFF${line(["line", "member_number", "phone", "member_id", "points", "reason", "problem", "problem_text"])}`;
  let after = 0;
  for (;;) {
    const rows = await db
      .select({ line: importRow.line, raw: importRow.raw, problems: importRow.problems })
      .from(importRow)
      .where(and(eq(importRow.runId, runId), eq(importRow.state, "rejected"), gt(importRow.line, after)))
      .orderBy(asc(importRow.line))
      .limit(1000);
    if (rows.length === 0) return;
    after = rows.at(-1)?.line ?? after;
    let chunk = "";
    for (const row of rows) {
      const raw = (row.raw ?? {}) as Raw;
      const problems = (row.problems as GrantProblem[] | null) ?? [];
      chunk += line([
        row.line,
        raw.number ?? null,
        raw.phone ?? null,
        raw.memberId ?? null,
        raw.points ?? null,
        raw.reason ?? null,
        problems.map((p) => p.code).join(" "),
        problems.map((p) => describe(p.code)).join("; "),
      ]);
    }
    yield chunk;
  }
}
