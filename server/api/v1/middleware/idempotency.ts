import { createHash } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { type HeldConnection, holdConnection } from "@platform/db/held-connection";
import { apiIdempotency, purchase } from "@platform/db/schema";
import { type Slots, textStatement } from "@platform/db/statement";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq, sql } from "drizzle-orm";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { fail, send } from "../errors";
import { apiKeyOf, pendingCountOf, refuseRateLimited } from "./authenticate";

type Answer = { status: number; body: unknown };

/** Thrown inside the write transaction to roll it back when the handler refused (4xx) or failed (5xx). */
class RolledBack extends Error {
  constructor(readonly answer: Answer) {
    super("rolled back");
  }
}

/** Thrown inside the write transaction when the key's counter (sent before BEGIN) says the key is over its limit. */
class OverLimit extends Error {
  constructor(readonly retryAfter: number) {
    super("over the limit");
  }
}

/** Thrown inside a purchase's transaction when the Idempotency-Key already answered another request. */
class AnsweredBefore extends Error {
  constructor() {
    super("answered before");
  }
}

type WriteLocals = {
  writeTx?: Database;
  /** Work that must be kept although the write is refused (a wrong spend code's counted try, ADR 052). */
  afterRollback?: ((db: Database) => Promise<void>)[];
  storeAnswer?: (status: number, body: unknown) => Promise<void>;
  writeRequest?: WriteRequest;
  commitEarly?: () => Promise<void>;
};

/**
 * Runs `work` on the database after the write was refused and rolled back (before its refusal is kept): what a
 * refusal must leave behind, such as a wrong spend code's counted try and its audit row (ADR 052).
 */
export function keepAfterRollback(res: Response, work: (db: Database) => Promise<void>): void {
  const locals = res.locals as WriteLocals;
  locals.afterRollback = [...(locals.afterRollback ?? []), work];
}

/** The write's Idempotency-Key and its request's hash (what a handler that keeps them in its own row needs). */
export type WriteRequest = { key: string; requestHash: string };

/**
 * POST paths whose handler keeps the Idempotency-Key, the request's hash and its answer in the row it writes
 * (ADR 039): the purchase. The middleware writes no api_idempotency row for them unless they are refused.
 */
const KEY_IN_ROW = new Set(["/purchases"]);

/** The transaction a write handler runs in (set by idempotentWrites for POST requests), else null. */
export function writeTransactionOf(res: Response): Database | null {
  return (res.locals as WriteLocals).writeTx ?? null;
}

/** The write's Idempotency-Key and request hash (set by idempotentWrites for POST requests), else null. */
export function writeRequestOf(res: Response): WriteRequest | null {
  return (res.locals as WriteLocals).writeRequest ?? null;
}

/**
 * Stores the answer a write is about to give, in its transaction, before the handler's last statements: the
 * purchase sends it (pipelined) before its audit row, so the audit chain's head (locked from the audit row's
 * statement to the commit) is not held for it (ADR 030). The update goes out before this function's first
 * await. The answer sent must then be exactly this one. (A purchase stores its answer in its own row.)
 */
export async function storeAnswerEarly(res: Response, status: number, body: unknown): Promise<void> {
  await (res.locals as WriteLocals).storeAnswer?.(status, body);
}

/**
 * Sends COMMIT behind the handler's last batch (ADR 039), when nothing can refuse the write any more: call it
 * last, with nothing after it but the batch's await and the answer. It commits nothing half-done: a statement of
 * the batch that fails makes PostgreSQL answer the COMMIT with a rollback. On PGlite, or when the key's counter
 * or an earlier answer to the key is not known yet, it does nothing and the middleware commits as before.
 */
export async function commitWithLastBatch(res: Response): Promise<void> {
  await (res.locals as WriteLocals).commitEarly?.();
}

/** Runs `work` on the write's held connection when there is one (BEGIN pipelined), else in a pooled transaction. */
function writeTransaction<T>(
  db: Database,
  held: HeldConnection | null,
  work: (tx: Database) => Promise<T>,
): Promise<T> {
  return held ? held.transaction(() => db.transaction(work)) : db.transaction(work);
}

/** The write's count and its held connection (PostgreSQL): the count is read with the first statements. */
type WriteLead = { held: HeldConnection; retryAfter: Promise<number | null> };

