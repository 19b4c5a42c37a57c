import { Writable } from "node:stream";
import type { Logger } from "@platform/logger";
import { insertTestStores } from "@platform/testing/stores";
import { createThrowawayPostgres, type ThrowawayPostgres } from "@platform/testing/throwaway-postgres";
import { waitFor } from "@platform/testing/wait";
import pino from "pino";
import { afterAll, beforeAll, expect, it } from "vitest";
import type * as ApiKeysModule from "../app/domain/pos/api-keys.server";
import { type AppInstance, type DevServer, startDevServer } from "./testing/dev-app";

/**
 * What an operator sees of a database outage (issue 33 items 20, 21): in the log one "database unavailable" line
 * when it goes and one "database back after N s" when it returns, everything else about it at debug level; in
 * /metrics the 503s under the routes that answered them (the per-route alerts see them), and no pool connections
 * while hanliving_db_up is 0. The app's own throwaway PostgreSQL, stopped for 20 s.
 */
const TOKEN = "outage-metrics-token-0123456789abcdef0123";
const OUTAGE_MS = 20_000;

type LogLine = { level: number; msg: string; time: string; [key: string]: unknown };
const logged: LogLine[] = [];

let dev: DevServer;
let pg: ThrowawayPostgres;
let app: AppInstance;
let posKey: string;

beforeAll(async () => {
  pg = await createThrowawayPostgres();
  dev = await startDevServer();
  const logger = pino(
    { level: "debug", base: undefined, timestamp: pino.stdTimeFunctions.isoTime },
    new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) logged.push(JSON.parse(line) as LogLine);
        done();
      },
    }),
  ) as Logger;
  app = await dev.serve(
    { APP_ENV: "test", METRICS_TOKEN: TOKEN },
    { label: "outage-observability", database: { kind: "postgres", url: pg.url, poolMax: 4 }, logger },
  );
  const { createApiKey } = (await dev.vite.ssrLoadModule("/app/domain/pos/api-keys.server.ts")) as typeof ApiKeysModule;
  await insertTestStores(app.running.database.db, ["TPE01"]);
  posKey = (await createApiKey(app.running.database.db, { storeId: "TPE01", name: "outage metrics" })).secret;
}, 180_000);

afterAll(async () => {
  await dev?.close().catch(() => {});
  pg?.destroy();
}, 60_000);

const quickly = (path: string, init: RequestInit = {}) =>
  fetch(`${app.base}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });

async function scrape(): Promise<string> {
  const response = await quickly("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The sample lines of one metric, e.g. `name{a="b"} 3`. */
function samples(text: string, name: string): string[] {
  return text.split("\n").filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

function count(text: string, labels: Record<string, string>): number {
  const line = samples(text, "hanliving_http_request_duration_seconds_count").find((l) =>
    Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)),
  );
  return line ? Number(line.split(" ").at(-1)) : 0;
}

function purchase(receipt: string) {
  return quickly("/api/v1/purchases", {
    method: "POST",
    headers: { authorization: `Bearer ${posKey}`, "content-type": "application/json", "idempotency-key": receipt },
    body: JSON.stringify({ memberNumber: "HL00000001", receiptNumber: receipt, netAmount: 100 }),
  });
}

it("an outage is one line when it starts and one when it ends, and its 503s are counted by route", {
  timeout: 240_000,
}, async () => {
  // Before: the pages compile (Vite, cold), and a scrape shows this instance's pool.
  expect((await fetch(`${app.base}/`)).status).toBe(200);
  expect((await fetch(`${app.base}/member-login`)).status).toBe(200);
  expect((await fetch(`${app.base}/admin/login`)).status).toBe(200);
  const before = await scrape();
  expect(samples(before, "hanliving_db_pool_connections").some((l) => !l.includes('state="max"'))).toBe(true);

  pg.stop();
  const stoppedAt = Date.now();
  // Pages and the POS API while it is away: the first finds out, the rest are answered at once.
  // Every page, the login forms too (docs/operations.md). The home page with a query of its own: the render cache
  // may still hold the plain "/" for a few seconds.
  for (const path of ["/member-login", "/?during=1", "/member-login", "/?during=2", "/admin/login"]) {
    const page = await quickly(path);
    expect(page.status, path).toBe(503);
    expect(await page.text()).toContain("暫時無法使用");
  }
  // Static files need no database.
  expect((await quickly("/favicon.svg")).status).toBe(200);
  expect((await purchase("R-OUTAGE-1")).status).toBe(503);
  expect((await purchase("R-OUTAGE-2")).status).toBe(503);

  const during = await scrape();
  expect(count(during, { route: "routes/home", method: "GET", status: "503" })).toBe(2);
  expect(count(during, { route: "routes/member-login", method: "GET", status: "503" })).toBe(2);
  expect(count(during, { route: "/api/v1/purchases", method: "POST", status: "503" })).toBe(2);
  expect(count(during, { route: "unmatched", status: "503" })).toBe(0);
  expect(samples(during, "hanliving_db_up")).toEqual(["hanliving_db_up 0"]);
  // What the pool held before the outage is not reported as if it still did; only its configured maximum.
  expect(samples(during, "hanliving_db_pool_connections")).toEqual(['hanliving_db_pool_connections{state="max"} 4']);
  expect(samples(during, "hanliving_job_queue_jobs")).toEqual([]);

  // The job queue polls, the delivery passes and the cache bus retry all through the outage.
  await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS - (Date.now() - stoppedAt)));
  pg.start();
  await waitFor(
    async () => (await quickly("/readyz")).status,
    (status) => status === 200,
    30_000,
    250,
  );
  await waitFor(
    async () => logged.some((l) => l.msg.startsWith("database back after")),
    (back) => back,
    10_000,
    100,
  );
  const after = await scrape();
  expect(samples(after, "hanliving_db_up")).toEqual(["hanliving_db_up 1"]);

  const unavailable = logged.filter((l) => l.msg === "database unavailable");
  const back = logged.filter((l) => l.msg.startsWith("database back after"));
  expect(unavailable).toHaveLength(1);
  expect(unavailable[0]?.level).toBe(50);
  expect(back).toHaveLength(1);
  expect(back[0]?.level).toBe(30);
  const seconds = Number(/^database back after (\d+) s$/.exec(back[0]?.msg ?? "")?.[1]);
  expect(seconds).toBeGreaterThanOrEqual(OUTAGE_MS / 1000 - 1);
  expect(seconds).toBeLessThan(OUTAGE_MS / 1000 + 15);
  // Nothing else about the outage above debug: no warning or error line but the one that says it.
  const loud = logged.filter((l) => l.level >= 40 && l !== unavailable[0]);
  expect(loud.map((l) => `${l.level} ${l.msg}`)).toEqual([]);
  // The details are still there for whoever turns debug on.
  expect(logged.filter((l) => l.level === 20 && Date.parse(l.time) >= stoppedAt).length).toBeGreaterThan(0);
});
