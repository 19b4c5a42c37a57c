import { createHash, randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import { consoleIdempotency } from "@platform/db/schema";
import { countLedgerReplay } from "@platform/metrics";
import { and, eq, isNull } from "drizzle-orm";
import { canonicalJson } from "../audit/audit.server";

/**
 * One booking per console form (ADR 022). Each counter form is rendered with a fresh key
 * (`newFormKey()`); its submission claims (staff member, key) with one insert, runs, and keeps the
 * answer: a double tap, a retry on a slow network or a reload of the posted page answers the first
 * result again instead of booking twice. The same mechanism as the POS API's Idempotency-Key
 * (server/api/v1/middleware/idempotency.ts), with two differences that suit a form a person corrects:
 * a refusal (nothing booked) frees the key, so the corrected form can be sent again; and a duplicate
 * that arrives while the first is still running waits for its answer instead of being refused.
 */

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A form's key, made once per render of the form. */
export function newFormKey(): string {
  return randomUUID();
}

export function isFormKey(value: unknown): value is string {
  return typeof value === "string" && KEY.test(value);
}

export type FormOutcome<T> =
  /** The form's first answer (run now, or replayed to a retry). */
  | { kind: "done"; value: T; replayed: boolean }
  /** The same key was used for a different submission (the form was changed after it had booked). */
  | { kind: "reused" }
  /** The first submission still runs after waiting for it; nothing was booked twice. */
  | { kind: "in_progress" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `run` once per (user, key, submission). `fields` is what the form sent that decides the
 * booking (hashed, so a changed form under an old key is told apart from a retry).
 */
export async function oncePerForm<T>(
  db: Database,
  input: { userId: string; key: string; action: string; fields: Record<string, unknown> },
  run: () => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<FormOutcome<T>> {
  const requestHash = createHash("sha256")
    .update(`${input.action}\n${canonicalJson(input.fields)}`)
    .digest("hex");
  const where = and(eq(consoleIdempotency.userId, input.userId), eq(consoleIdempotency.key, input.key));
  const [claimed] = await db
    .insert(consoleIdempotency)
    .values({ userId: input.userId, key: input.key, requestHash })
    .onConflictDoNothing()
    .returning({ key: consoleIdempotency.key });
  if (!claimed) {
    const deadline = Date.now() + (options.waitMs ?? 10_000);
    for (;;) {
      const [first] = await db.select().from(consoleIdempotency).where(where);
      // Freed by a refusal in the meantime: this submission may run after all.
      if (!first) return oncePerForm(db, input, run, { waitMs: Math.max(0, deadline - Date.now()) });
      if (first.requestHash !== requestHash) return { kind: "reused" };
      if (first.status !== null) {
        countLedgerReplay("console-form");
        return { kind: "done", value: first.response as T, replayed: true };
      }
      if (Date.now() >= deadline) return { kind: "in_progress" };
      await sleep(100);
    }
  }
  let value: T;
  try {
    value = await run();
  } catch (error) {
    // A refusal or a failure booked nothing: free the key (only while still unanswered).
    await db.delete(consoleIdempotency).where(and(where, isNull(consoleIdempotency.status)));
    throw error;
  }
  await db
    .update(consoleIdempotency)
    .set({ status: 200, response: value as unknown as object })
    .where(where);
  return { kind: "done", value, replayed: false };
}
