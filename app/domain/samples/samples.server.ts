import { type Database, rowsOf } from "@platform/db/client";
import {
  type LocalizedText,
  material,
  materialSampleStore,
  member,
  memberMessage,
  type SampleStatus,
  sampleOpenCount,
  sampleRequest,
  store,
} from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "~/domain/audit/audit.server";
import { Refusal, type RefusalCode } from "~/domain/refusals";
import type { StaffActor } from "~/domain/staff/actor";
import { requirePermission } from "~/domain/staff/guard.server";
import { storesFor } from "~/domain/staff/permissions";
import { addDays, taipeiDate, taipeiIsoDate } from "~/lib/time";
import { inQuietHours, quietHoursEnd } from "../member-messages/channels";
import { showroomSettings } from "../showroom/settings.server";
import { isOverdue, overdueSql } from "./overdue";
import {
  CONSOLE_SAMPLE_FILTERS,
  type ConsoleSampleFilter,
  OPEN_STATUSES,
  SAMPLE_STEPS,
  type SampleStep,
} from "./samples";

/**
 * Samples (issue 37 part 3, ADR 046): a member asks for samples of materials to collect at a store that has
 * them; staff mark them ready, hand them out (due back in the loan days, a showroom setting: 14 Taipei days by
 * default, ADR 050) and take them back. The limit of open samples per member (a setting, 5 by default) is claimed on `sample_open_count` by one statement and given back in the transaction
 * that cancels or returns one; every staff step is a conditional update (`where status = <the step's from>`)
 * audited in its transaction, so two staff pressing the same button change the row once.
 */

export { CONSOLE_SAMPLE_FILTERS, type ConsoleSampleFilter, OPEN_STATUSES, SAMPLE_STEPS, type SampleStep };

export class SampleError extends Refusal<"samples"> {
  constructor(code: RefusalCode<"samples">, field?: string, params?: Record<string, string>) {
    super("samples", code, { field, params });
    this.name = "SampleError";
  }
}

/** A Taipei calendar date as `YYYY-MM-DD`. */
export function taipeiToday(now: Date): string {
  return taipeiIsoDate(now);
}

/** The due-back day of a sample handed out at `now`: today (Taipei) + the loan days in force. */
export function dueBackOn(now: Date, loanDays: number): string {
  const d = addDays(taipeiDate(now), loanDays);
  return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
}

/** For each material, the published stores that have samples of it (in the stores' order). */
export async function sampleStoresOf(
  db: Database,
  materialIds: readonly string[],
): Promise<Map<string, { id: string; name: LocalizedText }[]>> {
  const result = new Map<string, { id: string; name: LocalizedText }[]>();
  if (materialIds.length === 0) return result;
  const rows = await db
    .select({ materialId: materialSampleStore.materialId, id: store.id, name: store.name })
    .from(materialSampleStore)
    .innerJoin(store, eq(store.id, materialSampleStore.storeId))
    .where(and(inArray(materialSampleStore.materialId, [...materialIds]), eq(store.published, true)))
    .orderBy(asc(store.sortOrder), asc(store.id));
  for (const row of rows) {
    const list = result.get(row.materialId) ?? [];
    list.push({ id: row.id, name: row.name });
    result.set(row.materialId, list);
  }
  return result;
}

/** Names of published materials (a request page opened from a material that is not a favourite). */
export function publishedMaterialNames(db: Database, ids: readonly string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: material.id, name: material.name })
    .from(material)
    .where(and(inArray(material.id, [...ids]), eq(material.published, true)));
}

/** The stores that have samples of a material (the editor's boxes). */
export async function sampleStoreIds(db: Database, materialId: string): Promise<string[]> {
  const rows = await db
    .select({ id: materialSampleStore.storeId })
    .from(materialSampleStore)
    .where(eq(materialSampleStore.materialId, materialId));
  return rows.map((r) => r.id).sort();
}

