import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { insertTestStores } from "@platform/testing/stores";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { createApiV1Router } from "./v1";

export type ApiV1Rig = {
  database: DatabaseHandle;
  /** The router's address: `${base}/purchases`. */
  base: string;
  /** The secret of a key of store TPE01 (stores TPE01 and TXG01 exist), and its id. */
  storeKey: string;
  storeKeyId: string;
  cardSecret: string;
};

/**
 * For a POS API test file: the router createApp mounts at /api/v1, served alone over HTTP on a fresh migrated
 * database with stores TPE01 and TXG01 and one key of TPE01; opened in beforeAll (then `ready` gets it, and may
 * seed), closed and dropped in afterAll.
 */
export function serveApiV1ForTests(label: string, ready: (rig: ApiV1Rig) => void | Promise<void>): void {
  const cardSecret = "c".repeat(40);
  let testDb: TestDatabase | undefined;
  let database: DatabaseHandle | undefined;
  let server: Server | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase({ label, migrated: true });
    database = await openDatabase(testDb.config);
    await database.migrate();
    const app = express();
    app.use("/api/v1", createApiV1Router({ db: database.db, cardSecret, logger: pino({ level: "silent" }) }));
    const listening = app.listen(0, "127.0.0.1");
    server = listening;
    await new Promise<void>((resolve) => listening.once("listening", resolve));
    const base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/api/v1`;
    await insertTestStores(database.db, ["TPE01", "TXG01"]);
    const created = await createApiKey(database.db, { storeId: "TPE01", name: "Taipei POS" });
    await ready({ database, base, storeKey: created.secret, storeKeyId: created.key.id, cardSecret });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await database?.close();
    await testDb?.drop();
  });
}
