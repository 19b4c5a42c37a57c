import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as ConfigModule from "@platform/config";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_MEMBER } from "../app/domain/demo/demo-member";
import { moveToPostgres } from "../app/domain/operations/move-to-postgres.server";
import type * as AppModule from "./app";

/**
 * The "done when": a development install on the embedded database (which creates the demo
 * member with a year of history at start) is stopped, moved into a fresh PostgreSQL database, and the
 * app started on PostgreSQL shows the demo member the same balance and tier after logging in.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
type Running = Awaited<ReturnType<typeof AppModule.createApp>>;

let vite: ViteDevServer;
let createApp: typeof AppModule.createApp;
let loadConfig: typeof ConfigModule.loadConfig;
let dataDir: string;
let target: TestDatabase;

beforeAll(async () => {
  target = await createTestDatabase({ label: "move_demo" });
  if (!target.url) throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
  dataDir = mkdtempSync(path.join(tmpdir(), "move-demo-"));
  vite = await createServer({
    root,
    configFile: path.join(root, "vite.config.ts"),
    logLevel: "warn",
    server: { middlewareMode: true },
    appType: "custom",
  });
  ({ createApp } = (await vite.ssrLoadModule("/server/app.ts")) as typeof AppModule);
  ({ loadConfig } = (await vite.ssrLoadModule("/platform/config.ts")) as typeof ConfigModule);
}, 120_000);

afterAll(async () => {
  await vite?.close();
  await target?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function serve(env: Record<string, string>): Promise<{ base: string; stop: () => Promise<void> }> {
  const running: Running = await createApp({
    config: loadConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, APP_ENV: "development", ...env }),
    dev: {
      middlewares: vite.middlewares,
      loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    },
  });
  const server: Server = running.app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running.close();
    },
  };
}

/** Logs the demo member in through the login form; returns the session cookies. */
async function logIn(base: string): Promise<string> {
  const response = await fetch(`${base}/member-login`, {
    method: "POST",
    body: new URLSearchParams({ method: "phone", phone: "0912-345-678", password: DEMO_MEMBER.password }),
    headers: { origin: base },
    redirect: "manual",
  });
  expect(response.status).toBe(302);
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

async function memberCenter(base: string, cookie: string): Promise<{ balance: string; tier: string }> {
  const response = await fetch(`${base}/member-center`, { headers: { cookie } });
  expect(response.status).toBe(200);
  const html = await response.text();
  const balance = /data-testid="points-balance"[^>]*>([^<]+)</.exec(html)?.[1];
  const tier = /(一般會員|銀卡會員|金卡會員)/.exec(html)?.[1];
  if (!balance || !tier) throw new Error("the member center shows no balance or tier");
  return { balance, tier };
}

it("moves a development install with the demo member's year of history to PostgreSQL: same balance, same tier", {
  timeout: 300_000,
}, async () => {
  const embedded = await serve({});
  const cookie = await logIn(embedded.base);
  const before = await memberCenter(embedded.base, cookie);
  await embedded.stop();
  // The demo history earns points and reaches silver: a real balance, not an empty member.
  expect(Number(before.balance.replace(/,/g, ""))).toBeGreaterThan(0);
  expect(before.tier).toBe("銀卡會員");

  const report = await moveToPostgres({ sourceDataDir: path.join(dataDir, "pglite"), targetUrl: target.url as string });
  expect(report.members).toBe(1);

  const moved = await serve({ DATABASE_URL: target.url as string });
  try {
    expect(await memberCenter(moved.base, await logIn(moved.base))).toEqual(before);
    // The same SESSION_SECRET (DATA_DIR/secrets.json): a session from before the move still works.
    expect(await memberCenter(moved.base, cookie)).toEqual(before);
  } finally {
    await moved.stop();
  }
});
