import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as TestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Publishing stores over two instances on ONE PostgreSQL database (ADR 027): 20 simultaneous saves of one
 * draft from the same version, spread over both instances, store exactly one (the others are told, 409), and
 * a publish on one instance reaches the other instance's render cache within 10 s.
 */

let apps: DevApps;
let db: Database;
let schema: typeof Schema;
let admin: TestStaff;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: "p".repeat(40) }, { label: "stores_race" });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const testing = (await load("/app/domain/staff/testing.server.ts")) as typeof TestingModule;
  admin = await testing.createTestStaff(db, first.running.config.secrets.session, { role: "admin" });
}, 240_000);

afterAll(() => apps?.stop());

const baseOf = (i: number) => apps.instances[i % apps.instances.length]?.base ?? "";

function form(version: string, nameZh: string): URLSearchParams {
  return new URLSearchParams({
    intent: "save",
    version,
    nameZh,
    nameEn: "Banqiao",
    summaryZh: "板橋門市。",
    summaryEn: "The Banqiao showroom.",
    postalCode: "220",
    addressZh: "文化路一段 1 號",
    addressEn: "No. 1, Sec. 1, Wenhua Rd.",
    phone: "02-2960-0101",
    email: "banqiao@han-living.example",
    latitude: "25.0143",
    longitude: "121.4673",
    hours0: "10:30–21:00",
    hours1: "10:30–21:00",
    hours2: "10:30–21:00",
    hours3: "10:30–21:00",
    hours4: "10:30–21:00",
    hours5: "10:30–21:00",
    hours6: "10:30–21:00",
  });
}

function post(i: number, pathname: string, body: URLSearchParams) {
  const base = baseOf(i);
  return fetch(`${base}${pathname}`, {
    method: "POST",
    body,
    headers: { origin: base, cookie: `han_console=${admin.token}` },
    redirect: "manual",
  });
}

describe("store drafts and publishing over two instances", () => {
  it("20 simultaneous saves from one version: one is stored, 19 are told; one audit row", async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => post(i, "/admin/stores/banqiao", form("0", `板橋門市 ${i}`))),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 302)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const [draft] = await db
      .select()
      .from(schema.contentDraft)
      .where(and(eq(schema.contentDraft.kind, "store"), eq(schema.contentDraft.entityId, "banqiao")));
    expect(draft?.version).toBe(1);
    const audit = await db
      .select()
      .from(schema.auditLog)
      .where(and(eq(schema.auditLog.action, "store.draft_saved"), eq(schema.auditLog.targetId, "banqiao")));
    expect(audit).toHaveLength(1);
  });

  it("a publish on one instance shows on the other within 10 s, whatever its render cache held", async () => {
    const page = () => fetch(`${baseOf(1)}/store-detail/banqiao`).then((r) => r.text());
    expect(await page()).not.toContain("板橋門市（新）");
    await page(); // cached on instance 2
    expect((await post(0, "/admin/stores/banqiao", form("1", "板橋門市（新）"))).status).toBe(302);
    expect(
      (await post(0, "/admin/stores/banqiao", new URLSearchParams({ intent: "publish", version: "2" }))).status,
    ).toBe(302);
    await expect.poll(page, { timeout: 10_000, interval: 200 }).toContain("板橋門市（新）");
  });
});
