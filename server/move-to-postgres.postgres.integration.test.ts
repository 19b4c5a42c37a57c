import { rmSync } from "node:fs";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEMO_MEMBER } from "../app/domain/demo/demo-member";
import { moveToPostgres } from "../app/domain/operations/move-to-postgres.server";
import { type DevServer, startDevServer, tempDir } from "./testing/dev-app";

/**
 * The "done when": a development install on the embedded database (which creates the demo
 * member with a year of history at start) is stopped, moved into a fresh PostgreSQL database, and the
 * app started on PostgreSQL shows the demo member the same balance and tier after logging in.
 */

let dev: DevServer;
let dataDir: string;
let target: TestDatabase;

beforeAll(async () => {
  target = await createTestDatabase({ label: "move_demo" });
  if (!target.url) throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
  dataDir = tempDir("move-demo");
  dev = await startDevServer();
}, 120_000);

afterAll(async () => {
  await dev?.close();
  await target?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A development install in the one DATA_DIR, on the database its env names (embedded by default). */
function serve(env: Record<string, string>) {
  return dev.serve({ APP_ENV: "development", ...env }, { database: "config", dataDir });
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
