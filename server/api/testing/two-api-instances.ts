import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import express from "express";
import pino from "pino";
import { afterAll, beforeAll } from "vitest";
import { createApiV1Router } from "../v1";

type RouterOptions = Omit<Parameters<typeof createApiV1Router>[0], "db" | "cardSecret" | "logger">;

/**
 * For a POS API test file on PostgreSQL: two app instances (each its own pool and its own Express server with the
 * API router) over one fresh migrated database, started in beforeAll and closed in afterAll. `instances` fills in
 * then: the handles and the two base URLs (`…/api/v1`).
 */
export function useTwoApiInstances(
  label: string,
  options: { poolMax: number } & RouterOptions,
): { handles: DatabaseHandle[]; bases: string[] } {
  const { poolMax, ...router } = options;
  const instances = { handles: [] as DatabaseHandle[], bases: [] as string[] };
  const servers: Server[] = [];
  let testDb: TestDatabase | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase({ label, poolMax, migrated: true });
    if (testDb.driver !== "postgres") throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
    for (let i = 0; i < 2; i++) {
      const handle = await openDatabase(testDb.config);
      if (i === 0) await handle.migrate();
      instances.handles.push(handle);
      const app = express();
      app.use(
        "/api/v1",
        createApiV1Router({ db: handle.db, cardSecret: "c".repeat(40), logger: pino({ level: "silent" }), ...router }),
      );
      const server = app.listen(0, "127.0.0.1");
      await new Promise<void>((resolve) => server.once("listening", resolve));
      servers.push(server);
      instances.bases.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`);
    }
  }, 120_000);
  afterAll(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const handle of instances.handles) await handle.close();
    await testDb?.drop();
  });
  return instances;
}
