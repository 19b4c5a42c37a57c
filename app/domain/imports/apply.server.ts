import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import {
  authAccount,
  authUser,
  importRow,
  importRun,
  loyaltyAccount,
  member,
  memberConsent,
  memberSource,
  pointEntry,
  pointLot,
} from "@platform/db/schema";
import { and, asc, eq, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { recordAudit } from "../audit/audit.server";
import { encodeFirebaseHash } from "../auth/firebase-hash-format";
import { placeholderEmail } from "../auth/flows.server";
import { LINE_PROVIDER_ID } from "../line/line.server";
import {
  type Account,
  credit,
  entryByKey,
  expireDueLots,
  inTransaction,
  lockAccount,
  lockAccountOf,
  type Tx,
  tryLockAccountOf,
} from "../loyalty/ledger.server";
import { currentRules, lotExpiry } from "../loyalty/rules.server";
import { evaluateTiers } from "../loyalty/tiers.server";
import { recordOccasion } from "../member-messages/occasions.server";
import { Refusal } from "../refusals";
import { lastDayEnd, matchRows, resetMatches } from "./match.server";
import type { ImportConsentKind, ImportProblem, ImportRecord } from "./record";
import {
  CLI_AUDIT_CONTEXT,
  FINISHED,
  type ImportRun,
  loadRun,
  optionsOf,
  type StoredOptions,
} from "./run-store.server";

/**
 * The apply (the worker of the `member-import` job): the run's pending rows in batches of ~2,000, each batch one
 * transaction that locks the run row, matches the batch's rows again, writes them (new members set-based in a
 * few multi-row inserts; merges row by row under the member's account lock), marks them done or rejected and
 * adds to the run's counters and heartbeat. A killed process leaves its batch uncommitted: the rows are still
 * `pending`, and the next applyRun (the job's retry, or a new start) continues from them. The run row's lock
 * means two workers on one run take turns, never the same rows.
 */

export const APPLY_BATCH = 2000;

export type ApplyOptions = {
  batchSize?: number;
  /** Stop between batches (the job's attempt expired, the queue stops): the run stays `running`, resumable. */
  signal?: AbortSignal;
  /** The clock (tests); default the time of each batch. */
  now?: Date;
};

type PendingRow = {
  line: number;
  externalId: string | null;
  record: ImportRecord | null;
  problems: ImportProblem[] | null;
  plan: string | null;
  memberId: string | null;
};

type BatchCounts = {
  rows: number;
  created: number;
  merged: number;
  unchanged: number;
  rejected: number;
  points: number;
};

type BatchOutcome = "applied" | "empty" | "cancelled" | "stopped";

const notesOf = (row: PendingRow) => new Set((row.problems ?? []).map((p) => p.code));

function openingExpiry(record: ImportRecord, now: Date): Date {
  return lastDayEnd(record.pointsLastDay) ?? lotExpiry(now);
}

const importKey = (source: string, externalId: string) => `import:${source}:${externalId}`;

/** The marketing flags the imported consents give (the latest per kind); none → false (nothing invented). */
function marketingFlags(record: ImportRecord): Record<ImportConsentKind, boolean> {
  const latest = new Map<ImportConsentKind, { at: string; granted: boolean }>();
  for (const consent of record.consents) {
    const seen = latest.get(consent.kind);
    if (!seen || seen.at <= consent.at) latest.set(consent.kind, { at: consent.at, granted: consent.granted });
  }
  return {
    marketing_sms: latest.get("marketing_sms")?.granted ?? false,
    marketing_email: latest.get("marketing_email")?.granted ?? false,
    marketing_line: latest.get("marketing_line")?.granted ?? false,
  };
}

function consentRows(record: ImportRecord, userId: string, source: string) {
  return record.consents.map((c) => ({
    userId,
    kind: c.kind,
    version: "import",
    granted: c.granted,
    source: `import:${source}`,
    ipAddress: null,
    createdAt: new Date(c.at),
  }));
}

const dateOrNull = (iso: string | null) => {
  if (!iso) return null;
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * A multi-row insert as one JSON parameter (`jsonb_to_recordset`): the same rows as `tx.insert(table).values(rows)`
 * but without building one bound parameter per cell in JS (~20 columns × 500 rows per table per batch). Every
 * column named in any row is written; a key missing from a row is NULL (the tables here have no JS defaults).
 */
async function insertJson<T extends PgTable>(tx: Tx, table: T, rows: T["$inferInsert"][]): Promise<void> {
  if (rows.length === 0) return;
  const columns = getTableColumns(table) as Record<string, { name: string; getSQLType(): string }>;
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => columns[key]);
  const names = keys.map((key) => `"${columns[key]?.name}"`).join(", ");
  const types = keys.map((key) => `"${columns[key]?.name}" ${columns[key]?.getSQLType()}`).join(", ");
  const data = rows.map((row) =>
    Object.fromEntries(keys.map((key) => [columns[key]?.name, (row as Record<string, unknown>)[key] ?? null])),
  );
  await tx.execute(
    sql`insert into ${table} (${sql.raw(names)}) select ${sql.raw(names)} from jsonb_to_recordset(${JSON.stringify(data)}::jsonb) as v(${sql.raw(types)})`,
  );
}

/** New members, set-based: one multi-row insert per table for the whole batch. */
async function createMembers(
  tx: Tx,
  run: ImportRun,
  options: StoredOptions,
  rows: PendingRow[],
  now: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const numbers = rowsOf<{ n: string }>(
    await tx.execute(sql`select nextval('member_number_seq')::text as n from generate_series(1, ${rows.length}::int)`),
  );
  const users: (typeof authUser.$inferInsert)[] = [];
  const members: (typeof member.$inferInsert)[] = [];
  const accounts: (typeof loyaltyAccount.$inferInsert)[] = [];
  const logins: (typeof authAccount.$inferInsert)[] = [];
  const sources: (typeof memberSource.$inferInsert)[] = [];
  const consents: (typeof memberConsent.$inferInsert)[] = [];
  const entries: (typeof pointEntry.$inferInsert)[] = [];
  const lots: (typeof pointLot.$inferInsert)[] = [];
  const expired: string[] = [];
  const done: { line: number; member_id: string; member_number: string }[] = [];
  let points = 0;
  rows.forEach((row, i) => {
    const record = row.record as ImportRecord;
    const phone = record.phoneNumber as string;
    const notes = notesOf(row);
    const userId = randomUUID();
    const memberId = randomUUID();
    const memberNumber = `HL${String(numbers[i]?.n).padStart(8, "0")}`;
    const email = record.email && !notes.has("email_taken") ? record.email : null;
    const joined = dateOrNull(record.joinedAt) ?? now;
    const tier = record.tier ?? "basic";
    const flags = marketingFlags(record);
    users.push({
      id: userId,
      name: record.nameZh ?? "",
      email: email ?? placeholderEmail(phone),
      emailVerified: email ? record.emailVerified : false,
      phoneNumber: phone,
      phoneNumberVerified: true,
      createdAt: joined,
      updatedAt: now,
    });
    members.push({
      id: memberId,
      userId,
      memberNumber,
      nameZh: record.nameZh ?? "",
      gender: record.gender ?? "undisclosed",
      birthday: record.birthday,
      phoneNumber: phone,
      email,
      companyName: record.companyName,
      taxIdNumber: record.taxIdNumber,
      einvoiceCarrier: record.einvoiceCarrier,
      marketingSms: flags.marketing_sms,
      marketingEmail: flags.marketing_email,
      marketingLine: flags.marketing_line,
      memberLevel: tier,
      disabled: record.disabled,
      signupMethod: "phone",
      lastLoginAt: dateOrNull(record.lastLoginAt),
      createdAt: joined,
      updatedAt: now,
    });
    accounts.push({ memberId, balance: record.points, tier, tierSince: now, updatedAt: now });
    if (options.hashConfig && record.password) {
      logins.push({
        id: randomUUID(),
        accountId: userId,
        providerId: "credential",
        userId,
        password: encodeFirebaseHash(options.hashConfig, record.password),
        createdAt: now,
        updatedAt: now,
      });
    }
    if (record.lineUserId && !notes.has("line_taken")) {
      logins.push({
        id: randomUUID(),
        accountId: record.lineUserId,
        providerId: LINE_PROVIDER_ID,
        userId,
        createdAt: now,
        updatedAt: now,
      });
    }
    sources.push({
      source: run.source,
      externalId: record.externalId,
      memberId,
      runId: run.id,
      merged: false,
      data: record.extra,
      createdAt: now,
    });
    consents.push(...consentRows(record, userId, run.source));
    if (record.points > 0) {
      const entryId = randomUUID();
      const expiresAt = openingExpiry(record, now);
      entries.push({
        id: entryId,
        memberId,
        kind: "import",
        amount: record.points,
        lotExpiresAt: expiresAt,
        reason: `import ${run.source}`,
        idempotencyKey: importKey(run.source, record.externalId),
        createdAt: now,
      });
      lots.push({ entryId, memberId, remaining: record.points, expiresAt });
      if (expiresAt <= now) expired.push(memberId);
      points += record.points;
    }
    done.push({ line: row.line, member_id: memberId, member_number: memberNumber });
  });
  await insertJson(tx, authUser, users);
  await insertJson(tx, member, members);
  await insertJson(tx, loyaltyAccount, accounts);
  await insertJson(tx, authAccount, logins);
  await insertJson(tx, memberSource, sources);
  await insertJson(tx, memberConsent, consents);
  await insertJson(tx, pointEntry, entries);
  await insertJson(tx, pointLot, lots);
  // An expiry in the past: booked, then expired at once (visible as such in the history).
  for (const memberId of expired) await expireDueLots(tx, await lockAccount(tx, memberId), now);
  if (options.welcome) {
    for (const d of done) await welcome(tx, d.member_id, d.member_number, now);
  }
  await tx.execute(sql`
    update import_row r set state = 'done', member_id = v.member_id
    from jsonb_to_recordset(${JSON.stringify(done)}::jsonb) as v(line int, member_id uuid)
    where r.run_id = ${run.id}::uuid and r.line = v.line
      and r.line between ${Math.min(...done.map((d) => d.line))} and ${Math.max(...done.map((d) => d.line))}`);
  return points;
}

/** Only when the admin ticked it: the sign-up's welcome points and message, with their usual keys. */
async function welcome(tx: Tx, memberId: string, memberNumber: string, now: Date): Promise<void> {
  const rules = await currentRules(tx, now);
  let amount = 0;
  if (rules.welcomeEnabled && rules.welcomePoints > 0) {
    const key = `welcome:${memberId}`;
    const account = await lockAccount(tx, memberId);
    if (!(await entryByKey(tx, key))) {
      await credit(
        tx,
        account,
        { kind: "welcome", key, amount: rules.welcomePoints, expiresAt: lotExpiry(now), reason: "welcome" },
        now,
      );
      amount = rules.welcomePoints;
    }
  }
  await recordOccasion(
    tx,
    { memberId, occasion: "welcome", kind: "welcome", data: { points: amount, memberNumber } },
    now,
  );
}

/**
 * One row into an existing member, under the account lock (`account`, locked by the caller): fill what is empty, book
 * the opening balance once.
 */
async function mergeRow(
  tx: Tx,
  run: ImportRun,
  options: StoredOptions,
  row: PendingRow,
  account: Account,
  now: Date,
): Promise<number> {
  const record = row.record as ImportRecord;
  const memberId = row.memberId as string;
  const notes = notesOf(row);
  const [found] = await tx.select().from(member).where(eq(member.id, memberId));
  if (!found) throw new Error(`member ${memberId} vanished under its lock`);
  const fill: Partial<typeof member.$inferInsert> = {};
  if (!found.nameZh && record.nameZh) fill.nameZh = record.nameZh;
  if (!found.birthday && record.birthday) fill.birthday = record.birthday;
  if (!found.companyName && record.companyName) fill.companyName = record.companyName;
  if (!found.taxIdNumber && record.taxIdNumber) fill.taxIdNumber = record.taxIdNumber;
  if (!found.einvoiceCarrier && record.einvoiceCarrier) fill.einvoiceCarrier = record.einvoiceCarrier;
  if (!found.email && record.email && !notes.has("email_taken")) {
    fill.email = record.email;
    await tx
      .update(authUser)
      .set({ email: record.email, emailVerified: record.emailVerified, updatedAt: now })
      .where(and(eq(authUser.id, found.userId), sql`${authUser.email} like '%@phone.invalid'`));
  }
  if (Object.keys(fill).length > 0) {
    await tx
      .update(member)
      .set({ ...fill, updatedAt: now })
      .where(eq(member.id, memberId));
  }
  await tx
    .insert(memberSource)
    .values({
      source: run.source,
      externalId: record.externalId,
      memberId,
      runId: run.id,
      merged: true,
      data: record.extra,
      createdAt: now,
    })
    .onConflictDoNothing();
  const consents = consentRows(record, found.userId, run.source);
  if (consents.length > 0) await tx.insert(memberConsent).values(consents);
  if (record.lineUserId && !notes.has("line_taken")) {
    await tx
      .insert(authAccount)
      .values({
        id: randomUUID(),
        accountId: record.lineUserId,
        providerId: LINE_PROVIDER_ID,
        userId: found.userId,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
  }
  if (options.hashConfig && record.password) {
    const [login] = await tx
      .select({ id: authAccount.id, password: authAccount.password })
      .from(authAccount)
      .where(and(eq(authAccount.userId, found.userId), eq(authAccount.providerId, "credential")));
    const password = encodeFirebaseHash(options.hashConfig, record.password);
    if (!login) {
      await tx.insert(authAccount).values({
        id: randomUUID(),
        accountId: found.userId,
        providerId: "credential",
        userId: found.userId,
        password,
        createdAt: now,
        updatedAt: now,
      });
    } else if (!login.password) {
      await tx.update(authAccount).set({ password, updatedAt: now }).where(eq(authAccount.id, login.id));
    }
  }
  let booked = 0;
  if (record.points > 0) {
    const key = importKey(run.source, record.externalId);
    if (!(await entryByKey(tx, key))) {
      const expiresAt = openingExpiry(record, now);
      await credit(
        tx,
        account,
        { kind: "import", key, amount: record.points, expiresAt, reason: `import ${run.source}` },
        now,
      );
      if (expiresAt <= now) await expireDueLots(tx, account, now);
      booked = record.points;
    }
  }
  await tx
    .update(importRow)
    .set({ state: "done" })
    .where(and(eq(importRow.runId, run.id), eq(importRow.line, row.line)));
  return booked;
}

async function applyBatch(db: Database, runId: string, size: number, now: Date): Promise<BatchOutcome> {
  return inTransaction(db, async (tx) => {
    const [run] = await tx.select().from(importRun).where(eq(importRun.id, runId)).for("update");
    if (run?.status !== "running") return "stopped";
    if (run.cancelRequestedAt) return "cancelled";
    const pending = await tx
      .select({ line: importRow.line })
      .from(importRow)
      .where(and(eq(importRow.runId, runId), eq(importRow.state, "pending")))
      .orderBy(asc(importRow.line))
      .limit(size);
    const from = pending[0]?.line;
    const to = pending[pending.length - 1]?.line;
    if (from === undefined || to === undefined) return "empty";
    const scope = { runId, from, to };
    await resetMatches(tx, scope);
    await matchRows(tx, { ...scope, source: run.source });
    const rows = (await tx
      .select({
        line: importRow.line,
        externalId: importRow.externalId,
        record: importRow.record,
        problems: importRow.problems,
        plan: importRow.plan,
        memberId: importRow.memberId,
      })
      .from(importRow)
      .where(
        and(
          eq(importRow.runId, runId),
          eq(importRow.state, "pending"),
          sql`${importRow.line} between ${from}::int and ${to}::int`,
        ),
      )
      .orderBy(asc(importRow.line))) as PendingRow[];
    const options = optionsOf(run);
    const counts: BatchCounts = { rows: rows.length, created: 0, merged: 0, unchanged: 0, rejected: 0, points: 0 };
    const byPlan = (plan: string) => rows.filter((r) => r.plan === plan);
    const rejected = byPlan("reject").map((r) => r.line);
    const unchanged = byPlan("unchanged").map((r) => r.line);
    if (rejected.length > 0) {
      await tx
        .update(importRow)
        .set({ state: "rejected" })
        .where(and(eq(importRow.runId, runId), inArray(importRow.line, rejected)));
    }
    if (unchanged.length > 0) {
      await tx
        .update(importRow)
        .set({ state: "done" })
        .where(and(eq(importRow.runId, runId), inArray(importRow.line, unchanged)));
    }
    counts.rejected = rejected.length;
    counts.unchanged = unchanged.length;
    const creates = byPlan("create");
    counts.points += await createMembers(tx, run, options, creates, now);
    counts.created = creates.length;
    // Accounts locked in member order (a member's rows in line order), as a grant's batch locks them, and only the
    // first waited for: a referred friend's purchase locks the friend's account, then the referrer's (ADR 053), so a
    // batch waiting for one while holding others could deadlock with it. A member whose account is busy stays
    // pending for the next batch (its row not counted); each batch merges at least its first.
    const merges = byPlan("merge").sort((a, b) => {
      const x = a.memberId as string;
      const y = b.memberId as string;
      return x < y ? -1 : x > y ? 1 : a.line - b.line;
    });
    let holding = false;
    const busy = new Set<string>();
    for (const row of merges) {
      const memberId = row.memberId as string;
      // A busy member's later rows wait with its first: its rows stay in line order.
      const locked = busy.has(memberId)
        ? null
        : holding
          ? await tryLockAccountOf(tx, memberId)
          : await lockAccountOf(tx, memberId);
      if (!locked) {
        busy.add(memberId);
        counts.rows -= 1;
        continue;
      }
      holding = true;
      counts.points += await mergeRow(tx, run, options, row, locked.account, now);
      counts.merged += 1;
    }
    await tx
      .update(importRun)
      .set({
        rowsDone: sql`${importRun.rowsDone} + ${counts.rows}::int`,
        created: sql`${importRun.created} + ${counts.created}::int`,
        merged: sql`${importRun.merged} + ${counts.merged}::int`,
        unchanged: sql`${importRun.unchanged} + ${counts.unchanged}::int`,
        rejected: sql`${importRun.rejected} + ${counts.rejected}::int`,
        pointsBooked: sql`${importRun.pointsBooked} + ${counts.points}::bigint`,
        heartbeatAt: now,
      })
      .where(eq(importRun.id, runId));
    return "applied";
  });
}

/**
 * Ends a run once (done, cancelled, failed) with its one audit entry `import.completed`, in one transaction;
 * a run already finished is left as it is.
 */
export async function finishRun(
  db: Database,
  runId: string,
  status: "done" | "cancelled" | "failed",
  now: Date,
  error: string | null = null,
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [run] = await tx
      .update(importRun)
      .set({ status, finishedAt: now, heartbeatAt: now, error })
      .where(and(eq(importRun.id, runId), sql`${importRun.status} not in ('done', 'cancelled', 'failed', 'rejected')`))
      .returning();
    if (!run) return;
    await recordAudit(
      tx,
      {
        context: optionsOf(run).actor ?? CLI_AUDIT_CONTEXT,
        action: "import.completed",
        targetType: "import_run",
        targetId: run.id,
        after: {
          kind: run.kind,
          source: run.source,
          status,
          fileSha256: run.fileSha256,
          rowsTotal: run.rowsTotal,
          rowsDone: run.rowsDone,
          created: run.created,
          merged: run.merged,
          unchanged: run.unchanged,
          rejected: run.rejected,
          pointsBooked: run.pointsBooked,
          ...(error ? { error } : {}),
        },
      },
      now,
    );
  });
}

/**
 * Applies a queued or running run (the job's handler; the command line calls it directly). Resumes from the
 * pending rows; a finished run is returned untouched. Tiers are evaluated at the end when the admin chose it.
 */
export async function applyRun(db: Database, runId: string, options: ApplyOptions = {}): Promise<ImportRun> {
  const run = await loadRun(db, runId);
  if (FINISHED.includes(run.status)) return run;
  if (run.status !== "queued" && run.status !== "running") {
    throw new Refusal("imports", "import_wrong_state", { params: { status: run.status } });
  }
  const clock = () => options.now ?? new Date();
  const start = clock();
  await db
    .update(importRun)
    .set({ status: "running", startedAt: run.startedAt ?? start, heartbeatAt: start })
    .where(and(eq(importRun.id, runId), inArray(importRun.status, ["queued", "running"])));
  const size = Math.max(1, options.batchSize ?? APPLY_BATCH);
  for (;;) {
    if (options.signal?.aborted) break;
    const now = clock();
    const outcome = await applyBatch(db, runId, size, now);
    if (outcome === "applied") continue;
    if (outcome === "cancelled") await finishRun(db, runId, "cancelled", now);
    if (outcome === "empty") {
      if (optionsOf(run).evaluateTiers) await evaluateTiers(db, now);
      await finishRun(db, runId, "done", now);
    }
    break;
  }
  return loadRun(db, runId);
}

/** Queued or running runs whose worker stopped writing its heartbeat (a killed process), oldest first. */
export async function staleRuns(db: Database, olderThan: Date): Promise<string[]> {
  const rows = await db
    .select({ id: importRun.id })
    .from(importRun)
    .where(
      and(
        inArray(importRun.status, ["queued", "running"]),
        sql`coalesce(${importRun.heartbeatAt}, ${importRun.createdAt}) < ${olderThan.toISOString()}::timestamptz`,
        isNull(importRun.finishedAt),
      ),
    )
    .orderBy(asc(importRun.createdAt));
  return rows.map((r) => r.id);
}
