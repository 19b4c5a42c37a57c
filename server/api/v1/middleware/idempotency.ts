import { createHash } from "node:crypto";
import type { Database } from "@platform/db/client";
import { apiIdempotency } from "@platform/db/schema";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq } from "drizzle-orm";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { fail, send } from "../errors";
import { apiKeyOf } from "./authenticate";

type Answer = { status: number; body: unknown };

/** Thrown inside the write transaction to roll it back when the handler refused (4xx) or failed (5xx). */
class RolledBack extends Error {
  constructor(readonly answer: Answer) {
    super("rolled back");
  }
}

type WriteLocals = { writeTx?: Database; storeAnswer?: (status: number, body: unknown) => Promise<void> };

/** The transaction a write handler runs in (set by idempotentWrites for POST requests), else null. */
export function writeTransactionOf(res: Response): Database | null {
  return (res.locals as WriteLocals).writeTx ?? null;
}

/**
 * Stores the answer a write is about to give, in its transaction, before the handler's last statements: the
 * purchase sends it (pipelined) before its audit row, so the audit chain's head (locked from the audit row's
 * statement to the commit, for every writer) is not held for it (ADR 030). The update goes out before this
 * function's first await. The answer sent must then be exactly this one.
 */
export async function storeAnswerEarly(res: Response, status: number, body: unknown): Promise<void> {
  await (res.locals as WriteLocals).storeAnswer?.(status, body);
}

/**
 * Every write needs an Idempotency-Key; the first answer to (key, Idempotency-Key) is kept and replayed to
 * a retry with the same body, a different body is 409.
 *
 * One transaction per write (ADR 030): the claim (one insert), the handler's own work (it gets the
 * transaction through writeTransactionOf) and the stored answer commit together, once. A concurrent
 * duplicate's claim waits on the first one's uncommitted row and then finds it answered (replayed), or gone
 * (the first rolled back) and runs. A refusal (4xx) rolls the work back and is then stored by itself, so the
 * same request gets the same refusal; a failure (5xx) stores nothing, so a retry runs.
 */
export function idempotentWrites(db: Database): RequestHandler {
  return async function idempotent(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "POST") return next();
    const key = req.get("idempotency-key");
    if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
      fail(res, "idempotency_key_required", "Send an Idempotency-Key header (1–200 visible ASCII characters)");
      return;
    }
    const apiKeyId = apiKeyOf(res).id;
    const requestHash = createHash("sha256")
      .update(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(req.body ?? null)}`)
      .digest("hex");
    const json = res.json.bind(res);
    const locals = res.locals as WriteLocals;
    let answer: Answer | null;
    try {
      answer = await db.transaction(async (tx) => {
        const [claimed] = await tx
          .insert(apiIdempotency)
          .values({ apiKeyId, key, requestHash })
          .onConflictDoNothing()
          .returning({ key: apiIdempotency.key });
        if (!claimed) return null;
        const where = and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key));
        let early: string | null = null;
        locals.storeAnswer = async (status, body) => {
          await tx.update(apiIdempotency).set({ status, response: body }).where(where);
          early = JSON.stringify([status, body]);
        };
        // The rest of the chain (the endpoint, or the error handler) answers into this promise.
        const given = await new Promise<Answer>((resolve, reject) => {
          locals.writeTx = tx;
          res.json = (body: unknown) => {
            resolve({ status: res.statusCode, body });
            return res;
          };
          try {
            next();
          } catch (error) {
            reject(error);
          }
        });
        locals.writeTx = undefined;
        locals.storeAnswer = undefined;
        res.json = json;
        if (given.status >= 400) throw new RolledBack(given);
        if (early !== JSON.stringify([given.status, given.body])) {
          await tx.update(apiIdempotency).set({ status: given.status, response: given.body }).where(where);
        }
        return given;
      });
    } catch (error) {
      locals.writeTx = undefined;
      locals.storeAnswer = undefined;
      res.json = json;
      if (!(error instanceof RolledBack)) return next(error);
      answer = error.answer;
      if (answer.status >= 500) {
        json(answer.body);
        return;
      }
      // Keep the refusal (the same request gets the same refusal) — unless a twin answered meanwhile.
      const [stored] = await db
        .insert(apiIdempotency)
        .values({ apiKeyId, key, requestHash, status: answer.status, response: answer.body })
        .onConflictDoNothing()
        .returning({ key: apiIdempotency.key });
      if (stored) {
        json(answer.body);
        return;
      }
      answer = null;
    }
    if (answer) {
      json(answer.body);
      return;
    }
    // Claimed before: replay the stored answer, or refuse.
    const [first] = await db
      .select()
      .from(apiIdempotency)
      .where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)));
    if (!first || first.requestHash !== requestHash) {
      fail(res, "idempotency_key_reused", "This Idempotency-Key was used with a different request");
    } else if (first.status === null) {
      // Only a row claimed by an older version of the app, still running, has no answer.
      fail(res, "request_in_progress", "A request with this Idempotency-Key is still in progress");
    } else {
      countLedgerReplay("pos-idempotency-key");
      res.setHeader("Idempotent-Replayed", "true");
      send(res, first.status, first.response);
    }
  };
}
