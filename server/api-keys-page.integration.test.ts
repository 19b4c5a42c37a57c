import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as AuditModule from "../app/domain/audit/audit.server";
import type * as LoyaltyTestingModule from "../app/domain/loyalty/testing.server";
import type * as StaffTestingModule from "../app/domain/staff/testing.server";
import type { TestStaff } from "../app/domain/staff/testing.server";
import type * as TotpModule from "../app/domain/staff/totp";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The console's POS API keys page (issue 14 item 8): admins only; a key for a store, its secret shown once,
 * working at once against the POS API; revoking is immediate (the next call is a 401); the step-up code; every
 * bad input beside its field; each write audited.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let audit: typeof AuditModule;
let totp: typeof TotpModule;
let loyalty: typeof LoyaltyTestingModule;
let staffTesting: typeof StaffTestingModule;
let admin: TestStaff;
let manager: TestStaff;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: "k".repeat(40) }, "api_keys_page");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  audit = (await load("/app/domain/audit/audit.server.ts")) as typeof AuditModule;
  totp = (await load("/app/domain/staff/totp.ts")) as typeof TotpModule;
  loyalty = (await load("/app/domain/loyalty/testing.server.ts")) as typeof LoyaltyTestingModule;
  staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTestingModule;
  const secret = app.running.config.secrets.session;
  admin = await staffTesting.createTestStaff(db, secret, { role: "admin" });
  manager = await staffTesting.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
}, 180_000);

afterAll(() => app?.stop());

const cookieOf = (staff: TestStaff) => `han_console=${staff.token}`;

function post(fields: Record<string, string>, cookie: string) {
  return fetch(`${base}/admin/api-keys`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, cookie },
    redirect: "manual",
  });
}