/** Replaces the stores that have samples of a material (inside the editor's transaction). */
export async function replaceSampleStores(tx: Database, materialId: string, storeIds: readonly string[]) {
  await tx.delete(materialSampleStore).where(eq(materialSampleStore.materialId, materialId));
  if (storeIds.length > 0) {
    await tx.insert(materialSampleStore).values(storeIds.map((storeId) => ({ materialId, storeId })));
  }
}

/**
 * Claims `n` of the member's open-sample places (the limit, 5) in the caller's transaction: one statement on the
 * member's counter row (ADR 018's pattern), so two claims at once queue on the row and one that would pass the
 * limit changes nothing and throws `over_limit` (the caller's transaction rolls back). The member's online request
 * and the counter's walk-in loan both call it; nothing else writes the limit up.
 */
export async function claimOpenSamples(tx: Database, memberId: string, n: number, limit: number): Promise<number> {
  const claimed = rowsOf<{ open: number }>(
    await tx.execute(sql`
      insert into ${sampleOpenCount} (member_id, open) values (${memberId}, ${n})
      on conflict (member_id) do update set open = ${sampleOpenCount}.open + excluded.open
        where ${sampleOpenCount}.open + excluded.open <= ${limit}::int
      returning open`),
  );
  const [row] = claimed;
  if (!row) throw new SampleError("over_limit", "materials", { limit: String(limit) });
  return Number(row.open);
}

/**
 * Every material is published and has samples at the store (the material editor's box), or `no_samples`: the online
 * request and the counter's walk-in loan ask it the same way.
 */
export async function requireOffered(tx: Database, storeId: string, materialIds: string[]): Promise<void> {
  const offered = await tx
    .select({ id: materialSampleStore.materialId })
    .from(materialSampleStore)
    .innerJoin(material, eq(material.id, materialSampleStore.materialId))
    .where(
      and(
        eq(materialSampleStore.storeId, storeId),
        inArray(materialSampleStore.materialId, materialIds),
        eq(material.published, true),
      ),
    );
  if (offered.length !== materialIds.length) throw new SampleError("no_samples", "materials");
}

export type SampleRequestInput = { memberId: string; storeId: string; materialIds: string[] };

/**
 * Asks for samples, one row per material, all or nothing: the store must be published, every material published
 * with samples at that store and not already asked for, and the member's open samples stay within the limit —
 * claimed by one statement on the member's counter row (two requests at once queue on it; one that would pass
 * the limit changes nothing and rolls the whole request back).
 */
export async function requestSamples(db: Database, input: SampleRequestInput, now: Date): Promise<string[]> {
  const materialIds = [...new Set(input.materialIds)];
  if (materialIds.length === 0) throw new SampleError("no_samples", "materials");
  const { sampleLimit } = await showroomSettings(db);
  const overLimit = () => new SampleError("over_limit", "materials", { limit: String(sampleLimit) });
  if (materialIds.length > sampleLimit) throw overLimit();
  return db.transaction(async (tx) => {
    const [shop] = await tx
      .select({ id: store.id })
      .from(store)
      .where(and(eq(store.id, input.storeId), eq(store.published, true)));
    if (!shop) throw new SampleError("unknown_store", "storeId");
    await requireOffered(tx, input.storeId, materialIds);
    const n = materialIds.length;
    await claimOpenSamples(tx, input.memberId, n, sampleLimit);
    const inserted = await tx
      .insert(sampleRequest)
      .values(
        materialIds.map((materialId) => ({
          memberId: input.memberId,
          storeId: input.storeId,
          materialId,
          requestedAt: now,
          updatedAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: sampleRequest.id });
    if (inserted.length !== n) throw new SampleError("already_requested", "materials");
    return inserted.map((r) => r.id);
  });
}

/** Gives `n` open places back to the member (a cancel or a return), in the caller's transaction. */
async function releaseOpen(tx: Database, memberId: string, n = 1) {
  await tx
    .update(sampleOpenCount)
    .set({ open: sql`greatest(${sampleOpenCount.open} - ${n}, 0)` })
    .where(eq(sampleOpenCount.memberId, memberId));
}

/** The member cancels a sample not yet handed out. Another member's or an unknown id: not_found. */
export async function cancelSample(db: Database, memberId: string, id: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(sampleRequest)
      .set({ status: "cancelled", cancelledAt: now, cancelledBy: "member", updatedAt: now })
      .where(
        and(
          eq(sampleRequest.id, id),
          eq(sampleRequest.memberId, memberId),
          inArray(sampleRequest.status, ["requested", "ready"]),
        ),
      )
      .returning({ id: sampleRequest.id });
    if (!row) {
      const [exists] = await tx
        .select({ id: sampleRequest.id })
        .from(sampleRequest)
        .where(and(eq(sampleRequest.id, id), eq(sampleRequest.memberId, memberId)));
      throw exists ? new SampleError("wrong_state") : new SampleError("not_found");
    }
    await releaseOpen(tx, memberId);
  });
}

