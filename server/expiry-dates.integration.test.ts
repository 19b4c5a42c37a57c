import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as PointsModule from "../app/domain/loyalty/points.server";
import type * as RewardsModule from "../app/domain/loyalty/rewards.server";
import type * as ComposeModule from "../app/domain/member-messages/compose.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * One lot and one coupon, every page that shows their expiry (issue 33 item 9): expiries are stored as exclusive
 * ends (the first instant no longer valid), and every surface names the LAST VALID Taipei day through the one
 * formatter (formatLastValidDay) — the member center, the counter, the console member page and the messages.
 * Points earned in 2026 end at 2028-01-01 00:00 Taipei: "2027/12/31". A 30-day coupon redeemed on 2026-12-06
 * ends at 2027-01-06 00:00 Taipei: "2027/01/05". The POS API names no expiry date (only the balance), which
 * must be the same 344 points.
 */

const HOOKS_SECRET = "expiry-dates-test-hooks-secret-0123456789";
const NOW = "2026-12-20T12:00:00+08:00";
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let points: typeof PointsModule;
let rewards: typeof RewardsModule;
let compose: typeof ComposeModule;
let admin: TestStaff;
let clerk: TestStaff;
let memberId: string;
let memberNumber: string;
let memberCookie: string;
let couponExpiresAt: Date;

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

/** A page as it reads at NOW, as text (tags and React's text separators dropped, spaces collapsed). */
async function read(pathname: string, cookie: string): Promise<string> {
  const response = await fetch(`${base}${pathname}`, {
    headers: { cookie: `${cookie}; locale=zh-TW`, "x-test-hooks-secret": HOOKS_SECRET, "x-test-now": NOW },
    redirect: "manual",
  });
  expect(response.status, pathname).toBe(200);
  return (await response.text())
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");
}

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "expiry_dates");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  points = (await load("/app/domain/loyalty/points.server.ts")) as typeof PointsModule;
  rewards = (await load("/app/domain/loyalty/rewards.server.ts")) as typeof RewardsModule;
  compose = (await load("/app/domain/member-messages/compose.server.ts")) as typeof ComposeModule;
  const staff = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staff.createTestStaff(db, secret, { role: "admin" });
  clerk = await staff.createTestStaff(db, secret, { role: "staff", storeIds: ["xinyi-flagship"] });
  const created = (await hook("/members", { phoneNumber: "+886912349901", name: "到期測試" })) as {
    userId: string;
    memberId: string;
    memberNumber: string;
  };
  memberId = created.memberId;
  memberNumber = created.memberNumber;
  const { setCookie } = (await hook("/sessions", { userId: created.userId })) as { setCookie: string[] };
  memberCookie = setCookie.map((c) => c.split(";")[0]).join("; ");

  // 444 points earned in June 2026 (one lot, ending 2028-01-01 00:00 Taipei); 100 of them become a 30-day coupon.
  const earned = new Date("2026-06-15T10:00:00+08:00");
  await points.adjustPoints(db, { memberId, amount: 444, reason: "seed", idempotencyKey: "seed" }, earned);
  const [item] = await db
    .insert(schema.reward)
    .values({ name: "NT$100 折價券", kind: "amount-off", amountOff: 100, pointsCost: 100, couponValidDays: 30 })
    .returning();
  const { coupon } = await rewards.redeemReward(
    db,
    { memberId, rewardId: item?.id ?? "", idempotencyKey: "c30" },
    new Date("2026-12-06T10:00:00+08:00"),
  );
  couponExpiresAt = coupon.expiresAt;
}, 180_000);

afterAll(() => app?.stop());

describe("an expiry date", () => {
  it("is stored as the exclusive end: the instant after the last valid day", () => {
    expect(couponExpiresAt.toISOString()).toBe("2027-01-05T16:00:00.000Z");
  });

  it("reads the same last valid day in the member center, at the counter, on the console member page and in messages", async () => {
    const center = await read("/member-center", memberCookie);
    expect(center).toContain("344 點將於 2027/12/31 到期");
    expect(center).toContain("有效期限至 2027/01/05");

    const counter = await read(`/admin/counter/member/${memberId}`, `han_console=${clerk.token}`);
    expect(counter).toContain("344 點，2027/12/31 到期");
    expect(counter).toContain("2027/01/05 到期");
    expect(counter).not.toContain("2028/01/01");
    expect(counter).not.toContain("2027/01/06");

    const console = await read(`/admin/members/${memberId}`, `han_console=${admin.token}`);
    expect(console).toContain("344 點，2027/12/31 到期");
    expect(console).toContain("有效期限至 2027/01/05");
    expect(console).not.toContain("2028/01/01");
    expect(console).not.toContain("2027/01/06");

    // The reminder the member would get names the same day.
    const ctx = { publicBaseUrl: base, secret: "s".repeat(32), storeName: () => "", now: new Date(NOW) };
    const recipient = { memberId, name: "到期測試", locale: "zh-TW" as const };
    expect(
      compose.automaticValues({ reward: "NT$100 折價券", expiresAt: couponExpiresAt.toISOString() }, recipient, ctx)
        .date,
    ).toBe("2027/01/05");
    expect(compose.automaticValues({ points: 344, expiresAt: "2027-12-31T16:00:00.000Z" }, recipient, ctx).date).toBe(
      "2027/12/31",
    );

    // The POS API shows no expiry date; its balance is the same lot's 344 points.
    const { secret } = (await hook("/api-keys", { storeId: "xinyi-flagship" })) as { secret: string };
    const api = await fetch(`${base}/api/v1/members/${memberNumber}/balance`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    expect(api.status).toBe(200);
    const body = (await api.json()) as Record<string, unknown>;
    expect(body.balance).toBe(344);
    expect(JSON.stringify(body)).not.toMatch(/expir/i);
  });
});
