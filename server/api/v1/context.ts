import type { Database } from "@platform/db/client";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { AuditContext } from "../../../app/domain/audit/audit.server";
import type { ApiKey } from "../../../app/domain/pos/api-keys.server";
import { apiKeyOf } from "./middleware/authenticate";
import { writeTransactionOf } from "./middleware/idempotency";

/** What every handler works with: the database, the card-token secret, the purchase window and the clock. */
export type ApiContext = {
  db: Database;
  cardSecret: string;
  /** Purchases older than this many days are refused (PURCHASE_WINDOW_DAYS). */
  purchaseWindowDays: number;
  clock: () => Date;
};

/**
 * A named endpoint handler: parse the request, call one domain function, shape the answer. It runs
 * after authentication, so the store's key is at hand; errors go to the router's error handler. A write
 * (POST) gets the request's transaction as `db` (idempotentWrites: the Idempotency-Key claim, the work and
 * the stored answer commit together); a domain function that opens its own transaction on it gets a
 * savepoint.
 */
export function apiHandler(
  run: (ctx: ApiContext, req: Request, res: Response, key: ApiKey) => Promise<void>,
): (ctx: ApiContext) => RequestHandler {
  return (ctx) =>
    function handle(req: Request, res: Response, next: NextFunction) {
      const tx = writeTransactionOf(res);
      run(tx ? { ...ctx, db: tx } : ctx, req, res, apiKeyOf(res)).catch(next);
    };
}

/** Who and from where, for the audit row each write appends in its own transaction (ADR 020). */
export function posAudit(req: Request, res: Response, key: ApiKey): AuditContext {
  const requestId = typeof res.locals.requestId === "string" ? res.locals.requestId : null;
  return {
    actorType: "api_key",
    apiKeyId: key.id,
    storeId: key.storeId,
    ip: req.ip ?? null,
    userAgent: req.get("user-agent") ?? null,
    requestId,
  };
}
