import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ImagesTesting from "../app/domain/images/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Images with several app instances (ADR 028): the default database store is shared, so a picture uploaded
 * through one instance is served by the other; the same file sent to both at once is one image.
 * PostgreSQL only.
 */

let apps: DevApps;
let db: Database;
let schema: typeof Schema;
let files: typeof ImagesTesting;
let admin: TestStaff;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test" }, { label: "images_two" });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  files = (await load("/app/domain/images/testing.server.ts")) as typeof ImagesTesting;
  const staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  admin = await staffTesting.createTestStaff(db, first.running.config.secrets.session, { role: "admin" });
}, 240_000);

afterAll(() => apps?.stop());

describe("two instances, one database", () => {
  it("serves from one instance what was uploaded through the other; a file sent to both at once is one image", {
    timeout: 120_000,
  }, async () => {
    const [a, b] = apps.instances;
    if (!a || !b) throw new Error("two instances expected");
    const photo = await files.photoJpeg(640, 480);
    const send = (base: string) =>
      fetch(`${base}/admin/images/upload?altZh=${encodeURIComponent("兩台伺服器")}`, {
        method: "POST",
        body: photo as Uint8Array<ArrayBuffer>,
        headers: { origin: base, cookie: `han_console=${admin.token}`, "content-type": "image/jpeg" },
      });
    const answers = await Promise.all([send(a.base), send(b.base)]);
    expect(answers.map((r) => r.status).sort()).toEqual(expect.arrayContaining([201]));
    for (const r of answers) expect([200, 201]).toContain(r.status);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as { image: { id: string; hash: string } }[];
    expect(new Set(bodies.map((body) => body.image.id)).size).toBe(1);
    const hash = bodies[0]?.image.hash ?? "";
    const [{ n } = { n: -1 }] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.mediaImage)
      .where(sql`${schema.mediaImage.hash} = ${hash}`);
    expect(n).toBe(1);
    for (const base of [a.base, b.base]) {
      const served = await fetch(`${base}/media/${hash}/640.avif`);
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toBe("image/avif");
    }
  });
});