const rowColumns = {
  id: sampleRequest.id,
  memberId: sampleRequest.memberId,
  storeId: sampleRequest.storeId,
  storeName: store.name,
  materialId: sampleRequest.materialId,
  materialName: material.name,
  images: material.images,
  status: sampleRequest.status,
  requestedAt: sampleRequest.requestedAt,
  readyAt: sampleRequest.readyAt,
  handedOutAt: sampleRequest.handedOutAt,
  dueBackOn: sampleRequest.dueBackOn,
  returnedAt: sampleRequest.returnedAt,
  cancelledAt: sampleRequest.cancelledAt,
};

export type SampleRow = {
  id: string;
  memberId: string;
  storeId: string;
  storeName: LocalizedText;
  materialId: string;
  materialName: LocalizedText;
  status: SampleStatus;
  requestedAt: Date;
  readyAt: Date | null;
  handedOutAt: Date | null;
  dueBackOn: string | null;
  returnedAt: Date | null;
  cancelledAt: Date | null;
  overdue: boolean;
};

function withOverdue<R extends { status: SampleStatus; dueBackOn: string | null }>(rows: R[], today: string) {
  return rows.map((r) => ({ ...r, overdue: isOverdue(r, today) }));
}

/** The member's samples: open ones first (what is out, by due day), then the last 20 closed. */
export async function memberSamples(db: Database, memberId: string, now: Date) {
  const today = taipeiToday(now);
  const rows = await db
    .select(rowColumns)
    .from(sampleRequest)
    .innerJoin(store, eq(store.id, sampleRequest.storeId))
    .innerJoin(material, eq(material.id, sampleRequest.materialId))
    .where(eq(sampleRequest.memberId, memberId))
    .orderBy(desc(sampleRequest.requestedAt))
    .limit(100);
  const all = withOverdue(rows, today);
  const open = all
    .filter((r) => (OPEN_STATUSES as readonly string[]).includes(r.status))
    .sort((a, b) => (a.dueBackOn ?? "9999").localeCompare(b.dueBackOn ?? "9999"));
  const closed = all.filter((r) => !(OPEN_STATUSES as readonly string[]).includes(r.status)).slice(0, 20);
  return { open, closed, today };
}

/** A member's samples that are out past their due day (the console's member page). */
export async function overdueSamplesOf(
  db: Database,
  memberId: string,
  now: Date,
  stores: readonly string[] | "all" = "all",
) {
  if (stores !== "all" && stores.length === 0) return [];
  const rows = await db
    .select(rowColumns)
    .from(sampleRequest)
    .innerJoin(store, eq(store.id, sampleRequest.storeId))
    .innerJoin(material, eq(material.id, sampleRequest.materialId))
    .where(
      and(
        eq(sampleRequest.memberId, memberId),
        overdueSql(taipeiToday(now)),
        stores === "all" ? undefined : inArray(sampleRequest.storeId, [...stores]),
      ),
    )
    .orderBy(asc(sampleRequest.dueBackOn));
  return withOverdue(rows, taipeiToday(now));
}

