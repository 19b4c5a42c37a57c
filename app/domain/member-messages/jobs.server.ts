import type { Database } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import {
  type Gathering,
  startWokenWorker,
  type WokenWorker,
  type WokenWorkerOptions,
} from "@platform/jobs/woken-worker";
import { type DeliveryDeps, deliverDue } from "./delivery.server";
import { recordExpiringCoupons, recordExpiringPoints } from "./occasions.server";

/**
 * The messages' jobs (issue 16, ADR 034):
 * - `messages.reminders`, every day at 10:00 Taipei (pg-boss: one job per slot across all instances): points
 *   expiring in 30 and 7 days, coupons expiring in 7 — recorded once per member and occasion, so a second run
 *   (or a second instance, or a retry) adds nothing.
 * - `messages.campaign-start`: a campaign's audience is taken and queued at its time (campaigns.server.ts).
 * - The delivery: a per-instance dispatcher that wakes when messages are queued (the `msg` notification of the
 *   member_message trigger, on the cache bus, gathered over 200 ms) and every 15 s (retries, held marketing at 09:00, a lost
 *   notification), and claims due rows with `skip locked` — several instances share the work, none sends a row
 *   another is sending.
 */
export const REMINDERS_QUEUE = "messages.reminders";
export const REMINDERS_CRON = "0 10 * * *";

export async function registerReminderJobs(jobs: JobQueue, db: Database): Promise<void> {
  await jobs.define(REMINDERS_QUEUE, { retryLimit: 3, retryDelay: 60 });
  await jobs.work(REMINDERS_QUEUE, async () => {
    const now = new Date();
    const points = await recordExpiringPoints(db, now);
    const coupons = await recordExpiringCoupons(db, now);
    return { ...points, coupons };
  });
  await jobs.schedule(REMINDERS_QUEUE, REMINDERS_CRON);
}

/** The delivery's per-instance worker (platform/jobs/woken-worker.ts). */
export type Dispatcher = WokenWorker;

export const DISPATCH_INTERVAL_MS = 15_000;

/**
 * A notification starts the pass 200 ms later, or at once after 500 (ADR 034, "Later (2026-12-07, gathering)"): every
 * purchase notifies `msg` (its receipt), and a pass per notification ran back to back at a few hundred a second.
 */
export const DISPATCH_GATHER: Gathering = { ms: 200, events: 500 };

export function startDispatcher(deps: DeliveryDeps, options: WokenWorkerOptions & { gather?: Gathering }): Dispatcher {
  return startWokenWorker(
    {
      pass: () => deliverDue(deps, new Date()),
      wakeOn: "msg",
      intervalMs: DISPATCH_INTERVAL_MS,
      failure: "message delivery pass failed",
      gather: options.gather ?? DISPATCH_GATHER,
    },
    options,
  );
}