/**
 * Every write needs an Idempotency-Key; the first answer to (key, Idempotency-Key) is kept and replayed to
 * a retry with the same body, a different body is 409.
 *
 * One transaction per write (ADR 030): the claim (one insert), the handler's own work (it gets the
 * transaction through writeTransactionOf) and the stored answer commit together, once. A concurrent
 * duplicate's claim waits on the first one's uncommitted row and then finds it answered (replayed), or gone
 * (the first rolled back) and runs. A refusal (4xx) rolls the work back and is then stored by itself, so the
 * same request gets the same refusal; a failure (5xx) stores nothing, so a retry runs.
 *
 * A purchase (ADR 039) claims nothing here: its row holds the key (unique per API key), the request's hash and
 * the answer, so a twin waits on the first one's uncommitted purchase instead and then replays its answer; the
 * transaction only reads whether the key answered something else before (a refusal, a refund), and its work is
 * rolled back when it did. On PostgreSQL the key's counter, BEGIN and the first statements go out in one write
 * (authenticateKey holds the connection) and a purchase sends COMMIT with its last batch.
 */
export function idempotentWrites(db: Database): RequestHandler {
  return async function idempotent(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "POST") return next();
    const pending = pendingCountOf(res);
    const key = req.get("idempotency-key");
    if (!key || key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
      const retryAfter = pending ? await pending.take() : null;
      if (retryAfter !== null) return refuseRateLimited(res, retryAfter);
      fail(res, "idempotency_key_required", "Send an Idempotency-Key header (1–200 visible ASCII characters)");
      return;
    }
    // On PostgreSQL one pooled connection is held for the transaction, taken only now that the body is read:
    // the key's count (its own commit, before BEGIN), BEGIN and the first statements go out in one write, and a
    // purchase's COMMIT with its last batch (ADR 039). On PGlite the count is awaited first, as before.
    const held = pending ? await holdConnection(db) : null;
    const lead: WriteLead | null = held && pending ? { held, retryAfter: pending.take(held) } : null;
    lead?.retryAfter.catch(noop);
    if (pending && !lead) {
      const retryAfter = await pending.take();
      if (retryAfter !== null) return refuseRateLimited(res, retryAfter);
    }
    const apiKeyId = apiKeyOf(res).id;
    const requestHash = createHash("sha256")
      .update(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(req.body ?? null)}`)
      .digest("hex");
    const inRow = KEY_IN_ROW.has(req.path);
    const json = res.json.bind(res);
    const locals = res.locals as WriteLocals;
    const where = () => and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key));
    const reset = () => {
      locals.writeTx = undefined;
      locals.storeAnswer = undefined;
      locals.commitEarly = undefined;
      res.json = json;
    };
    let answer: Answer | null;
    try {
      answer = await writeTransaction(db, held, async (tx) => {
        // Known once the first round trip is back: the key's count (null: within the limit) and whether
        // this Idempotency-Key answered before (in api_idempotency).
        let limitKnown = !lead;
        lead?.retryAfter.then((after) => {
          limitKnown = after === null;
        }, noop);
        const seen: { earlier: "none" | "some" | "unknown" } = { earlier: "unknown" };
        let checked: Promise<unknown>;
        if (inRow) {
          // Sent, not awaited: the handler's first statements go out in the same write.
          // (Written as text: on a purchase the query builder cost the app more than the statement.)
          checked = ANSWERED_BEFORE(tx, { apiKeyId, key }).then((result) => {
            seen.earlier = rowsOf(result).length > 0 ? "some" : "none";
          });
          checked.catch(noop);
          locals.writeRequest = { key, requestHash };
          locals.commitEarly = async () => {
            if (lead && limitKnown && seen.earlier === "none") await lead.held.commitNow();
          };
        } else {
          // The claim, and whether a purchase holds this key already (a purchase keeps it in its row).
          const [[claimed], [purchased]] = await Promise.all([
            tx
              .insert(apiIdempotency)
              .values({ apiKeyId, key, requestHash })
              .onConflictDoNothing()
              .returning({ key: apiIdempotency.key }),
            tx
              .select({ id: purchase.id })
              .from(purchase)
              .where(and(eq(purchase.apiKeyId, apiKeyId), eq(purchase.idempotencyKey, key))),
          ]);
          const retryAfter = lead ? await lead.retryAfter : null;
          if (retryAfter !== null) throw new OverLimit(retryAfter);
          if (!claimed) return null;
          if (purchased) throw new AnsweredBefore();
          checked = Promise.resolve();
          let early: string | null = null;
          locals.storeAnswer = async (status, body) => {
            await tx.update(apiIdempotency).set({ status, response: body }).where(where());
            early = JSON.stringify([status, body]);
          };
          locals.commitEarly = undefined;
          const given = await answerOf(tx);
          if (given.status >= 400) throw new RolledBack(given);
          if (early !== JSON.stringify([given.status, given.body])) {
            await tx.update(apiIdempotency).set({ status: given.status, response: given.body }).where(where());
          }
          return given;
        }
        const given = await answerOf(tx);
        await checked;
        const retryAfter = lead ? await lead.retryAfter : null;
        if (retryAfter !== null) throw new OverLimit(retryAfter);
        if (seen.earlier === "some") throw new AnsweredBefore();
        if (given.status >= 400) throw new RolledBack(given);
        // Any answer but a booking's (201: kept in the purchase row) is kept here, as for every write: a
        // receipt booked before under another key answers 200 with the balance of now, and a retry under
        // this key must get that same answer.
        if (given.status !== 201) {
          const [kept] = await tx
            .insert(apiIdempotency)
            .values({ apiKeyId, key, requestHash, status: given.status, response: given.body })
            .onConflictDoNothing()
            .returning({ key: apiIdempotency.key });
          // A twin kept its answer first (we waited for it): replay that one.
          if (!kept) throw new AnsweredBefore();
        }
        return given;
      });
    } catch (error) {
      reset();
      lead?.held.release();
      if (error instanceof OverLimit) return refuseRateLimited(res, error.retryAfter);
      if (error instanceof AnsweredBefore) return replayStored(res, db, apiKeyId, key, requestHash);
      if (!(error instanceof RolledBack)) return next(error);
      for (const work of locals.afterRollback ?? []) await work(db);
      locals.afterRollback = undefined;
      answer = error.answer;
      if (answer.status >= 500 || isKeyReused(answer)) {
        json(answer.body);
        return;
      }
      // Keep the refusal (the same request gets the same refusal) — unless a twin answered meanwhile, or a
      // purchase holds the key (then this request is the reuse of a key, 409, or a retry of it, replayed).
      if (inRow) {
        const [booked] = await db
          .select({ requestHash: purchase.requestHash, answer: purchase.answer })
          .from(purchase)
          .where(and(eq(purchase.apiKeyId, apiKeyId), eq(purchase.idempotencyKey, key)));
        if (booked) return replayPurchase(res, booked, requestHash);
      }
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
    reset();
    lead?.held.release();
    if (answer) {
      json(answer.body);
      return;
    }
    // Claimed before: replay the stored answer, or refuse.
    await replayStored(res, db, apiKeyId, key, requestHash);

    /** The rest of the chain (the endpoint, or the error handler) answers into this promise. */
    function answerOf(tx: Database): Promise<Answer> {
      return new Promise<Answer>((resolve, reject) => {
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
      }).finally(() => {
        locals.writeTx = undefined;
        locals.storeAnswer = undefined;
        res.json = json;
      });
    }
  };
}

const noop = () => {};

/** Whether this Idempotency-Key answered another request before (a purchase's check), built once (ADR 060). */
const ANSWERED_BEFORE = textStatement(
  (p: Slots<"apiKeyId" | "key">) =>
    sql`select 1 from ${apiIdempotency} where api_key_id = ${p.apiKeyId}::uuid and key = ${p.key}`,
);

function isKeyReused(answer: Answer): boolean {
  return (answer.body as { error?: { code?: string } } | null)?.error?.code === "idempotency_key_reused";
}

/** The answer api_idempotency keeps for this key, or 409 when it was another request's (or still running). */
async function replayStored(res: Response, db: Database, apiKeyId: string, key: string, requestHash: string) {
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
}

/**
 * A purchase booked with this Idempotency-Key (ADR 039): the same request gets the answer kept in its row
 * (201, with Idempotent-Replayed), another request 409.
 */
export function replayPurchase(
  res: Response,
  booked: { requestHash: string | null; answer: unknown },
  requestHash: string,
): void {
  if (booked.requestHash !== requestHash || booked.answer === null) {
    fail(res, "idempotency_key_reused", "This Idempotency-Key was used with a different request");
    return;
  }
  countLedgerReplay("pos-idempotency-key");
  res.setHeader("Idempotent-Replayed", "true");
  send(res, 201, booked.answer);
}
