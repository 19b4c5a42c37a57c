import { TIME_ZONE } from "@platform/constants";
import { logBackgroundFailure } from "@platform/db/availability";
import type { DatabaseConnection } from "@platform/db/client";
import type { Logger } from "@platform/logger";
import { countJob } from "@platform/metrics";
import { fromPglite, type JobWithMetadata, PgBoss, type Schedule } from "pg-boss";

/**
 * The PostgreSQL-backed job queue (pg-boss, see docs/decisions/005-job-queue.md).
 *
 * Jobs live in the database, so any app instance may enqueue and any instance may run them; a job
 * is claimed with FOR UPDATE SKIP LOCKED, so exactly one instance runs each attempt. A handler that
 * throws is retried with exponential backoff; one that throws a *permanent* failure (an error whose
 * `permanent` property is true, e.g. a provider refusing a number) fails at once without retries.
 */

/** Retry and retention policy of one queue. Every field has a sensible default. */
export type QueuePolicy = {
  /** Attempts after the first one. Default 5. */
  retryLimit?: number;
  /** Seconds before the first retry (integer ≥ 1); later ones double, with jitter. Default 5. */
  retryDelay?: number;
  /** The longest wait between two attempts, in seconds. Default 300. */
  retryDelayMax?: number;
  /** Seconds one attempt may run before it counts as failed (and is retried). Default 120. */
  expireInSeconds?: number;
  /** Seconds a finished job stays in the table for inspection. Default one day. */
  deleteAfterSeconds?: number;
};

const DEFAULT_POLICY: Required<QueuePolicy> = {
  retryLimit: 5,
  retryDelay: 5,
  retryDelayMax: 300,
  expireInSeconds: 120,
  deleteAfterSeconds: 24 * 60 * 60,
};

export type JobContext<T> = {
  id: string;
  name: string;
  data: T;
  /** 0 on the first attempt. */
  retryCount: number;
  /** Retries this job may have after its first attempt (its queue's policy). */
  retryLimit: number;
  /** Aborted when the attempt expires or the queue stops without waiting. */
  signal: AbortSignal;
};

/** A handler may return a small JSON object: it is stored as the job's output. */
export type JobHandler<T> = (job: JobContext<T>) => Promise<Record<string, unknown> | undefined>;

export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

export type JobRecord = {
  id: string;
  name: string;
  state: JobState;
  retryCount: number;
  data: unknown;
  output: unknown;
};

export type ScheduleOptions = {
  /** Time zone the cron expression is read in. Default Asia/Taipei. */
  tz?: string;
  /** Lets one queue carry several schedules. */
  key?: string;
};

export type WorkOptions = {
  /** Attempts this instance runs at the same time for this queue. Default 1. */
  concurrency?: number;
};

export interface JobQueue {
  /** Creates the queue if it does not exist yet and applies the policy (idempotent, safe on every start). */
  define(name: string, policy?: QueuePolicy): Promise<void>;
  /** Enqueues a job and returns its id. The queue must have been defined. */
  send<T extends object>(
    name: string,
    data: T,
    options?: { startAfter?: Date; singletonKey?: string },
  ): Promise<string>;
  /** Runs jobs of the queue on this instance until stop(). */
  work<T>(name: string, handler: JobHandler<T>, options?: WorkOptions): Promise<void>;
  /** Creates or replaces a recurring schedule: the cron expression enqueues `data` on the named queue. */
  schedule(name: string, cron: string, data?: object, options?: ScheduleOptions): Promise<void>;
  unschedule(name: string, key?: string): Promise<void>;
  schedules(name?: string): Promise<Schedule[]>;
  /** One job's state and output, or null when it is unknown (or already deleted). */
  job(name: string, id: string): Promise<JobRecord | null>;
  /** Stops fetching, waits for running attempts (up to timeoutMs), then releases connections. */
  stop(timeoutMs?: number): Promise<void>;
}

export type JobQueueOptions = {
  connection: DatabaseConnection;
  logger: Logger;
  /** Connections of the queue's own pool (PostgreSQL only). Default 4. */
  poolMax?: number;
  /** Seconds between polls when LISTEN/NOTIFY is unavailable. Default 2. */
  pollingIntervalSeconds?: number;
  /**
   * Seconds between backstop polls while LISTEN/NOTIFY wakes the workers. Retries are not
   * announced, so this also bounds how late a retry can start after its delay. Default 5.
   */
  notifyPollingIntervalSeconds?: number;
  /** Whether this instance turns due schedules into jobs. Default true. */
  runSchedules?: boolean;
};

/** True for an error that says trying again cannot help (duck-typed: `error.permanent === true`). */
export function isPermanentFailure(error: unknown): boolean {
  return error instanceof Error && (error as { permanent?: unknown }).permanent === true;
}

/** Whether an attempt that failed with `error` is tried again: not a permanent failure, and retries left. */
export function willRetry(job: Pick<JobContext<unknown>, "retryCount" | "retryLimit">, error: unknown): boolean {
  return !isPermanentFailure(error) && job.retryCount < job.retryLimit;
}

