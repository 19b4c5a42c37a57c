import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ApiKeysModule from "../app/domain/pos/api-keys.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import { type CacheTestContext, defineCacheScenarios, login, memberCenter, newMember } from "./testing/cache-scenarios";
import { type AppInstance, type DevApps, startDevApps } from "./testing/dev-app";

/**
 * The caches of ADR 026 across two instances of one install on PostgreSQL: a change made through
 * instance A (logout, log out everywhere, password change, a member disabled by staff, a profile
 * edit, a ledger write, an API key revoked) is seen by instance B's very next request, through
 * LISTEN/NOTIFY; and when B's listening connection is cut, B reads the database until it listens
 * again and has cleared its caches. PostgreSQL only (TEST_DATABASE_URL).
 */
const HOOKS_SECRET = "p".repeat(40);
let apps: DevApps;
let a: AppInstance;
let b: AppInstance;
let ctx: CacheTestContext;
let db: Database;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, { label: "cache_pg" });
  [a, b] = apps.instances as [AppInstance, AppInstance];
  db = a.running.database.db;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  const schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const apiKeys = (await load("/app/domain/pos/api-keys.server.ts")) as typeof ApiKeysModule;
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const admin = await staff.createTestStaff(db, a.running.config.secrets.session, { role: "admin" });
  ctx = {
    a: a.base,
    b: b.base,
    hooksSecret: HOOKS_SECRET,
    adminCookie: `han_console=${admin.token}`,
    revokeApiKey: (id) => apiKeys.revokeApiKey(db, id),
    // Both instances: a scenario checks A after B, and A hears its own writes' notifications like any other.
    told: async (payload) => {
      await Promise.all([a.running.cacheBus.heard(payload), b.running.cacheBus.heard(payload)]);
    },
    renameMember: async (userId, nameZh) => {
      await db.update(schema.member).set({ nameZh }).where(eq(schema.member.userId, userId));
    },
  };
}, 240_000);

afterAll(() => apps?.stop());

describe("caches across two instances on PostgreSQL", () => {
  defineCacheScenarios(() => ctx);

  it("when B's listening connection is cut, B bypasses its caches, then listens again with them cleared", async () => {
    const m = await newMember(ctx, "斷線測試");
    const cookie = await login(ctx, m.userId);
    for (const base of [a.base, b.base, b.base]) expect(await memberCenter(base, cookie)).not.toBeNull();
    const bus = b.running.cacheBus;
    expect(bus.live).toBe(true);

    // Cut B's listening connection, as a failover or a network blip would.
    const pid = bus.backendPid;
    expect(pid).toEqual(expect.any(Number));
    await db.execute(sql`select pg_terminate_backend(${pid}::int)`);
    await bus.until(false);
    // Logged out on A while B may not be listening: B reads the database instead of its cache.
    expect((await fetch(`${a.base}/logout`, { method: "POST", headers: { origin: a.base, cookie } })).ok).toBe(true);
    expect(await memberCenter(b.base, cookie)).toBeNull();
    // Listening again (a new backend), with nothing from before: a new session is cached and invalidated as before.
    await bus.until(true);
    expect(bus.backendPid).not.toBe(pid);
    expect(await memberCenter(b.base, cookie)).toBeNull();
    const again = await login(ctx, m.userId);
    for (const base of [b.base, b.base]) expect(await memberCenter(base, again)).not.toBeNull();
    const renamed = ctx.told(`u:${m.userId}`);
    await ctx.renameMember(m.userId, "重新連線");
    await renamed;
    expect(await memberCenter(b.base, again)).toContain("重新連線");
  });
});
