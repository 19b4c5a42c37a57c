import { createHash } from "node:crypto";
import type { Database } from "@platform/db/client";
import { apiIdempotency } from "@platform/db/schema";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq } from "drizzle-orm";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { fail, send } from "../errors";
import { apiKeyOf } from "./authenticate";

/**
 * Every write needs an Idempotency-Key; the first answer to (key, Idempotency-Key) is kept and
 * replayed to a retry with the same body, a different body is 409. The claim is one insert, so two
 * instances racing on one key never both run the request.
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
    const [claimed] = await db
      .insert(apiIdempotency)
      .values({ apiKeyId, key, requestHash })
      .onConflictDoNothing()
      .returning();
    if (!claimed) {
      const [first] = await db
        .select()
        .from(apiIdempotency)
        .where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)));
      if (!first || first.requestHash !== requestHash) {
        fail(res, "idempotency_key_reused", "This Idempotency-Key was used with a different request");
      } else if (first.status === null) {
        fail(res, "request_in_progress", "A request with this Idempotency-Key is still in progress");
      } else {
        countLedgerReplay("pos-idempotency-key");
        res.setHeader("Idempotent-Replayed", "true");
        send(res, first.status, first.response);
      }
      return;
    }
    // Keep the answer (4xx included: the same request gets the same refusal); forget 5xx so a retry runs.
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      const done =
        res.statusCode >= 500
          ? db.delete(apiIdempotency).where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)))
          : db
              .update(apiIdempotency)
              .set({ status: res.statusCode, response: body })
              .where(and(eq(apiIdempotency.apiKeyId, apiKeyId), eq(apiIdempotency.key, key)));
      done.then(
        () => json(body),
        (error: unknown) => next(error),
      );
      return res;
    };
    next();
  };
}
