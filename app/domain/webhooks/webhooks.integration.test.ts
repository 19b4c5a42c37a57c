import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type Database, rowsOf } from "@platform/db/client";
import {
  auditLog,
  member,
  webhookAttempt,
  webhookDelivery,
  webhookEndpoint,
  webhookSubscription,
} from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { recordPurchase, recordPurchaseInTransaction } from "../loyalty/purchases.server";
import { newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { checkEndpointUrl, isBlockedAddress } from "./address.server";
import { claimStatement, type DisabledEndpoint, deliverWebhooks, WEBHOOK_RETRY_SECONDS } from "./delivery.server";
import { createEndpoint, deliveryLog, redeliver, rotateSecret, setEndpointEnabled } from "./endpoints.server";
import { openWebhookSecret, sealStoredWebhookSecrets } from "./secret-at-rest.server";
import { createSender } from "./send.server";
import { verifyWebhook } from "./signing";

/**
 * Outbound webhooks (issue 38 part 4, ADR 054) on PGlite and PostgreSQL: the outbox written by the triggers in the
 * event's transaction, the scopes, delivery with the Standard Webhooks signature to a local receiver, retries on
 * the test clock, per-member order, the 24-hour disable, redelivery, and the SSRF refusals with production rules.
 */
let db: Database;
useMigratedTestDatabase("webhooks", (handle) => {
  db = handle.db;
});

const admin: StaffActor = {
  userId: "staff-admin",
  role: "admin",
  displayName: "Admin",
  storeIds: [],
  currentStoreId: null,
  sessionId: "s",
  secondFactorAt: new Date(),
};
const audit = {
  actorType: "staff" as const,
  userId: "staff-admin",
  role: "admin" as const,
  storeId: null,
  ip: null,
  userAgent: null,
  requestId: null,
};
const dev = { production: false };
// After the real clock: the triggers stamp the outbox rows with the database's now(), the worker runs on this clock.
const t0 = new Date("2030-03-10T04:00:00Z");

type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
let receiver: http.Server;
let base: string;
const received: Received[] = [];
/** What the receiver answers, by path: a status, a redirect, or a slow answer. */
const answers = new Map<string, (res: http.ServerResponse) => void>();

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body });
      const answer = answers.get(req.url ?? "");
      if (answer) answer(res);
      else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  base = `http://localhost:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

beforeEach(async () => {
  received.length = 0;
  answers.clear();
  // Every test starts with no endpoint (the outbox rows go with them).
  await db.delete(webhookEndpoint);
});

const send = createSender(dev, { timeoutMs: 500 });
/** The server secret the endpoints' secrets are sealed under in these tests (SESSION_SECRET in the app). */
const SERVER_SECRET = "webhooks-test-server-secret-0123456789";
const deps = (extra: { onDisabled?: (e: DisabledEndpoint[]) => Promise<void> } = {}) => ({
  db,
  send,
  serverSecret: SERVER_SECRET,
  ...extra,
});

async function register(path: string, events: string[], scopes: string[] = []) {
  return createEndpoint(
    db,
    admin,
    { url: `${base}${path}`, description: "", events: events as never, scopes: scopes as never },
    dev,
    SERVER_SECRET,
    audit,
    t0,
  );
}

let receipt = 0;
const buy = (memberId: string, now = t0) =>
  recordPurchase(
    db,
    { memberId, storeId: "S01", receiptNumber: `R${++receipt}`, netAmount: 1200, purchasedAt: now },
    now,
  );

async function outbox(endpointId: string) {
  return db
    .select()
    .from(webhookDelivery)
    .where(eq(webhookDelivery.endpointId, endpointId))
    .orderBy(asc(webhookDelivery.seq));
}

describe("the outbox", () => {
  it("writes nothing when no endpoint takes the event", async () => {
    const m = await newMember(db);
    await buy(m.id);
    expect(await db.select().from(webhookDelivery)).toHaveLength(0);
  });

  it("writes the purchase's row in its transaction, and none when it rolls back", async () => {
    const { endpoint } = await register("/hook", ["purchase.created"]);
    const m = await newMember(db);
    await buy(m.id);
    const rows = await outbox(endpoint.id);
    expect(rows.map((r) => r.eventType)).toEqual(["purchase.created"]);
    expect(rows[0]?.memberId).toBe(m.id);
    await expect(
      db.transaction(async (tx) => {
        await recordPurchaseInTransaction(
          tx,
          { memberId: m.id, storeId: "S01", receiptNumber: "ROLLBACK", netAmount: 500, purchasedAt: t0 },
          t0,
        );
        expect(await tx.select().from(webhookDelivery).where(eq(webhookDelivery.endpointId, endpoint.id))).toHaveLength(
          2,
        );
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await outbox(endpoint.id)).toHaveLength(1);
  });

  it("names a member by number only without the member:pii scope, and in full with it", async () => {
    const plain = await register("/plain", ["purchase.created", "points.earned"]);
    const full = await register("/full", ["purchase.created"], ["member:pii"]);
    const m = await newMember(db, { nameZh: "林雅婷", email: "ya@example.com" });
    await buy(m.id);
    const [p] = await outbox(plain.endpoint.id);
    const [f] = await outbox(full.endpoint.id);
    const pm = (p?.data as { member: Record<string, unknown> } | undefined)?.member ?? {};
    const fm = (f?.data as { member: Record<string, unknown> } | undefined)?.member ?? {};
    expect(Object.keys(pm).sort()).toEqual(["createdAt", "disabled", "id", "memberNumber"]);
    expect(JSON.stringify(p?.data)).not.toContain("林雅婷");
    expect(JSON.stringify(p?.data)).not.toContain(m.phoneNumber);
    expect(fm).toMatchObject({ id: m.id, name: "林雅婷", phone: m.phoneNumber, email: "ya@example.com" });
    // The purchase earned points: the earned entry is the plain endpoint's second event, in order.
    expect((await outbox(plain.endpoint.id)).map((r) => r.eventType)).toEqual(["purchase.created", "points.earned"]);
  });

  it("sends member updates for the member's data only, not a login", async () => {
    const { endpoint } = await register("/m", ["member.created", "member.updated", "member.disabled"]);
    const m = await newMember(db);
    await db.update(member).set({ lastLoginAt: t0 }).where(eq(member.id, m.id));
    await db.update(member).set({ city: "台北市" }).where(eq(member.id, m.id));
    await db.update(member).set({ disabled: true }).where(eq(member.id, m.id));
    expect((await outbox(endpoint.id)).map((r) => r.eventType)).toEqual([
      "member.created",
      "member.updated",
      "member.disabled",
    ]);
  });

  it("stops writing for a disabled endpoint", async () => {
    const { endpoint } = await register("/off", ["purchase.created"]);
    await setEndpointEnabled(db, admin, endpoint.id, false, audit, t0);
    expect(await db.select().from(webhookSubscription)).toHaveLength(0);
    await buy((await newMember(db)).id);
    expect(await outbox(endpoint.id)).toHaveLength(0);
  });

  it("deletes a deleted endpoint's rows with it (no foreign key on the outbox row since 0059)", async () => {
    const gone = await register("/gone", ["purchase.created"]);
    const kept = await register("/kept", ["purchase.created"]);
    await buy((await newMember(db)).id);
    expect(await outbox(gone.endpoint.id)).toHaveLength(1);
    await db.execute(sql`delete from webhook_endpoint where id = ${gone.endpoint.id}::uuid`);
    expect(await outbox(gone.endpoint.id)).toHaveLength(0);
    expect(await outbox(kept.endpoint.id)).toHaveLength(1);
  });
});

describe("delivery", () => {
  it("posts the Standard Webhooks headers; the receiver verifies them with the endpoint's secret", async () => {
    const { endpoint, secret } = await register("/hook", ["purchase.created"]);
    const m = await newMember(db);
    await buy(m.id);
    const report = await deliverWebhooks(deps(), t0);
    expect(report).toMatchObject({ claimed: 1, delivered: 1 });
    const [got] = received;
    const [row] = await outbox(endpoint.id);
    expect(got?.headers["webhook-id"]).toBe(`msg_${row?.id.replaceAll("-", "")}`);
    expect(got?.headers["webhook-timestamp"]).toBe(String(t0.getTime() / 1000));
    const headers = {
      id: String(got?.headers["webhook-id"]),
      timestamp: String(got?.headers["webhook-timestamp"]),
      signature: String(got?.headers["webhook-signature"]),
    };
    expect(verifyWebhook(secret, headers, got?.body ?? "", t0.getTime() / 1000)).toBe(true);
    const body = JSON.parse(got?.body ?? "{}");
    expect(body).toMatchObject({
      type: "purchase.created",
      data: { purchase: { netAmount: 1200 }, member: { id: m.id } },
    });
    expect(row?.status).toBe("delivered");
    const [logged] = await deliveryLog(db, endpoint.id);
    expect(logged).toMatchObject({ id: row?.id, status: "delivered", lastStatus: 204, attempts: 1 });
    expect(logged?.lastAt).toBe(t0.toISOString());
    expect(logged?.lastMs).toBeGreaterThanOrEqual(0);
    // A success lives on the row only (migration 0061): no attempt row per delivered event.
    expect(await db.select().from(webhookAttempt)).toHaveLength(0);
  });

  it("takes over a dead instance's claim after 5 minutes, and not before", async () => {
    const { endpoint } = await register("/hook", ["purchase.created"]);
    await buy((await newMember(db)).id);
    await buy((await newMember(db)).id);
    const [dead, live] = await outbox(endpoint.id);
    const claim = (id: string, at: Date) =>
      db
        .update(webhookDelivery)
        .set({ claimJob: "00000000-0000-4000-8000-000000000001", claimedAt: at, attempts: 1 })
        .where(eq(webhookDelivery.id, id));
    // A claim leaves the row pending (migration 0063): being sent is a fresh claim, and the log says so.
    await claim(dead?.id as string, new Date(t0.getTime() - 6 * 60_000));
    await claim(live?.id as string, new Date(t0.getTime() - 60_000));
    const shown = async () => (await deliveryLog(db, endpoint.id, 50, t0)).map((r) => [r.id, r.status]);
    expect(await shown()).toEqual([
      [live?.id, "sending"],
      [dead?.id, "pending"],
    ]);
    const report = await deliverWebhooks(deps(), t0);
    expect(report).toMatchObject({ claimed: 1, delivered: 1 });
    const rows = await outbox(endpoint.id);
    expect(rows.map((r) => [r.status, r.attempts, r.claimJob === null])).toEqual([
      ["delivered", 2, true],
      ["pending", 1, false],
    ]);
    expect(await shown()).toEqual([
      [live?.id, "sending"],
      [dead?.id, "delivered"],
    ]);
    // The live claim's owner records it; a redelivery is refused while it is being sent.
    await expect(redeliver(db, admin, endpoint.id, live?.id as string, audit, t0)).rejects.toMatchObject({
      code: "busy",
    });
    // 5 min after its claim the live one is a dead instance's too: shown pending, taken over by the next pass.
    const later = new Date(t0.getTime() + 5 * 60_000);
    expect((await deliveryLog(db, endpoint.id, 50, later)).map((r) => r.status)).toEqual(["pending", "delivered"]);
    expect(await deliverWebhooks(deps(), later)).toMatchObject({ claimed: 1, delivered: 1 });
    expect((await outbox(endpoint.id)).map((r) => [r.status, r.attempts])).toEqual([
      ["delivered", 2],
      ["delivered", 2],
    ]);
  });

  it("keeps the secrets sealed at rest, bound to their endpoint; a secret sealed under another server secret is never sent unsigned", async () => {
    const { endpoint, secret } = await register("/hook", ["purchase.created"]);
    const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id));
    // Not the secret in any form a copy of the database could use: sealed, and opening it needs the server secret.
    expect(row?.secret.startsWith("sealed.v1.")).toBe(true);
    expect(row?.secret).not.toContain(secret.slice("whsec_".length));
    expect(openWebhookSecret(SERVER_SECRET, endpoint.id, row?.secret ?? "")).toBe(secret);
    expect(() => openWebhookSecret(SERVER_SECRET, randomUUID(), row?.secret ?? "")).toThrow();
    expect(() => openWebhookSecret("another-server-secret-0123456789abcdef", endpoint.id, row?.secret ?? "")).toThrow();
    // The app started with another SESSION_SECRET: the event is not sent (no unsigned or wrongly signed request),
    // the attempt is a failure named in the log and retried like any other.
    await buy((await newMember(db)).id);
    const report = await deliverWebhooks({ db, send, serverSecret: "another-server-secret-0123456789abcdef" }, t0);
    expect(report).toMatchObject({ claimed: 1, delivered: 0, retried: 1 });
    expect(received).toHaveLength(0);
    const [attempt] = await db.select().from(webhookAttempt).where(eq(webhookAttempt.endpointId, endpoint.id));
    expect(attempt?.outcome).toBe("secret_unreadable");
    expect(attempt?.error).toContain("SESSION_SECRET");
  });

  it("seals a secret stored in plain text (before 2026-12-07) once, and signs with it before and after", async () => {
    const { endpoint } = await register("/hook", ["purchase.created"]);
    const plain = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    await db.update(webhookEndpoint).set({ secret: plain }).where(eq(webhookEndpoint.id, endpoint.id));
    await buy((await newMember(db)).id);
    await deliverWebhooks(deps(), t0);
    const headers = (i: number) => ({
      id: String(received[i]?.headers["webhook-id"]),
      timestamp: String(received[i]?.headers["webhook-timestamp"]),
      signature: String(received[i]?.headers["webhook-signature"]),
    });
    expect(verifyWebhook(plain, headers(0), received[0]?.body ?? "", t0.getTime() / 1000)).toBe(true);
    expect(await sealStoredWebhookSecrets(db, SERVER_SECRET)).toBe(1);
    expect(await sealStoredWebhookSecrets(db, SERVER_SECRET)).toBe(0);
    const [row] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id));
    expect(row?.secret.startsWith("sealed.v1.")).toBe(true);
    await buy((await newMember(db)).id);
    await deliverWebhooks(deps(), t0);
    expect(received).toHaveLength(2);
    expect(verifyWebhook(plain, headers(1), received[1]?.body ?? "", t0.getTime() / 1000)).toBe(true);
  });

  it("signs with both secrets after a rotation", async () => {
    const { endpoint, secret: old } = await register("/hook", ["purchase.created"]);
    const next = await rotateSecret(db, admin, endpoint.id, SERVER_SECRET, audit, t0);
    await buy((await newMember(db)).id);
    await deliverWebhooks(deps(), t0);
    const got = received[0];
    const headers = {
      id: String(got?.headers["webhook-id"]),
      timestamp: String(got?.headers["webhook-timestamp"]),
      signature: String(got?.headers["webhook-signature"]),
    };
    expect(headers.signature.split(" ")).toHaveLength(2);
    expect(verifyWebhook(old, headers, got?.body ?? "", t0.getTime() / 1000)).toBe(true);
    expect(verifyWebhook(next, headers, got?.body ?? "", t0.getTime() / 1000)).toBe(true);
  });

  it("records a 500, a redirect (not followed) and a slow answer (timeout), and retries on the schedule", async () => {
    answers.set("/500", (res) => res.writeHead(500).end("down"));
    answers.set("/redirect", (res) => res.writeHead(302, { location: "http://169.254.169.254/" }).end());
    answers.set("/slow", (res) => setTimeout(() => res.writeHead(200).end(), 1500).unref());
    const endpoints = await Promise.all(["/500", "/redirect", "/slow"].map((p) => register(p, ["purchase.created"])));
    await buy((await newMember(db)).id);
    const first = await deliverWebhooks(deps(), t0);
    expect(first).toMatchObject({ claimed: 3, delivered: 0, retried: 3 });
    const attempts = await db.select().from(webhookAttempt).orderBy(asc(webhookAttempt.id));
    const byEndpoint = new Map(attempts.map((a) => [a.endpointId, a]));
    expect(byEndpoint.get(endpoints[0]?.endpoint.id as string)).toMatchObject({
      outcome: "http_error",
      statusCode: 500,
    });
    expect(byEndpoint.get(endpoints[1]?.endpoint.id as string)).toMatchObject({ outcome: "redirect", statusCode: 302 });
    expect(byEndpoint.get(endpoints[2]?.endpoint.id as string)).toMatchObject({ outcome: "timeout", statusCode: null });
    expect(received.filter((r) => r.path === "/").length).toBe(0);
    // Not due again before the first back-off step; due after it.
    expect((await deliverWebhooks(deps(), new Date(t0.getTime() + 1000))).claimed).toBe(0);
    const second = await deliverWebhooks(deps(), new Date(t0.getTime() + (WEBHOOK_RETRY_SECONDS[0] + 1) * 1000));
    expect(second.claimed).toBe(3);
  });

  it("gives up three days after the first attempt", async () => {
    answers.set("/500", (res) => res.writeHead(500).end());
    const { endpoint } = await register("/500", ["purchase.created"]);
    await buy((await newMember(db)).id);
    let now = t0;
    for (let i = 0; i < 40; i++) {
      await deliverWebhooks(deps(), now);
      const [row] = await outbox(endpoint.id);
      if (row?.status !== "pending") break;
      now = row.dueAt;
      // Keep the endpoint on (this test is about the delivery's window, not the endpoint's).
      await db.update(webhookEndpoint).set({ failingSince: null }).where(eq(webhookEndpoint.id, endpoint.id));
    }
    const [row] = await outbox(endpoint.id);
    expect(row?.status).toBe("failed");
    expect(row?.firstAttemptAt?.getTime()).toBe(t0.getTime());
    const last = Math.max(...(await db.select().from(webhookAttempt)).map((a) => a.at.getTime()));
    expect(last - t0.getTime()).toBeLessThanOrEqual(3 * 24 * 3600_000);
    expect(last - t0.getTime()).toBeGreaterThan(2 * 24 * 3600_000);
  });

  it("disables an endpoint failing for 24 hours, audits it and tells the admins", async () => {
    answers.set("/500", (res) => res.writeHead(500).end());
    const { endpoint } = await register("/500", ["purchase.created"]);
    const told: DisabledEndpoint[] = [];
    const onDisabled = async (e: DisabledEndpoint[]) => {
      told.push(...e);
    };
    const m = await newMember(db);
    await buy(m.id);
    await deliverWebhooks(deps({ onDisabled }), t0);
    // A later event of another member, 23 hours on: still failing, not yet 24 hours.
    await buy((await newMember(db)).id, new Date(t0.getTime() + 23 * 3600_000));
    await db.update(webhookDelivery).set({ dueAt: t0 });
    await deliverWebhooks(deps({ onDisabled }), new Date(t0.getTime() + 23 * 3600_000));
    expect(told).toHaveLength(0);
    await db.update(webhookDelivery).set({ dueAt: t0 });
    await deliverWebhooks(deps({ onDisabled }), new Date(t0.getTime() + 24 * 3600_000 + 1000));
    expect(told.map((e) => e.id)).toEqual([endpoint.id]);
    const [after] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpoint.id));
    expect(after).toMatchObject({ enabled: false, disabledReason: "failing" });
    expect(await db.select().from(webhookSubscription)).toHaveLength(0);
    const logged = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "webhook.auto_disabled"), eq(auditLog.targetId, endpoint.id)));
    expect(logged).toHaveLength(1);
    // Nothing is sent while it is off; enabling it sends what waited.
    answers.clear();
    expect((await deliverWebhooks(deps(), new Date(t0.getTime() + 25 * 3600_000))).claimed).toBe(0);
    await setEndpointEnabled(db, admin, endpoint.id, true, audit, t0);
    await db.update(webhookDelivery).set({ dueAt: t0 });
    const resumed = await deliverWebhooks(deps(), new Date(t0.getTime() + 25 * 3600_000));
    expect(resumed.delivered).toBe(2);
  });

  it("never reads a disabled endpoint's backlog when claiming, and sends the enabled one's", async () => {
    const { endpoint: off } = await register("/off-backlog", ["purchase.created"]);
    await setEndpointEnabled(db, admin, off.id, false, audit, t0);
    await db.execute(sql`insert into webhook_delivery (endpoint_id, event_type, data, due_at)
      select ${off.id}::uuid, 'purchase.created', '{}'::jsonb, ${t0.toISOString()}::timestamptz
        from generate_series(1, 2000)`);
    const { endpoint: on } = await register("/on", ["purchase.created"]);
    for (let i = 0; i < 3; i++) await buy((await newMember(db)).id);
    await db.execute(sql`analyze webhook_delivery`);
    // The claim's plan, run and rolled back: rows its choice (CTE c) read from webhook_delivery, returned and
    // filtered out (the update after it finds the chosen rows by id).
    // Sequential scans off: at this size a whole-table scan is the cheapest plan; at a real backlog's size it is
    // not, and the claim must then have an index path that skips the disabled endpoint's rows (the old one had none).
    let read = -1;
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const result = await tx.execute(
          sql`explain (analyze, format json) ${claimStatement("00000000-0000-4000-8000-000000000000", t0, 1000)}`,
        );
        const [row] = rowsOf<{ "QUERY PLAN": unknown }>(result);
        const plan = typeof row?.["QUERY PLAN"] === "string" ? JSON.parse(row["QUERY PLAN"]) : row?.["QUERY PLAN"];
        read = rowsRead(plan, "CTE c", "webhook_delivery");
        tx.rollback();
      })
      .catch((e) => {
        if (read < 0) throw e;
      });
    expect(read).toBeGreaterThanOrEqual(3);
    expect(read).toBeLessThan(100);
    const sent = await deliverWebhooks(deps(), new Date(t0.getTime() + 60_000));
    expect(sent).toMatchObject({ claimed: 3, delivered: 3 });
    expect(received.every((r) => r.path === "/on")).toBe(true);
    expect((await outbox(on.id)).map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
    expect((await outbox(off.id)).filter((d) => d.status === "pending")).toHaveLength(2000);
  });

  it("keeps a member's events in order: a later one waits for the earlier one", async () => {
    let fail = true;
    answers.set("/order", (res) => res.writeHead(fail ? 503 : 200).end());
    const { endpoint } = await register("/order", ["purchase.created"]);
    const a = await newMember(db);
    const b = await newMember(db);
    await buy(a.id);
    await buy(a.id);
    await buy(b.id);
    const first = await deliverWebhooks(deps(), t0);
    // A's first and B's only: A's second waits behind A's first.
    expect(first.claimed).toBe(2);
    const later = new Date(t0.getTime() + 10_000);
    fail = false;
    await deliverWebhooks(deps(), later);
    await deliverWebhooks(deps(), later);
    const rows = await outbox(endpoint.id);
    expect(rows.map((r) => r.status)).toEqual(["delivered", "delivered", "delivered"]);
    const aIds = rows.filter((r) => r.memberId === a.id).map((r) => `msg_${r.id.replaceAll("-", "")}`);
    const order = received.filter((r) => r.headers["webhook-id"] && aIds.includes(String(r.headers["webhook-id"])));
    expect(order.map((r) => r.headers["webhook-id"])).toEqual([aIds[0], aIds[0], aIds[1]]);
  });

  it("ends a pass after a short batch, leaving events that came in during the send to the next pass", async () => {
    const { endpoint } = await register("/stream", ["purchase.created"]);
    const a = await newMember(db);
    const b = await newMember(db);
    const c = await newMember(db);
    await buy(a.id);
    await buy(b.id);
    // While the batch is being sent, C buys: its event came with its own notification, which gathers the next pass.
    // Chasing it with another claim here made a stream of purchases a trickle of small batches, each with its claim
    // and its record.
    let arrived = false;
    const sendAndBuy: typeof send = async (url, headers, body) => {
      if (!arrived) {
        arrived = true;
        await buy(c.id);
      }
      return send(url, headers, body);
    };
    expect((await deliverWebhooks({ ...deps(), send: sendAndBuy }, t0)).claimed).toBe(2);
    const rows = await outbox(endpoint.id);
    expect(rows.filter((r) => r.status === "delivered").map((r) => r.memberId)).toEqual([a.id, b.id]);
    expect(rows.filter((r) => r.status === "pending").map((r) => r.memberId)).toEqual([c.id]);
    // A member's later event that waited behind one just sent is still sent in the same pass.
    await buy(a.id);
    await buy(a.id);
    expect((await deliverWebhooks(deps(), t0)).claimed).toBe(3);
    expect((await outbox(endpoint.id)).every((r) => r.status === "delivered")).toBe(true);
  });

  it("redelivers with the same webhook-id and a new signature", async () => {
    const { endpoint, secret } = await register("/hook", ["purchase.created"]);
    await buy((await newMember(db)).id);
    await deliverWebhooks(deps(), t0);
    const [row] = await outbox(endpoint.id);
    await redeliver(db, admin, endpoint.id, row?.id as string, audit, t0);
    const later = new Date(t0.getTime() + 60_000);
    await deliverWebhooks(deps(), later);
    expect(received).toHaveLength(2);
    expect(received[1]?.headers["webhook-id"]).toBe(received[0]?.headers["webhook-id"]);
    expect(received[1]?.headers["webhook-timestamp"]).toBe(String(later.getTime() / 1000));
    const headers = {
      id: String(received[1]?.headers["webhook-id"]),
      timestamp: String(received[1]?.headers["webhook-timestamp"]),
      signature: String(received[1]?.headers["webhook-signature"]),
    };
    expect(verifyWebhook(secret, headers, received[1]?.body ?? "", later.getTime() / 1000)).toBe(true);
    const logged = await db.select().from(auditLog).where(eq(auditLog.action, "webhook.redelivered"));
    expect(logged.length).toBeGreaterThan(0);
    // Both deliveries are in the log: the first success kept as an attempt row when it was redelivered, the second
    // on the row.
    const attempts = await db
      .select()
      .from(webhookAttempt)
      .where(eq(webhookAttempt.deliveryId, row?.id as string));
    expect(attempts.map((a) => [a.outcome, a.statusCode, a.at.toISOString()])).toEqual([["ok", 204, t0.toISOString()]]);
    const [entry] = await deliveryLog(db, endpoint.id);
    expect(entry).toMatchObject({ status: "delivered", attempts: 1, lastAt: later.toISOString(), lastStatus: 204 });
  });
});

describe("no SSRF (production rules)", () => {
  const prod = { production: true };

  it("refuses private, loopback and link-local addresses and plain http at registration", async () => {
    expect(isBlockedAddress("10.1.2.3")).toBe(true);
    expect(isBlockedAddress("169.254.169.254")).toBe(true);
    expect(isBlockedAddress("::ffff:127.0.0.1")).toBe(true);
    expect(isBlockedAddress("fd00::1")).toBe(true);
    expect(isBlockedAddress("8.8.8.8")).toBe(false);
    expect(await checkEndpointUrl("http://hooks.example.com/", prod)).toBe("httpsRequired");
    expect(await checkEndpointUrl("http://localhost:3000/", prod)).toBe("httpsRequired");
    expect(await checkEndpointUrl("https://127.0.0.1/", prod)).toBe("privateAddress");
    expect(await checkEndpointUrl("https://[::1]/", prod)).toBe("privateAddress");
    expect(await checkEndpointUrl("https://localhost/", prod)).toBe("privateAddress");
    const metadata = async () => ["93.184.215.14", "169.254.169.254"];
    expect(await checkEndpointUrl("https://sneaky.example.com/", prod, metadata)).toBe("privateAddress");
    expect(await checkEndpointUrl("https://hooks.example.com/", prod, async () => ["93.184.215.14"])).toBeNull();
    expect(await checkEndpointUrl("http://localhost:3000/", dev)).toBeNull();
    expect(await checkEndpointUrl("http://10.0.0.1/", dev)).toBe("httpsRequired");
    try {
      await createEndpoint(
        db,
        admin,
        { url: "https://127.0.0.1/hook", description: "", events: ["purchase.created"], scopes: [] },
        prod,
        SERVER_SECRET,
        audit,
        t0,
      );
      expect.unreachable();
    } catch (error) {
      expect(isRefusal(error, "webhooks") && error.code).toBe("privateAddress");
    }
    expect(await db.select().from(webhookEndpoint)).toHaveLength(0);
  });

  it("refuses at delivery time after DNS: the receiver is never reached", async () => {
    const guarded = createSender(prod, { timeoutMs: 2000 });
    const port = (receiver.address() as AddressInfo).port;
    const literal = await guarded(`https://127.0.0.1:${port}/x`, {}, "{}");
    const named = await guarded(`https://localhost:${port}/x`, {}, "{}");
    expect(literal.outcome).toBe("address_refused");
    expect(named.outcome).toBe("address_refused");
    expect(received).toHaveLength(0);
    // An endpoint registered before its name moved to a private address: the worker records the refusal.
    const { endpoint } = await register("/x", ["purchase.created"]);
    await buy((await newMember(db)).id);
    await deliverWebhooks({ db, send: guarded, serverSecret: SERVER_SECRET }, t0);
    const [attempt] = await db.select().from(webhookAttempt).where(eq(webhookAttempt.endpointId, endpoint.id));
    expect(attempt?.outcome).toBe("address_refused");
    expect(received).toHaveLength(0);
  });
});

/** Rows the scans of a table read within a plan's named part (a CTE): returned plus filtered out, every loop. */
function rowsRead(plan: unknown, part: string, table: string): number {
  let total = 0;
  const walk = (node: Record<string, unknown>, inside: boolean) => {
    const within = inside || node["Subplan Name"] === part;
    if (within && node["Relation Name"] === table) {
      const rows = Number(node["Actual Rows"] ?? 0) + Number(node["Rows Removed by Filter"] ?? 0);
      total += rows * Number(node["Actual Loops"] ?? 1);
    }
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child, within);
  };
  for (const top of plan as { Plan: Record<string, unknown> }[]) walk(top.Plan, false);
  return total;
}
