import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import type { JobQueue } from "@platform/jobs/queue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as GrantsModule from "../app/domain/imports/grants.server";
import type * as LoyaltyTesting from "../app/domain/loyalty/testing.server";
import type * as ActorModule from "../app/domain/staff/actor";
import type * as TestingModule from "../app/domain/staff/testing.server";
import { type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Bulk point grants under simultaneous requests and workers (issue 35 item 5): two instances of the full app on
 * ONE PostgreSQL database, each running the grant job's worker. Twenty simultaneous approvals of one grant over
 * both instances decide it once and book it once; the job run twice at once (and by the queue) books each row
 * once. PostgreSQL only (PGlite is one process and cannot race).
 */

let apps: DevApps;
let db: Database;
let jobs: JobQueue;
let secret: string;
let schema: typeof Schema;
let testing: typeof TestingModule;
let loyalty: typeof LoyaltyTesting;
let grants: typeof GrantsModule;
let actors: typeof ActorModule;

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test" }, { label: "grants_race" });
  const [first] = apps.instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  jobs = first.running.jobs;
  secret = first.running.config.secrets.session;
  const load = (file: string) => apps.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  testing = (await load("/app/domain/staff/testing.server.ts")) as typeof TestingModule;
  loyalty = (await load("/app/domain/loyalty/testing.server.ts")) as typeof LoyaltyTesting;
  grants = (await load("/app/domain/imports/grants.server.ts")) as typeof GrantsModule;
  actors = (await load("/app/domain/staff/actor.ts")) as typeof ActorModule;
}, 240_000);

afterAll(() => apps?.stop());

const where = { ip: null, userAgent: "vitest", requestId: null };

function postAll(count: number, pathname: string, fields: Record<string, string>, cookie: string) {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const base = apps.instances[i % apps.instances.length]?.base ?? "";
      return fetch(`${base}${pathname}`, {
        method: "POST",
        body: new URLSearchParams(fields),
        headers: { origin: base, cookie },
        redirect: "manual",
      });
    }),
  );
}

