import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Rewards made in the console under simultaneous requests (ADR 018, ADR 029), over HTTP on two instances of
 * the full app sharing ONE PostgreSQL database: 20 members redeeming the last 3 in stock at once get exactly
 * 3 coupons; 20 simultaneous saves of the same version of a reward keep exactly one (the others are told,
 * 409) and audit it once. PostgreSQL only (PGlite is one process and cannot race).
 */

const HOOKS_SECRET = "programme-race-hooks-secret-0123456789";
let apps: DevApps;
let db: Database;
let schema: typeof Schema;
let admin: TestStaff;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, { label: "programme_race" });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  admin = await staffTesting.createTestStaff(db, first.running.config.secrets.session, { role: "admin" });
}, 240_000);

afterAll(() => apps?.stop());

const baseOf = (i: number) => apps.instances[i % apps.instances.length]?.base ?? "";

function post(i: number, pathname: string, fields: Record<string, string>, cookie: string) {
  const base = baseOf(i);
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${baseOf(0)}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

async function createReward(name: string, stock: string): Promise<string> {
  const response = await post(
    0,
    "/admin/rewards/new",
    { intent: "save", name, kind: "gift", pointsCost: "100", stock, couponValidDays: "30" },
    `han_console=${admin.token}`,
  );
  expect(response.status, await response.clone().text()).toBe(302);
  return /\/admin\/rewards\/([0-9a-f-]{36})/.exec(response.headers.get("location") ?? "")?.[1] ?? "";
}

describe("rewards under simultaneous requests, over two instances", () => {
  it("20 members redeeming the last 3 in stock at once: exactly 3 coupons", { timeout: 180_000 }, async () => {
    const rewardId = await createReward("最後三份", "3");
    const cookies = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const phoneNumber = `+8869123460${String(i).padStart(2, "0")}`;
        const { userId } = (await hook("/members", { phoneNumber, name: "搶兌會員" })) as { userId: string };
        await hook(`/members/${userId}/adjust`, { amount: 500 });
        const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
        return setCookie.map((c) => c.split(";")[0]).join("; ");
      }),
    );
    const answers = await Promise.all(
      cookies.map((cookie, i) =>
        post(i, "/member-center?index", { intent: "redeem", rewardId, key: `race-key-${i}` }, cookie),
      ),
    );
    expect(answers.every((r) => r.status < 500)).toBe(true);
    const coupons = await db.select().from(schema.coupon).where(eq(schema.coupon.rewardId, rewardId));
    expect(coupons).toHaveLength(3);
    expect(new Set(coupons.map((c) => c.memberId)).size).toBe(3);
    const [row] = await db.select().from(schema.reward).where(eq(schema.reward.id, rewardId));
    expect(row?.stock).toBe(0);
  });

  it("20 simultaneous saves of the same version: one is kept and audited, the others are told", async () => {
    const rewardId = await createReward("同時儲存", "");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(
          i,
          `/admin/rewards/${rewardId}`,
          { intent: "save", version: "1", name: `名稱 ${i}`, kind: "gift", pointsCost: "100", couponValidDays: "30" },
          `han_console=${admin.token}`,
        ),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const [row] = await db.select().from(schema.reward).where(eq(schema.reward.id, rewardId));
    expect(row?.version).toBe(2);
    const winner = statuses.indexOf(302);
    expect(row?.name).toBe(`名稱 ${winner}`);
    const audited = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "reward.updated"), eq(schema.auditLog.targetId, rewardId)));
    expect(audited).toHaveLength(1);
  });
});
