import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Campaigns from "../app/domain/member-messages/campaigns.server";
import type * as Delivery from "../app/domain/member-messages/delivery.server";
import type * as Occasions from "../app/domain/member-messages/occasions.server";
import type * as Unsubscribe from "../app/domain/member-messages/unsubscribe.server";
import type * as StaffTesting from "../app/domain/staff/testing.server";
import { testAdminActor } from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Messages to members over two instances on ONE PostgreSQL database (ADR 034): delivery passes run at once on
 * both, over four campaigns to the same members — every message is sent once (no provider call twice for a row),
 * nobody gets more than the weekly cap of two, and an occasion recorded by both instances at once is one row.
 * PostgreSQL only (PGlite is one process and cannot race).
 */

let apps: DevApps;
let db: Database;
let schema: typeof Schema;
let delivery: typeof Delivery;
let campaigns: typeof Campaigns;
let occasions: typeof Occasions;
let unsubscribe: typeof Unsubscribe;
let staffTesting: typeof StaffTesting;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test", TEST_HOOKS_SECRET: "m".repeat(40) }, { label: "messages_race" });
  for (const instance of apps.instances) await instance.running.dispatcher.stop();
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  delivery = (await load("/app/domain/member-messages/delivery.server.ts")) as typeof Delivery;
  campaigns = (await load("/app/domain/member-messages/campaigns.server.ts")) as typeof Campaigns;
  occasions = (await load("/app/domain/member-messages/occasions.server.ts")) as typeof Occasions;
  unsubscribe = (await load("/app/domain/member-messages/unsubscribe.server.ts")) as typeof Unsubscribe;
  staffTesting = (await load("/app/domain/staff/testing.server.ts")) as typeof StaffTesting;
}, 240_000);

afterAll(() => apps?.stop());

const { actor: admin, audit } = testAdminActor("race-admin");