async function waitForEnd(runId: string) {
  const { eq } = await import("drizzle-orm");
  for (let i = 0; i < 240; i++) {
    const [run] = await db.select().from(schema.importRun).where(eq(schema.importRun.id, runId));
    if (run && ["done", "cancelled", "failed"].includes(run.status)) return run;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("the grant did not finish");
}

async function entriesOf(runId: string) {
  const { like } = await import("drizzle-orm");
  return db
    .select()
    .from(schema.pointEntry)
    .where(like(schema.pointEntry.idempotencyKey, `grant:${runId}:%`));
}

async function auditOf(runId: string) {
  const { eq } = await import("drizzle-orm");
  const rows = await db.select().from(schema.auditLog).where(eq(schema.auditLog.targetId, runId));
  return rows.map((r) => r.action).sort();
}

describe("bulk grants at the same moment, over two instances", () => {
  it("20 simultaneous approvals by a second admin decide once; the grant books once", async () => {
    const manager = await testing.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const admin = await testing.createTestStaff(db, secret, { role: "admin" });
    const members = await Promise.all(Array.from({ length: 30 }, () => loyalty.newMember(db)));
    const csv = ["會員編號,點數", ...members.map((m) => `${m.memberNumber},100`)].join("\n");
    const starter = actors.staffAuditContext(manager.actor, where);
    const run = await grants.stageGrantCsv(db, manager.actor, {
      name: "race.csv",
      bytes: new TextEncoder().encode(csv),
      reason: "並發測試",
      starter,
    });
    expect(await grants.submitGrant(db, jobs, manager.actor, run.id, starter)).toMatchObject({
      status: "awaiting_approval",
    });
    const answers = await postAll(20, `/admin/grants/${run.id}`, { intent: "approve" }, `han_console=${admin.token}`);
    const approved = answers.filter(
      (r) => r.status === 302 && r.headers.get("location") === `/admin/grants/${run.id}?done=approved`,
    );
    expect(approved).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(19);
    const ended = await waitForEnd(run.id);
    expect(ended).toMatchObject({ status: "done", pointsBooked: 3000, rowsDone: 30 });
    expect(await entriesOf(run.id)).toHaveLength(30);
    for (const m of members.slice(0, 5)) {
      expect(await loyalty.ledgerTotals(db, m.id)).toMatchObject({ balance: 100, ledgerSum: 100 });
    }
    expect(await auditOf(run.id)).toEqual([
      "points.bulk_grant_approved",
      "points.bulk_grant_requested",
      "points.bulk_granted",
    ]);
  }, 180_000);

  it("the job run twice at once, beside the queue's own worker, books each row exactly once", async () => {
    const manager = await testing.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const members = await Promise.all(Array.from({ length: 40 }, () => loyalty.newMember(db)));
    const csv = ["會員編號,點數", ...members.map((m) => `${m.memberNumber},10`)].join("\n");
    const starter = actors.staffAuditContext(manager.actor, where);
    const run = await grants.stageGrantCsv(db, manager.actor, {
      name: "twice.csv",
      bytes: new TextEncoder().encode(csv),
      reason: "兩次",
      starter,
    });
    await grants.submitGrant(db, jobs, manager.actor, run.id, starter);
    await Promise.all([
      grants.applyGrant(db, run.id, { batchSize: 3 }),
      grants.applyGrant(db, run.id, { batchSize: 7 }),
    ]);
    const ended = await waitForEnd(run.id);
    expect(ended).toMatchObject({ status: "done", pointsBooked: 400, rowsDone: 40 });
    expect(await entriesOf(run.id)).toHaveLength(40);
    for (const m of members) expect((await loyalty.ledgerTotals(db, m.id)).balance).toBe(10);
    expect(await auditOf(run.id)).toEqual(["points.bulk_granted"]);
  }, 180_000);

  it("twenty grants of 300 sent at once over both instances: the starter's direct total stays within the limit", async () => {
    const { eq, inArray } = await import("drizzle-orm");
    const manager = await testing.createTestStaff(db, secret, { role: "manager", storeIds: ["xinyi-flagship"] });
    const starter = actors.staffAuditContext(manager.actor, where);
    const members = await Promise.all(Array.from({ length: 20 }, () => loyalty.newMember(db)));
    const runs = [];
    for (const [i, m] of members.entries()) {
      runs.push(
        await grants.stageGrantCsv(db, manager.actor, {
          name: `split-${i}.csv`,
          bytes: new TextEncoder().encode(`會員編號,點數\n${m.memberNumber},300\n`),
          reason: "拆成二十筆",
          starter,
        }),
      );
    }
    const cookie = `han_console=${manager.token}`;
    const send = (runId: string, i: number) => {
      const base = apps.instances[i % apps.instances.length]?.base ?? "";
      return fetch(`${base}/admin/grants/${runId}`, {
        method: "POST",
        body: new URLSearchParams({ intent: "submit" }),
        headers: { origin: base, cookie },
        redirect: "manual",
      });
    };
    // All twenty at once: one may be queued (one grant applies at a time), the rest wait for approval or are
    // refused as busy (409) with nothing counted.
    let answers = await Promise.all(runs.map((run, i) => send(run.id, i)));
    for (const answer of answers) expect([302, 409]).toContain(answer.status);
    // Then the refused ones again, each once the grant before has ended, as a manager splitting would.
    for (let round = 0; round < 20; round++) {
      const left = await db
        .select()
        .from(schema.importRun)
        .where(
          inArray(
            schema.importRun.id,
            runs.map((r) => r.id),
          ),
        );
      const active = left.find((r) => r.status === "queued" || r.status === "running");
      if (active) await waitForEnd(active.id);
      const unsent = left.filter((r) => r.status === "checked");
      if (unsent.length === 0 && !active) break;
      answers = await Promise.all(unsent.map((run, i) => send(run.id, i)));
      for (const answer of answers) expect([302, 409]).toContain(answer.status);
    }
    const ended = await db
      .select()
      .from(schema.importRun)
      .where(
        inArray(
          schema.importRun.id,
          runs.map((r) => r.id),
        ),
      );
    const done = ended.filter((r) => r.status === "done");
    const waiting = ended.filter((r) => r.status === "awaiting_approval");
    expect(done.length + waiting.length).toBe(20);
    expect(done).toHaveLength(3);
    const booked = done.reduce((sum, r) => sum + r.pointsBooked, 0);
    expect(booked).toBe(900);
    const [counter] = await db
      .select()
      .from(schema.rateLimitCounter)
      .where(eq(schema.rateLimitCounter.key, `grant:starter:${manager.userId}:day`));
    expect(counter?.count).toBe(900);
    const requested = await db
      .select()
      .from(schema.auditLog)
      .where(
        inArray(
          schema.auditLog.targetId,
          waiting.map((r) => r.id),
        ),
      );
    expect(requested.map((r) => r.changes?.waitsFor?.after)).toEqual(waiting.map(() => "over_daily_total"));
  }, 240_000);
});
