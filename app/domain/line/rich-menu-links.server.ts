import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { dueBy } from "@platform/jobs/due";
import { startWokenWorker, type WokenWorker, type WokenWorkerOptions } from "@platform/jobs/woken-worker";
import type { Logger } from "@platform/logger";
import { sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { DeliveryError } from "../messaging/errors";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { LINE_RICH_MENU_BULK_MAX, type LineRichMenuClient } from "./rich-menu-client.server";
import { richMenusFor } from "./rich-menus.server";

/**
 * The rich-menu outbox's worker (ADR 049), retried like the LINE pushes (ADR 034): due rows of `rich_menu_link`
 * are claimed with `for update skip locked` (one instance links a user, never two at once), the menu each user
 * gets is asked *now* (`richMenusFor`, the one rule), users who already have it are done without a call, and the
 * others are linked at LINE in bulk calls of up to 500 per menu (unlinked in bulk the same way). A retryable
 * failure (429, 5xx, a timeout) puts the batch back with the pushes' back-off; a permanent one, or the last
 * attempt, marks it failed. A row queued again while it was being sent (its generation moved on) goes again.
 * A claim older than five minutes (an instance that died mid-call) is taken over.
 */
export const RICH_MENU_MAX_ATTEMPTS = 8;
const STALE_CLAIM_MS = 5 * 60_000;
export const RICH_MENU_DISPATCH_INTERVAL_MS = 15_000;

/** Seconds to wait before the next attempt: 30 s, 1 min, 2 min … at most an hour (as the messages). */
export function richMenuBackoffSeconds(attempts: number): number {
  return Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);
}

export type RichMenuLinkDeps = {
  db: Database;
  richMenus: LineRichMenuClient;
  logger?: Pick<Logger, "info" | "warn" | "error">;
  /** Rows claimed at once (default 2,000: four bulk calls of 500). */
  batchSize?: number;
};

export type RichMenuLinkReport = {
  claimed: number;
  linked: number;
  unlinked: number;
  unchanged: number;
  retried: number;
  failed: number;
  calls: number;
  /** Replaced menus deleted at LINE in this pass (nobody linked to them any more). */
  deleted: number;
};

type Claimed = { lineUserId: string; generation: number; attempts: number; linkedMenu: string | null };
type Outcome = { lineUserId: string; generation: number; attempts: number } & (
  | { ok: true; linkedMenu: string | null }
  | { ok: false; retry: boolean; error: string }
);

/** Links every due user, batch after batch, until none is left. */
export async function applyRichMenuLinks(
  deps: RichMenuLinkDeps,
  now = new Date(),
  options: { maxBatches?: number } = {},
): Promise<RichMenuLinkReport> {
  const report: RichMenuLinkReport = {
    claimed: 0,
    linked: 0,
    unlinked: 0,
    unchanged: 0,
    retried: 0,
    failed: 0,
    calls: 0,
    deleted: 0,
  };
  const claimer = randomUUID();
  for (let batches = 0; options.maxBatches === undefined || batches < options.maxBatches; batches++) {
    const rows = await claim(deps.db, claimer, now, deps.batchSize ?? 2000);
    if (rows.length === 0) break;
    report.claimed += rows.length;
    const outcomes = await linkBatch(deps, rows, report);
    await record(deps.db, claimer, outcomes, now);
    await new Promise((resolve) => setImmediate(resolve));
  }
  report.deleted = await deleteRetiredMenus(deps, now);
  return report;
}

const RETIRED_BATCH = 20;

/**
 * Deletes replaced menus at LINE once no user is linked to them (ADR 049), so a channel never reaches LINE's 1,000
 * menus. A menu still linked to someone (a relink waiting, failed or not yet run) stays until it is not. The rows are
 * claimed with `skip locked` by pushing their due time on, so two instances never delete the same menu at once; a
 * menu LINE no longer knows (404) counts as deleted; a failure waits with the pushes' back-off.
 */