describe("two instances delivering at once", () => {
  it("sends every message once and caps marketing at two a week per member", async () => {
    const city = "南投縣";
    const base = apps.instances[0]?.base ?? "";
    const memberIds: string[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${base}/__test/members`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-test-hooks-secret": "m".repeat(40) },
        body: JSON.stringify({
          phoneNumber: `+8869${String(50_000_000 + (process.pid % 1000) * 100 + i).slice(-8)}`,
          city,
          marketing: { sms: true },
        }),
      });
      expect(res.status).toBe(200);
      memberIds.push(((await res.json()) as { memberId: string }).memberId);
    }
    const at = new Date("2027-08-04T03:00:00Z"); // Wednesday 11:00 Taipei
    for (let c = 0; c < 4; c++) {
      const draft = await campaigns.createCampaign(
        db,
        admin,
        {
          name: `同時寄送 ${c}`,
          audience: { city },
          lineText: null,
          smsText: `第 ${c} 則優惠`,
          emailSubject: null,
          emailBody: null,
        },
        audit,
        at,
      );
      await campaigns.scheduleCampaign(db, admin, draft.id, draft.version, null, audit, { lineOn: true }, at);
    }

    // Every provider call, from both instances: a row sent twice would show its key twice.
    const keys: string[] = [];
    const depsOf = (i: number) => {
      const deps = apps.instances[i % 2]?.running.delivery as Delivery.DeliveryDeps;
      return {
        ...deps,
        batchSize: 40,
        sms: {
          name: deps.sms.name,
          async send(sms: { to: string; text: string; idempotencyKey: string }) {
            keys.push(sms.idempotencyKey);
            return deps.sms.send(sms);
          },
        },
      } as Delivery.DeliveryDeps;
    };
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => delivery.deliverDue(depsOf(i), new Date(at.getTime() + 1000 + i))),
    );
    // And once more, to finish anything a pass released for the next one.
    await Promise.all(
      Array.from({ length: 2 }, (_, i) => delivery.deliverDue(depsOf(i), new Date(at.getTime() + 60_000))),
    );

    expect(new Set(keys).size).toBe(keys.length);
    const rows = await db.select().from(schema.memberMessage).where(inArray(schema.memberMessage.memberId, memberIds));
    expect(rows).toHaveLength(30 * 4);
    for (const id of memberIds) {
      const mine = rows.filter((r) => r.memberId === id).map((r) => r.status);
      expect(
        mine.filter((s) => s === "sent"),
        id,
      ).toHaveLength(2);
      expect(
        mine.filter((s) => s === "capped"),
        id,
      ).toHaveLength(2);
    }
    expect(keys).toHaveLength(30 * 2);
    const counters = await db
      .select()
      .from(schema.rateLimitCounter)
      .where(like(schema.rateLimitCounter.key, "marketing:%"));
    const ours = counters.filter((c) => memberIds.some((id) => c.key === `marketing:${id}:week`));
    expect(ours.map((c) => c.count)).toEqual(Array(30).fill(2));
  });

  it("an occasion recorded by both instances at once is one message", async () => {
    const base = apps.instances[0]?.base ?? "";
    const res = await fetch(`${base}/__test/members`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-hooks-secret": "m".repeat(40) },
      body: JSON.stringify({ phoneNumber: `+8869${String(40_000_000 + (process.pid % 1000)).slice(-8)}` }),
    });
    const { memberId } = (await res.json()) as { memberId: string };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        occasions.recordOccasion(apps.instances[i % 2]?.running.database.db as Database, {
          memberId,
          occasion: "birthday:2027",
          kind: "birthday",
          data: { points: 200 },
        }),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await db.select().from(schema.memberMessage).where(eq(schema.memberMessage.memberId, memberId));
    expect(rows).toHaveLength(1);
  });

  /** The same form posted 20 times at once, alternating between the two instances. */
  function postAll(pathname: string, body: string, headers: Record<string, string>, count = 20) {
    return Promise.all(
      Array.from({ length: count }, (_, i) => {
        const base = apps.instances[i % 2]?.base ?? "";
        return fetch(`${base}${pathname}`, {
          method: "POST",
          body,
          headers: { "content-type": "application/x-www-form-urlencoded", origin: base, ...headers },
          redirect: "manual",
        });
      }),
    );
  }

  async function audits(action: string, targetId: string) {
    const rows = await db.select().from(schema.auditLog).where(eq(schema.auditLog.action, action));
    return rows.filter((r) => r.targetId === targetId).length;
  }

  it("twenty simultaneous sends of one draft send it once; twenty saves of one automatic message save one", async () => {
    const secret = apps.instances[0]?.running.config.secrets.session as string;
    const staff = await staffTesting.createTestStaff(db, secret, { role: "admin" });
    const cookie = `han_console=${staff.token}`;
    const base = apps.instances[0]?.base ?? "";
    await fetch(`${base}/__test/members`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-hooks-secret": "m".repeat(40) },
      body: JSON.stringify({
        phoneNumber: `+8869${String(30_000_000 + (process.pid % 1000)).slice(-8)}`,
        city: "宜蘭縣",
      }),
    });
    const fields = { name: "同時寄出", city: "宜蘭縣", smsText: "宜蘭會員日", when: "now" };
    const created = await fetch(`${base}/admin/messages/campaigns/new`, {
      method: "POST",
      body: new URLSearchParams({ ...fields, intent: "save" }),
      headers: { origin: base, cookie },
      redirect: "manual",
    });
    const id = /campaigns\/([0-9a-f-]{36})/.exec(created.headers.get("location") ?? "")?.[1] ?? "";
    expect(id).not.toBe("");
    const answers = await postAll(
      `/admin/messages/campaigns/${id}`,
      new URLSearchParams({ ...fields, intent: "send", version: "1" }).toString(),
      { cookie },
    );
    expect(answers.filter((r) => r.status === 302)).toHaveLength(1);
    expect(answers.every((r) => r.status === 302 || r.status === 409)).toBe(true);
    expect(await audits("campaign.sent", id)).toBe(1);
    const [row] = await db.select().from(schema.campaign).where(eq(schema.campaign.id, id));
    expect(row?.status === "scheduled" || row?.status === "sending" || row?.status === "sent").toBe(true);

    const saves = await postAll(
      "/admin/messages/automatic/coupon-expiring",
      new URLSearchParams([
        ["enabled", "on"],
        ["channels", "line"],
        ["textZh", "{name}，{reward} 快到期了"],
        ["textEn", "{name}, {reward} expires soon"],
        ["version", "0"],
      ]).toString(),
      { cookie },
    );
    expect(saves.filter((r) => r.status === 302)).toHaveLength(1);
    expect(saves.filter((r) => r.status === 409)).toHaveLength(19);
    expect(await audits("messages.automatic-updated", "coupon-expiring")).toBe(1);
  });

  it("twenty simultaneous one-click unsubscribes record one refusal", async () => {
    const base = apps.instances[0]?.base ?? "";
    const res = await fetch(`${base}/__test/members`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-test-hooks-secret": "m".repeat(40) },
      body: JSON.stringify({
        phoneNumber: `+8869${String(20_000_000 + (process.pid % 1000)).slice(-8)}`,
        email: `race-${process.pid}@example.com`,
        marketing: { email: true },
      }),
    });
    const m = (await res.json()) as { userId: string; memberId: string };
    const secret = apps.instances[0]?.running.config.secrets.session as string;
    const token = unsubscribe.unsubscribeToken(secret, { memberId: m.memberId, channel: "email" });
    const answers = await postAll(`/unsubscribe/${token}`, "List-Unsubscribe=One-Click", {
      origin: "https://mail.example.net",
    });
    expect(answers.every((r) => r.status === 200)).toBe(true);
    const refusals = await db.select().from(schema.memberConsent).where(eq(schema.memberConsent.userId, m.userId));
    expect(refusals.filter((c) => c.kind === "marketing_email" && c.source === "one-click")).toHaveLength(1);
  });
});
