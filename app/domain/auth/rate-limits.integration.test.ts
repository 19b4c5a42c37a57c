import type { Database } from "@platform/db/client";
import { rateLimitCounter } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { claimLimits } from "./rate-limits.server";

let db: Database;
useMigratedTestDatabase("rate_limits", (handle) => {
  db = handle.db;
});

const now = new Date("2026-11-28T04:00:00Z");

describe("claimLimits with a weight (an amount, issue 33 item 3)", () => {
  it("counts the weight and lets a claim through only while count + weight stays within max", async () => {
    const limit = (weight: number) => ({ key: "test:weighted", window: "day" as const, max: 1_000, weight });
    expect(await claimLimits(db, [limit(600)], now)).toEqual({ allowed: true });
    expect(await claimLimits(db, [limit(500)], now)).toMatchObject({ allowed: false });
    expect(await claimLimits(db, [limit(400)], now)).toEqual({ allowed: true });
    expect(await claimLimits(db, [limit(1)], now)).toMatchObject({ allowed: false });
    const rows = await db.select().from(rateLimitCounter).where(eq(rateLimitCounter.key, "test:weighted:day"));
    expect(rows.map((r) => r.count)).toEqual([1_000]);
  });

  it("refuses a first claim heavier than the whole window, and a limit of 0, writing nothing", async () => {
    const before = (await db.select().from(rateLimitCounter)).length;
    expect(await claimLimits(db, [{ key: "test:heavy", window: "day", max: 1_000, weight: 1_001 }], now)).toMatchObject(
      { allowed: false },
    );
    expect(await claimLimits(db, [{ key: "test:zero", window: "hour", max: 0 }], now)).toMatchObject({
      allowed: false,
    });
    expect(await db.select().from(rateLimitCounter)).toHaveLength(before);
  });

  it("all or nothing: a weighted set refused by one limit counts against none", async () => {
    const set = (weight: number) => [
      { key: "test:member", window: "day" as const, max: 1_000, weight },
      { key: "test:manager", window: "day" as const, max: 1_500, weight },
    ];
    expect(await claimLimits(db, set(1_000), now)).toEqual({ allowed: true });
    // The member has no room left; the manager's 500 must not be taken by the refused claim.
    expect(await claimLimits(db, set(500), now)).toMatchObject({ allowed: false });
    expect(await claimLimits(db, [{ key: "test:manager", window: "day", max: 1_500, weight: 500 }], now)).toEqual({
      allowed: true,
    });
  });

  it("a plain hit still counts one", async () => {
    const hit = { key: "test:plain", window: "minute" as const, max: 2 };
    expect(await claimLimits(db, [hit], now)).toEqual({ allowed: true });
    expect(await claimLimits(db, [hit], now)).toEqual({ allowed: true });
    expect(await claimLimits(db, [hit], now)).toMatchObject({ allowed: false });
  });
});