function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const { code, status } = error as { code?: unknown; status?: unknown };
  return { name: error.name, message: error.message, code, status, permanent: isPermanentFailure(error) };
}

export async function startJobQueue(options: JobQueueOptions): Promise<JobQueue> {
  const { connection, logger } = options;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? 2;
  const notifyPollingIntervalSeconds = options.notifyPollingIntervalSeconds ?? 5;

  // pg-boss creates and migrates its own schema (`pgboss`) on start, under an advisory lock, on
  // both drivers: on PGlite through its adapter on our single connection, on PostgreSQL with a
  // small pool of its own (the `pg` driver) so a long job never starves the request pool.
  const boss =
    connection.driver === "pglite"
      ? new PgBoss({
          db: fromPglite(connection.client),
          backend: "pglite",
          useListenNotify: true,
          schedule: options.runSchedules ?? true,
        })
      : new PgBoss({
          connectionString: connection.url,
          max: options.poolMax ?? 4,
          application_name: "han-living-jobs",
          useListenNotify: true,
          schedule: options.runSchedules ?? true,
        });
  // Every worker polls every few seconds: while the database is away that is a line per poll, at debug level.
  boss.on("error", (error) => logBackgroundFailure(logger, "error", { error }, { err: error }, "job queue error"));
  boss.on("warning", (warning) => logger.warn({ warning }, "job queue warning"));
  await boss.start();

  const log = logger.child({ component: "jobs" });

  return {
    async define(name, policy = {}) {
      const p = { ...DEFAULT_POLICY, ...policy };
      const settings = {
        retryLimit: p.retryLimit,
        retryDelay: p.retryDelay,
        retryBackoff: true,
        retryDelayMax: p.retryDelayMax,
        expireInSeconds: p.expireInSeconds,
        deleteAfterSeconds: p.deleteAfterSeconds,
        notify: true,
      };
      // create_queue does nothing when the queue exists; the update applies a changed policy.
      await boss.createQueue(name, settings);
      await boss.updateQueue(name, settings);
    },

    async send(name, data, sendOptions = {}) {
      const id = await boss.send(name, data, {
        ...(sendOptions.startAfter ? { startAfter: sendOptions.startAfter } : {}),
        ...(sendOptions.singletonKey ? { singletonKey: sendOptions.singletonKey } : {}),
      });
      if (!id) throw new Error(`The job queue refused a job for ${name}`);
      return id;
    },

    async work<T>(name: string, handler: JobHandler<T>, workOptions: WorkOptions = {}) {
      await boss.work<T>(
        name,
        {
          batchSize: 1,
          localConcurrency: workOptions.concurrency ?? 1,
          pollingIntervalSeconds,
          notifyPollingIntervalSeconds,
          includeMetadata: true,
          perJobResults: true,
        },
        async (jobs) => {
          const results = [];
          // includeMetadata: the jobs carry their retry settings too.
          for (const job of jobs as JobWithMetadata<T>[]) {
            const context = { id: job.id, name, retryCount: job.retryCount };
            try {
              const output = await handler({
                id: job.id,
                name,
                data: job.data,
                retryCount: job.retryCount,
                retryLimit: job.retryLimit,
                signal: job.signal,
              });
              countJob(name, "completed");
              results.push({ id: job.id, status: "completed" as const, output });
            } catch (error) {
              const detail = describeError(error);
              countJob(name, willRetry(job, error) ? "retry" : "failed");
              if (isPermanentFailure(error)) {
                log.error({ job: context, error: detail }, "job failed permanently");
                // "deadletter" ends the job at once, skipping any retries left.
                results.push({ id: job.id, status: "deadletter" as const, output: detail });
              } else {
                const fields = { job: context, error: detail };
                if (willRetry(job, error))
                  logBackgroundFailure(log, "warn", { error }, fields, "job failed, will retry");
                else log.error(fields, "job failed, no retries left");
                results.push({ id: job.id, status: "failed" as const, output: detail });
              }
            }
          }
          return results;
        },
      );
    },

    async schedule(name, cron, data = {}, scheduleOptions = {}) {
      await boss.schedule(name, cron, data, {
        tz: scheduleOptions.tz ?? TIME_ZONE,
        ...(scheduleOptions.key ? { key: scheduleOptions.key } : {}),
      });
    },

    async unschedule(name, key) {
      await boss.unschedule(name, key);
    },

    async schedules(name) {
      return boss.getSchedules(name);
    },

    async job(name, id) {
      const [found] = await boss.findJobs(name, { id });
      if (!found) return null;
      return {
        id: found.id,
        name: found.name,
        state: found.state,
        retryCount: found.retryCount,
        data: found.data,
        output: (found as { output?: unknown }).output ?? null,
      };
    },

    async stop(timeoutMs = 10_000) {
      // graceful: running attempts finish first; close: pg-boss ends its own pool (never PGlite,
      // which the database handle owns and closes after this).
      await boss.stop({ graceful: true, close: true, timeout: timeoutMs });
    },
  };
}
