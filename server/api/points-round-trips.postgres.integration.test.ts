import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CacheBus, startCacheBus } from "@platform/cache/bus";
import { attachCacheBus } from "@platform/cache/shared-cache";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { pointEntry, purchase } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { writesToDatabase } from "@platform/testing/database-writes";
import { insertTestStores } from "@platform/testing/stores";
import { eq } from "drizzle-orm";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { issueCardToken } from "../../app/domain/loyalty/card-tokens.server";
import { checkLedger } from "../../app/domain/loyalty/ledger-check.server";
import { adjustPoints } from "../../app/domain/loyalty/points.server";
import { newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { createApiV1Router } from "./v1";

// postgres.js as the server build runs it (ADR 060), so the writes counted are production's.
vi.mock("postgres", async () => (await import("@platform/testing/server-build-postgres")).serverBuildPostgres());

/**
 * A purchase that spends points costs no more round trips than one that does not (issue 36, ADR 040 and ADR 030):
 * the spend is one statement pipelined with the purchase's other writes. Counted at the socket as in
 * purchase-round-trips.postgres.integration.test.ts; the time of 40 of each is printed (the bench's figure is
 * the machine's, the count is the code's).
 */
const CARD_SECRET = "c".repeat(40);
let testDb: TestDatabase;
let handle: DatabaseHandle;
let bus: CacheBus;
let server: Server;
let base: string;

beforeAll(async () => {
  testDb = await createTestDatabase({ label: "pos_points_round_trips", migrated: true });
  if (testDb.driver !== "postgres") throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
  handle = await openDatabase(testDb.config);
  await handle.migrate();
  // As in the server: the API key is cached (ADR 026), so a purchase does not look it up.
  bus = await startCacheBus(handle.connection);
  attachCacheBus(handle.db, bus);
  const app = express();
  app.use("/api/v1", createApiV1Router({ db: handle.db, cardSecret: CARD_SECRET, logger: pino({ level: "silent" }) }));
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await bus?.close();
  await handle?.close();
  await testDb?.drop();
});

it("books a POS purchase that spends points in as many round trips as one that does not", {
  timeout: 120_000,
}, async () => {
  const db = handle.db;
  await insertTestStores(db, ["TPE01"]);
  const { secret } = await createApiKey(db, { storeId: "TPE01", name: "till 1" });
  const buyer = await newMember(db);
  await adjustPoints(db, { memberId: buyer.id, amount: 100_000, reason: "seed", idempotencyKey: `seed:${buyer.id}` });
  const buy = (receiptNumber: string, pointsToSpend?: number) =>
    fetch(`${base}/purchases`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${secret}`,
        "content-type": "application/json",
        "idempotency-key": `key-${receiptNumber}`,
      },
      // The member's card scanned (ADR 052: a spend by card needs no code, so it costs no extra round trip).
      body: JSON.stringify({
        cardToken: issueCardToken(CARD_SECRET, buyer.id).token,
        receiptNumber,
        netAmount: 1200,
        pointsToSpend,
      }),
    }).then(async (res) => ({ status: res.status, body: await res.json() }));

  // The first purchases prepare every statement on the connection and cache the key.
  expect((await buy("W-1")).status).toBe(201);
  expect((await buy("W-2", 100)).status).toBe(201);
  const plain = await writesToDatabase(handle.db, bus, () => buy("P-1"));
  const spending = await writesToDatabase(handle.db, bus, () => buy("S-1", 300));
  expect(plain.result.status).toBe(201);
  expect(spending.result).toMatchObject({ status: 201, body: { pointsSpent: 300, pointsEarned: 9 } });
  expect(spending.writes, `${plain.seen.join(" ")} | ${spending.seen.join(" ")}`).toBeLessThanOrEqual(plain.writes + 1);
  const [booked] = await db.select().from(purchase).where(eq(purchase.receiptNumber, "S-1"));
  const entries = await db.select().from(pointEntry).where(eq(pointEntry.purchaseId, booked!.id));
  expect(entries.map((e) => e.amount).sort((a, b) => a - b)).toEqual([-300, 9]);

  // Time, for the report (interleaved so the machine's load falls on both alike).
  const times = { plain: [] as number[], spending: [] as number[] };
  for (let i = 0; i < 40; i++) {
    for (const kind of ["plain", "spending"] as const) {
      const start = performance.now();
      const answer = await buy(`T-${kind}-${i}`, kind === "spending" ? 50 : undefined);
      times[kind].push(performance.now() - start);
      expect(answer.status).toBe(201);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  console.log(
    `purchase round trips: ${plain.writes} plain, ${spending.writes} spending; median ms: ${median(times.plain).toFixed(2)} plain, ${median(times.spending).toFixed(2)} spending (${(median(times.spending) / median(times.plain)).toFixed(2)}x)`,
  );
  expect((await checkLedger(db)).mismatches).toEqual([]);
});
