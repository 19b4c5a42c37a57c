import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as TestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Saved segments' names under simultaneous saves (issue 38 part 6, ADR 056): two instances of the full app on ONE
 * PostgreSQL database; two admins save a segment of the same name at the same moment, one on each instance. One
 * wins (302, audited once); the other is told beside the name field (409), what was typed kept. PostgreSQL only.
 */

let apps: DevApps;
let db: Database;
let schema: typeof Schema;
let admins: TestStaff[];

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: "z".repeat(40) }, { label: "segments_race" });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  const secret = first.running.config.secrets.session;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  const testing = (await load("/app/domain/staff/testing.server.ts")) as typeof TestingModule;
  admins = [
    await testing.createTestStaff(db, secret, { role: "admin" }),
    await testing.createTestStaff(db, secret, { role: "admin" }),
  ];
}, 240_000);

afterAll(() => apps?.stop());

describe("two admins saving one segment name at once, over two instances", () => {
  it("one wins, the other is told beside the name field; repeated for several names", async () => {
    for (const [round, name] of ["高消費熟客", "Champions", "流失 風險"].entries()) {
      const answers = await Promise.all(
        [0, 1].map((i) => {
          const base = apps.instances[i]?.base ?? "";
          // The second admin types the name in another case and spacing: the same name all the same.
          const typed = i === 0 ? name : ` ${name.toUpperCase().replace(" ", "  ")} `;
          return fetch(`${base}/admin/segments/new`, {
            method: "POST",
            body: new URLSearchParams({ name: typed, rfmGroup: round === 1 ? "champions" : "at-risk" }),
            headers: { origin: base, cookie: `han_console=${admins[i]?.token}; locale=zh-TW` },
            redirect: "manual",
          });
        }),
      );
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, name).toEqual([302, 409]);
      const loser = answers.find((r) => r.status === 409);
      const html = (await loser?.text()) ?? "";
      expect(html).toContain("已有同名的分群，請換一個名稱。");
      expect(html).toMatch(/aria-invalid="true"[^>]*name="name"|name="name"[^>]*aria-invalid="true"/);
      const rows = await db
        .select()
        .from(schema.segment)
        .where(and(eq(schema.segment.nameKey, name.toLowerCase()), eq(schema.segment.version, 1)));
      expect(rows).toHaveLength(1);
      const created = await db
        .select()
        .from(schema.auditLog)
        .where(and(eq(schema.auditLog.action, "segment.created"), eq(schema.auditLog.targetId, rows[0]?.id ?? "")));
      expect(created).toHaveLength(1);
    }
  });
});
