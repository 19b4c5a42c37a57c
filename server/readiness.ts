import type { DatabaseHandle } from "@platform/db/client";
import { dbUp } from "@platform/metrics";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { databaseIsUnavailable, RETRY_AFTER_SECONDS, unavailablePage } from "../app/lib/unavailable.server";
import { countAsPage } from "./metrics";

/**
 * Readiness and the answers while the database is away (ADR 021, docs/operations.md). /readyz
 * answers within seconds (the ping is bounded); member pages get the calm 503 page and the POS API a
 * retryable 503 at once, without waiting for a connection timeout; both recover by themselves when
 * the database answers again (platform/db/availability.ts probes it every second).
 */

const MIGRATION_CHECK_TIMEOUT_MS = 2_000;

function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.catch(() => fallback),
    new Promise<T>((resolve) => {
      timer = setTimeout(() => resolve(fallback), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export function readiness(options: { database: DatabaseHandle; draining: () => boolean }): RequestHandler {
  const { database } = options;
  return async (_req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    if (options.draining()) {
      res.status(503).json({ status: "draining" });
      return;
    }
    const notChecked = { applied: 0, expected: 0, upToDate: false };
    const [reachable, migrations] = await Promise.all([
      database.ping(),
      within(database.migrationStatus(), MIGRATION_CHECK_TIMEOUT_MS, notChecked),
    ]);
    dbUp.set(reachable ? 1 : 0);
    const ready = reachable && migrations.upToDate;
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "not-ready",
      database: reachable ? "reachable" : "unreachable",
      migrations,
    });
  };
}

/** The POS API while the database is known to be away: 503, retryable with the same Idempotency-Key. */
export const apiWhileDatabaseUnavailable: RequestHandler = (_req: Request, res: Response, next: NextFunction) => {
  if (!databaseIsUnavailable()) return next();
  sendApiUnavailable(res);
};

export function sendApiUnavailable(res: Response): void {
  res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.setHeader("Cache-Control", "no-store");
  res.status(503).json({
    error: {
      code: "service_unavailable",
      message: "The service is temporarily unavailable; retry with the same Idempotency-Key",
    },
  });
}

/** Page requests while the database is known to be away: the calm page, not a render that fails. */
export const pagesWhileDatabaseUnavailable: RequestHandler = async (
  req: Request,
  res: Response,
  next: NextFunction,
) => {
  // Client-side navigations (.data) go on to React Router: its root middleware answers them with a
  // 503 route error, shown as the same calm view by the error boundary (app/lib/unavailable.server.ts).
  if (!databaseIsUnavailable() || !["GET", "HEAD"].includes(req.method) || req.path.endsWith(".data")) return next();
  countAsPage(res);
  const page = unavailablePage(
    new Request(new URL(req.originalUrl, "http://localhost"), { headers: { cookie: req.get("cookie") ?? "" } }),
  );
  res.status(page.status);
  page.headers.forEach((value, name) => {
    res.setHeader(name, value);
  });
  res.send(req.method === "HEAD" ? undefined : await page.text());
};
