import { randomBytes } from "node:crypto";
import { insertTestStores } from "@platform/testing/stores";
import { createThrowawayPostgres, type ThrowawayPostgres } from "@platform/testing/throwaway-postgres";
import { waitFor } from "@platform/testing/wait";
import { afterAll, beforeAll, expect, it } from "vitest";
import type * as ApiKeysModule from "../app/domain/pos/api-keys.server";
import { type AppInstance, type DevServer, startDevServer } from "./testing/dev-app";

/**
 * The database goes away under a running app and comes back (ADR 021). The PostgreSQL here is the
 * test's own throwaway cluster (initdb + pg_ctl in a temporary directory), never the shared one;
 * PostgreSQL-only like the other *.postgres.* files, since the app must talk to a server it can lose.
 */

/** The per-run secret the APP_ENV=test hooks require (ADR 019 / issue 11 item 7). */
const HOOKS_SECRET = randomBytes(24).toString("base64url");

let dev: DevServer;
let pg: ThrowawayPostgres;
let app: AppInstance;
let base: string;
let posKey: string;
let memberNumber: string;
let memberCookie: string;

beforeAll(async () => {
  pg = await createThrowawayPostgres();
  dev = await startDevServer();
  app = await dev.serve(
    { APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET },
    { label: "outage", database: { kind: "postgres", url: pg.url, poolMax: 4 } },
  );
  base = app.base;
  const { createApiKey } = (await dev.vite.ssrLoadModule("/app/domain/pos/api-keys.server.ts")) as typeof ApiKeysModule;
  const db = app.running.database.db;
  await insertTestStores(db, ["TPE01"]);
  posKey = (await createApiKey(db, { storeId: "TPE01", name: "outage test" })).secret;
  // A member with a session (the APP_ENV=test hooks), whose member center needs the database.
  const hook = (p: string, body: object) =>
    fetch(`${base}/__test${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  const created = await hook("/members", { name: "停機測試", phoneNumber: "+886955000111" });
  memberNumber = created.memberNumber;
  const { setCookie } = (await hook("/sessions", { userId: created.userId })) as { setCookie: string[] };
  memberCookie = setCookie.map((c) => c.split(";")[0]).join("; ");
}, 180_000);

afterAll(async () => {
  await dev?.close().catch(() => {});
  pg?.destroy();
}, 60_000);

/** Every answer must come within 5 s: a request stuck on a connection timeout fails the test. */
const quickly = (url: string, init: RequestInit = {}) => fetch(url, { ...init, signal: AbortSignal.timeout(5_000) });

function purchase(receipt: string, idempotencyKey: string, withinMs = 5_000) {
  return fetch(`${base}/api/v1/purchases`, {
    signal: AbortSignal.timeout(withinMs),
    method: "POST",
    headers: {
      authorization: `Bearer ${posKey}`,
      "content-type": "application/json",
      "idempotency-key": idempotencyKey,
    },
    body: JSON.stringify({
      memberNumber,
      receiptNumber: receipt,
      netAmount: 1200,
      purchasedAt: new Date(Date.now() - 60_000).toISOString(),
    }),
  });
}

/**
 * A client-side navigation (React Router's `.data` request) while the database is away: a 503 route
 * error, which the error boundary shows as the calm view (error-boundary.test.tsx), not a server error.
 */
async function expectUnavailableNavigation() {
  const navigation = await quickly(`${base}/member-center/points.data`, { headers: { cookie: memberCookie } });
  expect(navigation.status).toBe(503);
  const body = await navigation.text();
  expect(body).toMatch(/"ErrorResponse",\d+,\d+,\d+\],\{[^}]*\},503,/);
  expect(body).toContain('"unavailable",true');
  expect(body).not.toMatch(/ECONNREFUSED|at .*\.ts:\d+|stack/i);
}

it("answers 503 calmly while PostgreSQL is down and recovers by itself when it returns", {
  timeout: 180_000,
}, async () => {
  // Before the outage, without the 5 s bound: the first render compiles the pages (Vite, cold).
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  expect((await fetch(`${base}/member-center`, { headers: { cookie: memberCookie } })).status).toBe(200);
  expect((await fetch(`${base}/`)).status).toBe(200);
  expect((await purchase("R-BEFORE", "before-outage", 60_000)).status).toBe(201);

  pg.stop();

  // The first page after the loss: its render fails on the database and becomes the calm page.
  const page = await quickly(`${base}/member-center`, { headers: { cookie: memberCookie } });
  expect(page.status).toBe(503);
  expect(page.headers.get("retry-after")).toBe("10");
  const html = await page.text();
  expect(html).toContain("暫時無法使用");
  expect(html).toContain("您的點數與會員資料都安全保存");
  expect(html).not.toMatch(/at .*\.ts:\d+|Error:|stack/i);

  const english = await quickly(`${base}/member-center/points`, { headers: { cookie: `${memberCookie}; locale=en` } });
  expect(english.status).toBe(503);
  expect(await english.text()).toContain("Temporarily unavailable");

  // A client-side navigation: the error boundary's calm view (a 503 route error), not the server error.
  await expectUnavailableNavigation();

  const write = await purchase("R-DURING", "during-outage");
  expect(write.status).toBe(503);
  expect(write.headers.get("retry-after")).toBe("10");
  expect(await write.json()).toEqual({ error: { code: "service_unavailable", message: expect.any(String) } });

  const ready = await quickly(`${base}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toMatchObject({ status: "not-ready", database: "unreachable" });

  pg.start();

  // Nobody restarts the app: it finds the database again on its own.
  await waitFor(
    async () => (await quickly(`${base}/readyz`)).status,
    (status) => status === 200,
    30_000,
    250,
  );
  await waitFor(
    async () => (await quickly(`${base}/member-center`, { headers: { cookie: memberCookie } })).status,
    (status) => status === 200,
    10_000,
    250,
  );
  // The write refused during the outage goes through when the POS retries it with the same key.
  const retried = await purchase("R-DURING", "during-outage");
  expect(retried.status).toBe(201);
  expect((await purchase("R-AFTER", "after-outage")).status).toBe(201);

  // Lost again, and this time a client-side navigation is the first to find out.
  pg.stop();
  await expectUnavailableNavigation();
  pg.start();
});
