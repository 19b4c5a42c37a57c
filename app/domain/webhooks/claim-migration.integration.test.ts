import { type DatabaseHandle, openDatabase, rowsOf } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { type MigrationsBefore, migrationsBefore } from "@platform/testing/migrations-before";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { STALE_CLAIM_MS } from "./delivery.server";
import { deliveryLog } from "./endpoints.server";

/**
 * Migration 0063 (ADR 054 "Later (2026-12-07, the claim without a status change)"): rows a running instance had
 * claimed as `sending` become pending with their claim kept (a fresh claim is still being sent, an old one is taken
 * over), a previous build's `sending` is refused from then on, and the table gets its fillfactor.
 */
let before: MigrationsBefore;

beforeAll(() => {
  before = migrationsBefore("_webhook-claim-hot");
});

afterAll(() => {
  before.remove();
});

it("turns claimed `sending` rows into pending ones with their claim, and refuses `sending` after", async () => {
  const testDb: TestDatabase = await createTestDatabase({ label: "webhook_claim_hot" });
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openDatabase(testDb.config);
    await before.migrate(handle);
    const db = handle.db;
    const now = new Date();
    const fresh = new Date(now.getTime() - 60_000).toISOString();
    const stale = new Date(now.getTime() - STALE_CLAIM_MS - 60_000).toISOString();
    const [endpoint] = rowsOf<{ id: string }>(
      await db.execute(sql`insert into webhook_endpoint (url, events, secret)
        values ('http://localhost:9/h', '{purchase.created}', 'whsec_AAAA') returning id`),
    );
    const claimer = "00000000-0000-4000-8000-000000000001";
    await db.execute(sql`insert into webhook_delivery
        (endpoint_id, event_type, data, status, attempts, claim_job, claimed_at, first_attempt_at)
      values (${endpoint?.id}::uuid, 'purchase.created', '{"n":1}', 'sending', 1, ${claimer}::uuid,
              ${fresh}::timestamptz, ${fresh}::timestamptz),
             (${endpoint?.id}::uuid, 'purchase.created', '{"n":2}', 'sending', 1, ${claimer}::uuid,
              ${stale}::timestamptz, ${stale}::timestamptz),
             (${endpoint?.id}::uuid, 'purchase.created', '{"n":3}', 'pending', 0, null, null, null)`);
    await handle.migrate();
    const rows = rowsOf<{ n: number; status: string; claim_job: string | null; attempts: number }>(
      await db.execute(
        sql`select (data->>'n')::int as n, status, claim_job, attempts from webhook_delivery order by seq`,
      ),
    );
    expect(rows).toEqual([
      { n: 1, status: "pending", claim_job: claimer, attempts: 1 },
      { n: 2, status: "pending", claim_job: claimer, attempts: 1 },
      { n: 3, status: "pending", claim_job: null, attempts: 0 },
    ]);
    // Still being sent: the fresh claim; the old one is a dead instance's (taken over by the next claim).
    expect((await deliveryLog(db, endpoint?.id as string, 50, now)).map((r) => r.status)).toEqual([
      "pending",
      "pending",
      "sending",
    ]);
    // A previous build's claim (status 'sending') fails: it sends nothing during a rolling update.
    await expect(db.execute(sql`update webhook_delivery set status = 'sending'`)).rejects.toThrow();
    const [options] = rowsOf<{ options: string | null }>(
      await db.execute(
        sql`select array_to_string(reloptions, ',') as options from pg_class where relname = 'webhook_delivery'`,
      ),
    );
    expect(options?.options).toBe("fillfactor=50");
  } finally {
    await handle?.close();
    await testDb.drop();
  }
});