export async function deleteRetiredMenus(deps: Pick<RichMenuLinkDeps, "db" | "richMenus" | "logger">, now: Date) {
  const at = now.toISOString();
  const claimedUntil = new Date(now.getTime() + STALE_CLAIM_MS).toISOString();
  const claimed = rowsOf<{ line_rich_menu_id: string; attempts: number }>(
    await deps.db.execute(sql`
      update rich_menu_retired r
         set due_at = ${claimedUntil}::timestamptz, attempts = r.attempts + 1
        from (select line_rich_menu_id from rich_menu_retired t
               where t.deleted_at is null and t.due_at < ${dueBy(now)}
                 and not exists (select 1 from rich_menu_link l where l.linked_menu = t.line_rich_menu_id)
               order by t.due_at
               limit ${RETIRED_BATCH}
               for update skip locked) c
       where r.line_rich_menu_id = c.line_rich_menu_id
      returning r.line_rich_menu_id, r.attempts`),
  );
  let deleted = 0;
  for (const row of claimed) {
    let error: string | null = null;
    let again = false;
    try {
      await deps.richMenus.remove(row.line_rich_menu_id);
    } catch (e) {
      const gone = e instanceof DeliveryError && e.status === 404;
      if (!gone) error = (e as Error).message.slice(0, 300);
      again = e instanceof DeliveryError && e.retryable && Number(row.attempts) < RICH_MENU_MAX_ATTEMPTS;
    }
    if (error === null) deleted++;
    else deps.logger?.warn({ err: error, richMenuId: row.line_rich_menu_id }, "retired LINE rich menu not deleted");
    // A refusal, or the last attempt, waits for an admin's "try again" (retryFailedRichMenus).
    const due = again
      ? new Date(now.getTime() + richMenuBackoffSeconds(Number(row.attempts)) * 1000).toISOString()
      : "infinity";
    await deps.db.execute(sql`
      update rich_menu_retired
         set deleted_at = ${error === null ? at : null}::timestamptz, error = ${error}::text,
             due_at = ${error === null ? at : due}::timestamptz
       where line_rich_menu_id = ${row.line_rich_menu_id}`);
  }
  return deleted;
}

async function claim(db: Database, claimer: string, now: Date, limit: number): Promise<Claimed[]> {
  const at = now.toISOString();
  const stale = new Date(now.getTime() - STALE_CLAIM_MS).toISOString();
  const result = await db.execute(sql`
    update rich_menu_link r
       set status = 'sending', claim_job = ${claimer}::uuid, claimed_at = ${at}::timestamptz,
           attempts = r.attempts + 1, updated_at = ${at}::timestamptz
      from (select line_user_id from rich_menu_link
             where (status = 'pending' and due_at < ${dueBy(now)})
                or (status = 'sending' and claimed_at < ${stale}::timestamptz)
             order by due_at
             limit ${limit}
             for update skip locked) c
     where r.line_user_id = c.line_user_id
    returning r.line_user_id, r.generation, r.attempts, r.linked_menu`);
  return rowsOf<{ line_user_id: string; generation: number; attempts: number; linked_menu: string | null }>(result).map(
    (r) => ({
      lineUserId: r.line_user_id,
      generation: Number(r.generation),
      attempts: Number(r.attempts),
      linkedMenu: r.linked_menu,
    }),
  );
}

async function linkBatch(deps: RichMenuLinkDeps, rows: Claimed[], report: RichMenuLinkReport): Promise<Outcome[]> {
  const wanted = await richMenusFor(
    deps.db,
    rows.map((r) => r.lineUserId),
  );
  const outcomes: Outcome[] = [];
  // Users per menu to link (a LINE id) or to unlink (null); those who have what they should are done.
  const groups = new Map<string | null, Claimed[]>();
  for (const row of rows) {
    const menu = wanted.get(row.lineUserId) ?? null;
    if (menu === row.linkedMenu) {
      report.unchanged++;
      outcomes.push({ ...row, ok: true, linkedMenu: menu });
      continue;
    }
    const group = groups.get(menu) ?? [];
    group.push(row);
    groups.set(menu, group);
  }
  for (const [menu, members] of groups) {
    for (let i = 0; i < members.length; i += LINE_RICH_MENU_BULK_MAX) {
      const chunk = members.slice(i, i + LINE_RICH_MENU_BULK_MAX);
      const ids = chunk.map((r) => r.lineUserId);
      try {
        report.calls++;
        if (menu === null) {
          if (ids.length === 1) await deps.richMenus.unlink(ids[0] as string);
          else await deps.richMenus.bulkUnlink(ids);
          report.unlinked += ids.length;
        } else {
          if (ids.length === 1) await deps.richMenus.link(ids[0] as string, menu);
          else await deps.richMenus.bulkLink(menu, ids);
          report.linked += ids.length;
        }
        for (const r of chunk) outcomes.push({ ...r, ok: true, linkedMenu: menu });
      } catch (error) {
        const retryable = error instanceof DeliveryError ? error.retryable : false;
        const message = (error as Error).message.slice(0, 300);
        deps.logger?.warn({ err: message, size: ids.length }, "LINE rich menu not linked");
        for (const r of chunk) {
          const retry = retryable && r.attempts < RICH_MENU_MAX_ATTEMPTS;
          if (retry) report.retried++;
          else report.failed++;
          outcomes.push({ ...r, ok: false, retry, error: message });
        }
      }
    }
  }
  return outcomes;
}

