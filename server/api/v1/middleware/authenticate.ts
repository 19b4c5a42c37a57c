import type { Database } from "@platform/db/client";
import type { HeldConnection } from "@platform/db/held-connection";
import { apiRateCounter } from "@platform/db/schema";
import { countLimitRefusal, countPosRequest } from "@platform/metrics";
import { sql } from "drizzle-orm";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type ApiKey, authenticateApiKey } from "../../../../app/domain/pos/api-keys.server";
import { fail } from "../errors";

export { API_REQUESTS_PER_MINUTE } from "../../../../app/domain/pos/api-keys.server";

/** A write's count, not sent yet: idempotentWrites sends it just before its BEGIN (ADR 039). */
export type PendingCount = {
  /** Sends the count (on `held` when given: the same write as BEGIN); resolves to null or the seconds to wait. */
  take(held?: HeldConnection | null): Promise<number | null>;
};

type Locals = { apiKey: ApiKey; pendingCount?: PendingCount };

/** The write's count, for idempotentWrites to send (null when it was sent already). */
export function pendingCountOf(res: Response): PendingCount | null {
  return (res.locals as Locals).pendingCount ?? null;
}

/** Answers 429 with the seconds to wait. */
export function refuseRateLimited(res: Response, retryAfter: number): void {
  countLimitRefusal(["api"]);
  res.setHeader("Retry-After", String(retryAfter));
  fail(res, "rate_limited", "Too many requests for this API key");
}

const windowOf = (now: Date) => new Date(Math.floor(now.getTime() / 60_000) * 60_000);
const secondsLeft = (start: Date, now: Date) =>
  Math.max(1, Math.ceil((start.getTime() + 60_000 - now.getTime()) / 1000));

/** countApiRequest's upsert as text, for a held connection (the same statement, ADR 030). */
const COUNT_REQUEST = `insert into api_rate_counter (api_key_id, window_start, count) values ($1, $2, 1)
  on conflict (api_key_id, window_start) do update set count = api_rate_counter.count + 1 returning count`;

/** The key the request was authenticated with (set by authenticateKey). */
export function apiKeyOf(res: Response): ApiKey {
  return (res.locals as Locals).apiKey;
}

/**
 * Counts one request against the key's fixed one-minute window in one upsert that returns the new count
 * (atomic, so the limit holds across instances); answers the seconds to wait when over the limit. The
 * table is UNLOGGED (ADR 030): the statement's own commit writes no WAL and waits for no disk flush.
 * It runs before, and outside, the request's transaction, so a refused request, a rolled-back purchase or a
 * failed one still counts: a POS over its limit only pushes its own counter further.
 */
async function countApiRequest(db: Database, apiKeyId: string, limit: number, now: Date): Promise<number | null> {
  const start = windowOf(now);
  const [row] = await db
    .insert(apiRateCounter)
    .values({ apiKeyId, windowStart: start, count: 1 })
    .onConflictDoUpdate({
      target: [apiRateCounter.apiKeyId, apiRateCounter.windowStart],
      set: { count: sql`${apiRateCounter.count} + 1` },
    })
    .returning({ count: apiRateCounter.count });
  if ((row?.count ?? 0) <= limit) return null;
  return secondsLeft(start, now);
}

/**
 * The Bearer key, then the key's rate limit — before the body is read, so a caller without a key
 * gets 401 whatever it sent (never 400, 413 or 415). A write's count is sent here and answered by
 * idempotentWrites (ADR 039): a write over the limit whose body cannot be read gets that refusal instead of 429.
 */
export function authenticateKey(options: {
  db: Database;
  requestsPerMinute: number;
  clock: () => Date;
}): RequestHandler {
  const { db, requestsPerMinute, clock } = options;
  return async function authenticate(req: Request, res: Response, next: NextFunction) {
    const match = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "");
    const key = match ? await authenticateApiKey(db, match[1]!) : null;
    if (!key) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="api"');
      fail(res, "unauthorized", "A valid API key is required (Authorization: Bearer …)");
      return;
    }
    countPosRequest(key.id);
    (res.locals as Locals).apiKey = key;
    // A write: its count goes out with its transaction's BEGIN, in one write (idempotentWrites, ADR 039). A
    // write that never gets there (a body that cannot be read) is counted when its answer is sent: every
    // request counts, as before (it answers 400/413/415 rather than 429 when it is also over the limit).
    if (req.method === "POST") {
      let taken = false;
      const pending: PendingCount = {
        take(held) {
          taken = true;
          (res.locals as Locals).pendingCount = undefined;
          const now = clock();
          if (!held) return countApiRequest(db, key.id, requestsPerMinute, now);
          const start = windowOf(now);
          return held
            .send<{ count: number | string }>(COUNT_REQUEST, [key.id, start.toISOString()])
            .then(([row]) => (Number(row?.count ?? 0) <= requestsPerMinute ? null : secondsLeft(start, now)));
        },
      };
      (res.locals as Locals).pendingCount = pending;
      res.once("finish", () => {
        if (!taken) pending.take().catch(() => {});
      });
      next();
      return;
    }
    const retryAfter = await countApiRequest(db, key.id, requestsPerMinute, clock());
    if (retryAfter !== null) {
      refuseRateLimited(res, retryAfter);
      return;
    }
    next();
  };
}