/**
 * The samples of the stores the staff member works at (or one of them), by status; `member` narrows to one
 * member (after a card scan). A clerk never sees another store's rows: the store list is the actor's.
 */
export async function consoleSamples(
  db: Database,
  actor: StaffActor,
  query: { storeId: string | null; filter: ConsoleSampleFilter; memberId: string | null },
  now: Date,
) {
  const today = taipeiToday(now);
  const mine = storesFor(actor, "samples.manage");
  if (query.storeId && mine !== "all" && !mine.includes(query.storeId)) return [];
  const stores = query.storeId ? [query.storeId] : mine;
  if (stores !== "all" && stores.length === 0) return [];
  const byStatus = {
    open: inArray(sampleRequest.status, [...OPEN_STATUSES]),
    requested: eq(sampleRequest.status, "requested"),
    ready: eq(sampleRequest.status, "ready"),
    handed_out: eq(sampleRequest.status, "handed_out"),
    overdue: overdueSql(today),
    closed: inArray(sampleRequest.status, ["returned", "cancelled"]),
  }[query.filter];
  const rows = await db
    .select({ ...rowColumns, memberNumber: member.memberNumber, memberName: member.nameZh })
    .from(sampleRequest)
    .innerJoin(store, eq(store.id, sampleRequest.storeId))
    .innerJoin(material, eq(material.id, sampleRequest.materialId))
    .innerJoin(member, eq(member.id, sampleRequest.memberId))
    .where(
      and(
        byStatus,
        stores === "all" ? undefined : inArray(sampleRequest.storeId, stores),
        query.memberId ? eq(sampleRequest.memberId, query.memberId) : undefined,
      ),
    )
    .orderBy(asc(sampleRequest.dueBackOn), asc(sampleRequest.requestedAt))
    .limit(200);
  return withOverdue(rows, today);
}

/**
 * A staff step on some of one member's samples (ready, hand out, returned): permission-checked at each sample's
 * store, one conditional update per step (`where status = <from>`), audited in the same transaction. A sample
 * already moved (another clerk was faster) refuses the whole step with `wrong_state`; nothing is half done.
 */
export async function moveSamples(
  db: Database,
  actor: StaffActor,
  step: SampleStep,
  ids: readonly string[],
  audit: AuditContext,
  now: Date,
): Promise<{ memberId: string; count: number; dueBackOn: string | null }> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw new SampleError("not_found");
  const { from, to, action } = SAMPLE_STEPS[step];
  return auditedTx(db, audit, now, async (tx, record) => {
    const found = await tx
      .select({ id: sampleRequest.id, storeId: sampleRequest.storeId, memberId: sampleRequest.memberId })
      .from(sampleRequest)
      .where(inArray(sampleRequest.id, unique));
    if (found.length !== unique.length) throw new SampleError("not_found");
    for (const row of found) requirePermission(actor, "samples.manage", { storeId: row.storeId });
    const members = new Set(found.map((r) => r.memberId));
    if (members.size !== 1) throw new SampleError("wrong_state");
    const memberId = found[0]?.memberId as string;
    const due = step === "hand_out" ? dueBackOn(now, (await showroomSettings(tx)).sampleLoanDays) : null;
    const set =
      step === "ready"
        ? { readyAt: now, readyBy: actor.userId }
        : step === "hand_out"
          ? { handedOutAt: now, handedOutBy: actor.userId, dueBackOn: due }
          : { returnedAt: now, returnedBy: actor.userId };
    const moved = await tx
      .update(sampleRequest)
      .set({ ...set, status: to, updatedAt: now })
      .where(and(inArray(sampleRequest.id, unique), eq(sampleRequest.status, from)))
      .returning({ id: sampleRequest.id, storeId: sampleRequest.storeId, materialId: sampleRequest.materialId });
    if (moved.length !== unique.length) throw new SampleError("wrong_state");
    if (step === "return") await releaseOpen(tx, memberId, moved.length);
    for (const row of moved) {
      await record(action, ["sample_request", row.id], {
        before: { status: from },
        after: {
          status: to,
          memberId,
          storeId: row.storeId,
          materialId: row.materialId,
          ...(due ? { dueBackOn: due } : {}),
        },
      });
    }
    return { memberId, count: moved.length, dueBackOn: due };
  });
}