describe("POS API keys in the console", () => {
  it("creates a key shown once that works at once, and revoking it makes the next call a 401", async () => {
    expect((await fetch(`${base}/admin/api-keys`, { redirect: "manual" })).headers.get("location")).toMatch(
      /^\/admin\/login/,
    );
    expect((await fetch(`${base}/admin/api-keys`, { headers: { cookie: cookieOf(manager) } })).status).toBe(403);
    expect((await post({ intent: "create", storeId: "banqiao", name: "x" }, cookieOf(manager))).status).toBe(403);

    const created = await post(
      { intent: "create", storeId: "xinyi-flagship", name: "信義 1 號收銀機" },
      cookieOf(admin),
    );
    expect(created.status).toBe(200);
    const html = await created.text();
    const secret = /value="(hlpos_[A-Za-z0-9_-]+)"/.exec(html)?.[1] ?? "";
    expect(secret).not.toBe("");
    const member = await loyalty.newMember(db);
    const balance = () =>
      fetch(`${base}/api/v1/members/${member.memberNumber}/balance`, {
        headers: { authorization: `Bearer ${secret}` },
      });
    expect((await balance()).status).toBe(200);
    // The list never shows the secret again, only its prefix.
    const list = await (await fetch(`${base}/admin/api-keys`, { headers: { cookie: cookieOf(admin) } })).text();
    expect(list).not.toContain(secret);
    expect(list).toContain(secret.slice(0, 12));
    const id = /name="keyId" value="([0-9a-f-]{36})"/.exec(list)?.[1] ?? "";
    const revoked = await post({ intent: "revoke", keyId: id }, cookieOf(admin));
    expect(revoked.headers.get("location")).toBe("/admin/api-keys?revoked=1");
    expect((await balance()).status).toBe(401);
    expect((await post({ intent: "revoke", keyId: id }, cookieOf(admin))).status).toBe(409);
    const { eq } = await import("drizzle-orm");
    const rows = await db.select().from(schema.auditLog).where(eq(schema.auditLog.targetId, id));
    expect(rows.map((r) => r.action).sort()).toEqual(["api_key.created", "api_key.revoked"]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it("answers bad input beside its field, keeps what was typed, creates nothing; asks the code when it is old", async () => {
    const before = (await db.select().from(schema.apiKey)).length;
    for (const [fields, field, message] of [
      [{ storeId: "no-such-store", name: "收銀機" }, "storeId", "門市不存在"],
      [{ storeId: "", name: "收銀機" }, "storeId", "門市不存在"],
      [{ storeId: "xinyi-flagship", name: "" }, "name", "請輸入 1 到 50 字的名稱"],
      [{ storeId: "xinyi-flagship", name: "長".repeat(51) }, "name", "請輸入 1 到 50 字的名稱"],
    ] as const) {
      const response = await post({ intent: "create", ...fields }, cookieOf(admin));
      expect(response.status, field).toBe(400);
      const html = await response.text();
      expect(html, JSON.stringify(fields)).toContain(message);
      if (fields.name) expect(html).toContain(`value="${fields.name}"`);
    }
    expect((await db.select().from(schema.apiKey)).length).toBe(before);

    const stale = await staffTesting.createTestStaff(db, app.running.config.secrets.session, {
      role: "admin",
      secondFactorAt: new Date(Date.now() - 30 * 60_000),
    });
    const asked = await post({ intent: "create", storeId: "banqiao", name: "板橋收銀機" }, cookieOf(stale));
    expect(asked.status).toBe(401);
    expect(await asked.text()).toContain('value="板橋收銀機"');
    const code = totp.hotp(totp.base32Decode(stale.totpSecret), totp.totpStep(new Date()));
    const done = await post(
      { intent: "create", storeId: "banqiao", name: "板橋收銀機", stepUpCode: code },
      cookieOf(stale),
    );
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("hlpos_");
    expect(await audit.verifyAuditChain(db)).toMatchObject({ ok: true });
  });

  // E-invoice carrier at the till (ADR 041): the einvoice:read scope granted on creation and changed later.
  it("grants einvoice:read when creating a key, removes and grants it again, each change audited", async () => {
    const created = await post(
      { intent: "create", storeId: "xinyi-flagship", name: "信義載具收銀機", einvoiceRead: "on" },
      cookieOf(admin),
    );
    expect(created.status).toBe(200);
    const secret = /value="(hlpos_[A-Za-z0-9_-]+)"/.exec(await created.text())?.[1] ?? "";
    const member = await loyalty.newMember(db, { einvoiceCarrier: "/ABC+123" });
    const read = () =>
      fetch(`${base}/api/v1/members/einvoice?memberNumber=${member.memberNumber}`, {
        headers: { authorization: `Bearer ${secret}` },
      });
    expect(await (await read()).json()).toMatchObject({ sharing: true, carrier: "/ABC+123" });
    const { eq } = await import("drizzle-orm");
    const [key] = await db
      .select()
      .from(schema.apiKey)
      .where(eq(schema.apiKey.prefix, secret.slice(0, 12)));
    expect(key?.scopes).toEqual(["einvoice:read"]);
    const id = key?.id ?? "";
    const list = await (await fetch(`${base}/admin/api-keys`, { headers: { cookie: cookieOf(admin) } })).text();
    expect(list).toContain(`aria-label="取消「信義載具收銀機」讀取載具與統編"`);

    expect((await post({ intent: "scopes", keyId: id, einvoiceRead: "off" }, cookieOf(manager))).status).toBe(403);
    const removed = await post({ intent: "scopes", keyId: id, einvoiceRead: "off" }, cookieOf(admin));
    expect(removed.headers.get("location")).toBe("/admin/api-keys?scopes=1");
    const refused = await read();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: { code: "scope_missing" } });
    await post({ intent: "scopes", keyId: id, einvoiceRead: "on" }, cookieOf(admin));
    expect((await read()).status).toBe(200);
    expect((await post({ intent: "scopes", keyId: "x", einvoiceRead: "on" }, cookieOf(admin))).status).toBe(409);

    const rows = await db.select().from(schema.auditLog).where(eq(schema.auditLog.targetId, id));
    expect(rows.map((r) => r.action)).toEqual([
      "api_key.created",
      "api_key.scopes_changed",
      "api_key.scope_refused",
      "api_key.scopes_changed",
    ]);
    expect(rows[0]?.changes).toMatchObject({ scopes: { after: ["einvoice:read"] } });
    expect(rows[1]?.changes).toEqual({ scopes: { before: ["einvoice:read"], after: [] } });
    const reads = await db.select().from(schema.auditLog).where(eq(schema.auditLog.targetId, member.id));
    expect(reads.map((r) => [r.action, r.apiKeyId, r.storeId])).toEqual([
      ["member.einvoice_read", id, "xinyi-flagship"],
      ["member.einvoice_read", id, "xinyi-flagship"],
    ]);
  });
});