/** Writes the outcomes in one statement, only on rows this claim still holds. */
async function record(db: Database, claimer: string, outcomes: Outcome[], now: Date): Promise<void> {
  if (outcomes.length === 0) return;
  const at = now.toISOString();
  const values = sql.join(
    outcomes.map((o) => {
      const status = o.ok ? "done" : o.retry ? "pending" : "failed";
      const due =
        o.ok || !o.retry ? at : new Date(now.getTime() + richMenuBackoffSeconds(o.attempts) * 1000).toISOString();
      return sql`(${o.lineUserId}::text, ${o.generation}::int, ${status}::text, ${o.ok}::boolean, ${o.ok ? o.linkedMenu : null}::text, ${o.ok ? null : o.error}::text, ${due}::timestamptz)`;
    }),
    sql`, `,
  );
  // Queued again meanwhile (a newer generation): pending again at once, keeping what LINE now has. The rows are
  // locked in the users' order first, the order queueRelink writes them in: an outcome written while an admin
  // publishes a menu waits for the relink, never deadlocks with it.
  await db.execute(sql`
    with v(line_user_id, generation, status, ok, linked_menu, error, due_at) as (values ${values}),
         locked as materialized (
           select r.line_user_id from rich_menu_link r
            where r.line_user_id in (select line_user_id from v) and r.claim_job = ${claimer}::uuid
            order by r.line_user_id
              for update of r)
    update rich_menu_link r
       set status = case when r.generation <> v.generation then 'pending' else v.status end,
           attempts = case when r.generation <> v.generation or v.status = 'done' then 0 else r.attempts end,
           linked_menu = case when v.ok then v.linked_menu else r.linked_menu end,
           error = v.error,
           due_at = case when r.generation <> v.generation then ${at}::timestamptz else v.due_at end,
           claim_job = null,
           updated_at = ${at}::timestamptz
      from v join locked k using (line_user_id)
     where r.line_user_id = v.line_user_id and r.claim_job = ${claimer}::uuid`);
}

/**
 * An admin's "try again" (ADR 049): every failed link and every retired menu whose deletion gave up go back in the
 * queue at once, audited in the same transaction with the counts. Returns the counts.
 */
export async function retryFailedRichMenus(
  db: Database,
  actor: StaffActor,
  audit: AuditContext,
  now = new Date(),
): Promise<{ links: number; menus: number }> {
  requirePermission(actor, "line.richmenu");
  const at = now.toISOString();
  const counts = await auditedTx(db, audit, now, async (tx, record) => {
    const links = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with retried as (
          update rich_menu_link r set status = 'pending', attempts = 0, error = null,
                 due_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
            from (select line_user_id from rich_menu_link where status = 'failed'
                   order by line_user_id for update) f
           where r.line_user_id = f.line_user_id
          returning 1)
        select count(*)::int as n from retried`),
    );
    const menus = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with retried as (
          update rich_menu_retired set attempts = 0, due_at = ${at}::timestamptz
           where deleted_at is null and error is not null
          returning 1)
        select count(*)::int as n from retried`),
    );
    const result = { links: Number(links[0]?.n ?? 0), menus: Number(menus[0]?.n ?? 0) };
    await record("rich_menu.retried", ["rich_menu", "links"], { after: result });
    return result;
  });
  await db.execute(sql`select pg_notify('han_cache', 'richmenu')`);
  return counts;
}

/** What the console shows: how many users wait, failed, and are done. */
export async function richMenuLinkCounts(db: Database) {
  const result = await db.execute(sql`
    select count(*) filter (where status in ('pending', 'sending'))::int as waiting,
           count(*) filter (where status = 'failed')::int as failed,
           count(*) filter (where status = 'done')::int as done,
           (select count(*)::int from rich_menu_retired where deleted_at is null and error is not null) as menus_failed
      from rich_menu_link`);
  const [row] = rowsOf<{ waiting: number; failed: number; done: number; menus_failed: number }>(result);
  return {
    waiting: Number(row?.waiting ?? 0),
    failed: Number(row?.failed ?? 0),
    done: Number(row?.done ?? 0),
    /** Replaced menus LINE refused to delete (they wait for "try again"). */
    menusFailed: Number(row?.menus_failed ?? 0),
  };
}

export type RichMenuDispatcher = WokenWorker;

/**
 * The per-instance worker: woken by the outbox's notification (`richmenu` on the cache bus) and every 15 s
 * (retries, a lost notification); several instances share the rows through `skip locked`.
 */
export function startRichMenuDispatcher(deps: RichMenuLinkDeps, options: WokenWorkerOptions): RichMenuDispatcher {
  return startWokenWorker(
    {
      pass: () => applyRichMenuLinks(deps, new Date()),
      wakeOn: "richmenu",
      intervalMs: RICH_MENU_DISPATCH_INTERVAL_MS,
      failure: "rich menu link pass failed",
    },
    options,
  );
}