/** The ready samples of one member at the stores the staff member may hand out at (after a card scan). */
export async function readyForMember(db: Database, actor: StaffActor, memberId: string, storeId: string | null) {
  const mine = storesFor(actor, "samples.manage");
  const rows = await db
    .select({ id: sampleRequest.id, storeId: sampleRequest.storeId })
    .from(sampleRequest)
    .where(and(eq(sampleRequest.memberId, memberId), eq(sampleRequest.status, "ready")));
  return rows.filter((r) => (mine === "all" || mine.includes(r.storeId)) && (!storeId || r.storeId === storeId));
}

export const SAMPLE_REMINDERS_QUEUE = "samples.reminders";
export const SAMPLE_REMINDERS_CRON = "0 10 * * *";

/**
 * The "due back soon" reminder (PRODUCT.md §12: the sample reminder days before, a showroom setting, 2 by default): samples out whose due day is within that many next
 * Taipei days and not yet reminded are marked, and one automatic message `sample-due` is recorded per member,
 * store and due day — one statement, so a second run, a second instance or a retry records nothing twice. The
 * delivery picks the member's channel (LINE → SMS → e-mail); recorded in the quiet hours it waits until 09:00, so
 * no text goes 21:00–09:00.
 */
export async function recordSampleReminders(db: Database, now: Date): Promise<number> {
  const today = taipeiToday(now);
  const { sampleReminderDays } = await showroomSettings(db);
  const until = (() => {
    const d = addDays(taipeiDate(now), sampleReminderDays);
    return `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
  })();
  const dueAt = inQuietHours(now) ? quietHoursEnd(now) : now;
  const result = await db.execute<{ id: string }>(sql`
    with due as (
      update ${sampleRequest} set reminder_sent_at = ${now.toISOString()}::timestamptz
       where status = 'handed_out' and reminder_sent_at is null
         and due_back_on >= ${today}::date and due_back_on <= ${until}::date
      returning member_id, store_id, due_back_on
    )
    insert into ${memberMessage} (member_id, occasion, kind, purpose, data, due_at, created_at, updated_at)
    select d.member_id, 'sample-due:' || d.store_id || ':' || to_char(d.due_back_on, 'YYYY-MM-DD'), 'sample-due',
           'service',
           jsonb_build_object('storeId', d.store_id, 'count', count(*)::int,
                              'dueOn', to_char(d.due_back_on, 'YYYY-MM-DD')),
           ${dueAt.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
      from due d
      join ${member} m on m.id = d.member_id and not m.disabled and m.deleted_at is null
     group by d.member_id, d.store_id, d.due_back_on
    on conflict (member_id, occasion) do nothing
    returning id`);
  return rowsOf(result).length;
}

/** Registers the reminder job: every day at 10:00 Taipei (one job per slot across all instances). */
export async function registerSampleJobs(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(SAMPLE_REMINDERS_QUEUE, { retryLimit: 3, retryDelay: 60 });
  await jobs.work(SAMPLE_REMINDERS_QUEUE, async () => ({ reminded: await recordSampleReminders(db, new Date()) }));
  await jobs.schedule(SAMPLE_REMINDERS_QUEUE, SAMPLE_REMINDERS_CRON);
}
