import { type DatabaseHandle, rowsOf } from "@platform/db/client";
import { webhookDelivery } from "@platform/db/schema";
import { insertBulkMembers } from "@platform/testing/members";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { asc, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { StaffActor } from "../staff/actor";
import { claimStatement, deliverWebhooks } from "./delivery.server";
import { createEndpoint, deliveryLog } from "./endpoints.server";
import type { Sender } from "./send.server";

/**
 * The webhook outbox over two instances (ADR 054): both workers claim from one outbox with `skip locked`, so each
 * event is delivered exactly once, and a member's events still arrive in the order they happened. Only on
 * PostgreSQL (PGlite serialises everything on one connection).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("webhooks_conc", (pair) => {
  ({ one, two } = pair);
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

/** A receiver stand-in that records every webhook-id in arrival order, slowly (so the two workers overlap). */
function countingReceiver() {
  const arrivals: string[] = [];
  const send: Sender = async (_url, headers) => {
    await new Promise((r) => setTimeout(r, 2));
    arrivals.push(headers["webhook-id"] as string);
    return { outcome: "ok", statusCode: 204, durationMs: 2, error: null };
  };
  return { send, arrivals };
}

/** The server secret the endpoints' secrets are sealed under (SESSION_SECRET in the app). */
const SERVER_SECRET = "webhooks-two-instances-server-secret-0123";

/** An endpoint taking the member events, no personal data. */
function memberEventsEndpoint(db: DatabaseHandle["db"], url: string) {
  return createEndpoint(
    db,
    admin,
    { url, description: "", events: ["member.created", "member.updated"], scopes: [] },
    { production: false },
    SERVER_SECRET,
    audit,
  );
}

/** `count` members created and then changed twice: three events each. */
async function membersWithThreeEvents(
  db: DatabaseHandle["db"],
  o: { prefix: string; numbers: string; phones: string; count: number },
) {
  const id = `w${o.prefix}-`;
  await insertBulkMembers(db, { prefix: id, count: o.count, numbers: o.numbers, phones: o.phones });
  await db.execute(sql`update member set city = '台北市' where member_number like ${`${o.numbers}%`}`);
  await db.execute(sql`update member set city = '新北市' where member_number like ${`${o.numbers}%`}`);
}

describe("webhook delivery over two instances", () => {
  it("delivers each of 3,000 events once, a member's in order, with two workers at once", {
    timeout: 180_000,
  }, async () => {
    await memberEventsEndpoint(one.db, "http://localhost:9/hook");
    // 1,000 members, each created and then changed twice: three events per member.
    await membersWithThreeEvents(one.db, { prefix: "h", numbers: "HW", phones: "+88697", count: 1000 });
    const receiver = countingReceiver();
    const now = new Date(Date.now() + 60_000);
    const [a, b] = await Promise.all([
      deliverWebhooks({ db: one.db, serverSecret: SERVER_SECRET, send: receiver.send, batchSize: 200 }, now),
      deliverWebhooks({ db: two.db, serverSecret: SERVER_SECRET, send: receiver.send, batchSize: 200 }, now),
    ]);
    // A member's later events wait for the earlier ones: passes until nothing is left.
    for (let i = 0; i < 10; i++) {
      const [c, d] = await Promise.all([
        deliverWebhooks({ db: one.db, serverSecret: SERVER_SECRET, send: receiver.send, batchSize: 200 }, now),
        deliverWebhooks({ db: two.db, serverSecret: SERVER_SECRET, send: receiver.send, batchSize: 200 }, now),
      ]);
      if (c.claimed + d.claimed === 0) break;
    }
    expect(a.claimed).toBeGreaterThan(0);
    expect(b.claimed).toBeGreaterThan(0);
    const rows = await one.db
      .select({ id: webhookDelivery.id, memberId: webhookDelivery.memberId, status: webhookDelivery.status })
      .from(webhookDelivery)
      .orderBy(asc(webhookDelivery.seq));
    expect(rows).toHaveLength(3000);
    expect(rows.every((r) => r.status === "delivered")).toBe(true);
    expect(receiver.arrivals).toHaveLength(3000);
    expect(new Set(receiver.arrivals).size).toBe(3000);
    // Per member: arrival order = the order the events happened.
    const arrivedAt = new Map(receiver.arrivals.map((id, i) => [id, i]));
    const byMember = new Map<string, number[]>();
    for (const r of rows) {
      const list = byMember.get(r.memberId as string) ?? [];
      list.push(arrivedAt.get(`msg_${r.id.replaceAll("-", "")}`) as number);
      byMember.set(r.memberId as string, list);
    }
    for (const list of byMember.values()) expect(list).toEqual([...list].sort((x, y) => x - y));
  });

  it("claims per-endpoint batches over two instances: no id twice, never two events of one member in flight", {
    timeout: 180_000,
  }, async () => {
    // The first test's endpoint takes no more events (its subscriptions go, as disabling it does).
    await one.db.execute(sql`delete from webhook_subscription`);
    for (const name of ["a", "b"]) {
      await memberEventsEndpoint(one.db, `http://localhost:9/${name}`);
    }
    // 300 members, three events each, for two endpoints: 1,800 rows.
    await membersWithThreeEvents(one.db, { prefix: "b", numbers: "HB", phones: "+88698", count: 300 });
    const inFlight = new Set<string>();
    const arrivals: string[] = [];
    let overlaps = 0;
    const send: Sender = async (url, headers, body) => {
      const key = `${url} ${(JSON.parse(body) as { data: { member: { id: string } } }).data.member.id}`;
      if (inFlight.has(key)) overlaps++;
      inFlight.add(key);
      await new Promise((r) => setTimeout(r, 1 + Math.floor(Math.random() * 3)));
      inFlight.delete(key);
      arrivals.push(headers["webhook-id"] as string);
      return { outcome: "ok", statusCode: 204, durationMs: 2, error: null };
    };
    const now = new Date(Date.now() + 60_000);
    let claimedByOne = 0;
    let claimedByTwo = 0;
    for (let i = 0; i < 20; i++) {
      const [c, d] = await Promise.all([
        deliverWebhooks({ db: one.db, serverSecret: SERVER_SECRET, send, batchSize: 250, concurrency: 32 }, now),
        deliverWebhooks({ db: two.db, serverSecret: SERVER_SECRET, send, batchSize: 250, concurrency: 32 }, now),
      ]);
      claimedByOne += c.claimed;
      claimedByTwo += d.claimed;
      if (c.claimed + d.claimed === 0) break;
    }
    expect(claimedByOne).toBeGreaterThan(0);
    expect(claimedByTwo).toBeGreaterThan(0);
    expect(overlaps).toBe(0);
    const rows = await one.db
      .select({
        id: webhookDelivery.id,
        endpointId: webhookDelivery.endpointId,
        memberId: webhookDelivery.memberId,
        status: webhookDelivery.status,
      })
      .from(webhookDelivery)
      .where(
        sql`${webhookDelivery.endpointId} in (select id from webhook_endpoint where url like '%/a' or url like '%/b')`,
      )
      .orderBy(asc(webhookDelivery.seq));
    expect(rows).toHaveLength(1800);
    expect(rows.every((r) => r.status === "delivered")).toBe(true);
    expect(arrivals).toHaveLength(1800);
    expect(new Set(arrivals).size).toBe(1800);
    const arrivedAt = new Map(arrivals.map((id, i) => [id, i]));
    const byKey = new Map<string, number[]>();
    for (const r of rows) {
      const key = `${r.endpointId} ${r.memberId}`;
      byKey.set(key, [...(byKey.get(key) ?? []), arrivedAt.get(`msg_${r.id.replaceAll("-", "")}`) as number]);
    }
    expect(byKey.size).toBe(600);
    for (const list of byKey.values()) expect(list).toEqual([...list].sort((x, y) => x - y));
  });

  it("claims with HOT updates (no indexed column changes), and takes over a dead instance's claims after 5 minutes", {
    timeout: 120_000,
  }, async () => {
    await one.db.execute(sql`delete from webhook_subscription`);
    const { endpoint } = await memberEventsEndpoint(one.db, "http://localhost:9/hot");
    // 10 members, three events each: the claim takes each member's first (per-member order).
    await membersWithThreeEvents(one.db, { prefix: "o", numbers: "HO", phones: "+88696", count: 10 });
    const now = new Date(Date.now() + 60_000);
    // Instance one claims and dies before sending: its claim committed, never recorded.
    // The backend's counts not yet reported (earlier transactions' too, on PostgreSQL 15): before and after the claim.
    const updates = async (tx: Pick<DatabaseHandle["db"], "execute">) => {
      const [n] = rowsOf<{ updated: string; hot: string }>(
        await tx.execute(sql`select pg_stat_get_xact_tuples_updated('webhook_delivery'::regclass) as updated,
                                    pg_stat_get_xact_tuples_hot_updated('webhook_delivery'::regclass) as hot`),
      );
      return { updated: Number(n?.updated), hot: Number(n?.hot) };
    };
    const counts = await one.db.transaction(async (tx) => {
      const before = await updates(tx);
      const claimed = rowsOf<{ id: string }>(
        await tx.execute(claimStatement("00000000-0000-4000-8000-00000000dead", now, 1000)),
      );
      const after = await updates(tx);
      return { claimed: claimed.length, updated: after.updated - before.updated, hot: after.hot - before.hot };
    });
    // Every claim a HOT update: no new entry in the primary key, the queue or the order index (migration 0063).
    expect(counts).toEqual({ claimed: 10, updated: 10, hot: 10 });
    const log = await deliveryLog(two.db, endpoint.id, 50, now);
    expect(log.filter((r) => r.status === "sending")).toHaveLength(10);
    expect(log.filter((r) => r.status === "pending")).toHaveLength(20);
    const receiver = countingReceiver();
    // Within 5 minutes the claims are instance one's: the other instance sends nothing (the members' later events
    // wait behind them).
    const soon = new Date(now.getTime() + 4 * 60_000);
    expect(
      (await deliverWebhooks({ db: two.db, serverSecret: SERVER_SECRET, send: receiver.send }, soon)).claimed,
    ).toBe(0);
    // After 5 minutes instance two takes them over (their attempt counted), then the members' later events.
    const later = new Date(now.getTime() + 5 * 60_000 + 1000);
    expect(
      await deliverWebhooks({ db: two.db, serverSecret: SERVER_SECRET, send: receiver.send }, later),
    ).toMatchObject({
      claimed: 30,
      delivered: 30,
    });
    expect(new Set(receiver.arrivals).size).toBe(30);
    const rows = await two.db
      .select({ status: webhookDelivery.status, attempts: webhookDelivery.attempts })
      .from(webhookDelivery)
      .where(sql`${webhookDelivery.endpointId} = ${endpoint.id}::uuid`)
      .orderBy(asc(webhookDelivery.seq));
    expect(rows.map((r) => r.status)).toEqual(Array(30).fill("delivered"));
    expect(rows.filter((r) => r.attempts === 2)).toHaveLength(10);
  });
  it("two workers recording an endpoint's recovery and its failures at once never deadlock", {
    timeout: 60_000,
  }, async () => {
    // Each round: E2 has failed for 25 hours, E1 not yet. One worker's batch fails on both (E1 starts failing, E2 is
    // disabled); the other's fails on E1 and succeeds on E2 (E2 healthy again). Both record at the same moment.
    await one.db.execute(sql`update webhook_endpoint set enabled = false`);
    const failures: string[] = [];
    for (let round = 0; round < 12; round++) {
      const e1 = (await memberEventsEndpoint(one.db, `http://localhost:9/e1-${round}`)).endpoint;
      const e2 = (await memberEventsEndpoint(one.db, `http://localhost:9/e2-${round}`)).endpoint;
      const now = new Date();
      await one.db.execute(sql`update webhook_endpoint set failing_since = ${new Date(now.getTime() - 25 * 3600_000).toISOString()}::timestamptz
        where id = ${e2.id}::uuid`);
      const ids = rowsOf<{ id: string }>(
        await one.db.execute(sql`
          insert into webhook_delivery (endpoint_id, event_type, data, due_at)
          select e, 'member.updated', '{}'::jsonb, ${new Date(now.getTime() - 60_000).toISOString()}::timestamptz
            from unnest(array[${e1.id}::uuid, ${e2.id}::uuid, ${e1.id}::uuid, ${e2.id}::uuid]) with ordinality as x(e, n)
           order by n
          returning id`),
      ).map((r) => r.id);
      const ok = `msg_${(ids[3] as string).replaceAll("-", "")}`;
      // Every answer waits until all four calls were made: the two workers record together.
      let calls = 0;
      let release: () => void = () => {};
      const together = new Promise<void>((r) => {
        release = r;
      });
      const send: Sender = async (_url, headers) => {
        if (++calls === 4) release();
        await Promise.race([together, new Promise((r) => setTimeout(r, 500))]);
        return headers["webhook-id"] === ok
          ? { outcome: "ok", statusCode: 204, durationMs: 1, error: null }
          : { outcome: "http_error", statusCode: 500, durationMs: 1, error: "HTTP 500" };
      };
      const settled = await Promise.allSettled([
        deliverWebhooks({ db: one.db, serverSecret: SERVER_SECRET, send, batchSize: 2 }, now, { maxBatches: 1 }),
        deliverWebhooks({ db: two.db, serverSecret: SERVER_SECRET, send, batchSize: 2 }, now, { maxBatches: 1 }),
      ]);
      for (const r of settled)
        if (r.status === "rejected") failures.push(String((r.reason as Error).cause ?? r.reason));
      await one.db.execute(
        sql`update webhook_endpoint set enabled = false where id in (${e1.id}::uuid, ${e2.id}::uuid)`,
      );
    }
    expect(failures).toEqual([]);
  });
});
