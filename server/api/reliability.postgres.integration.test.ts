import { coupon, loyaltyAccount, pointEntry, purchase, reward } from "@platform/db/schema";
import { insertTestStores } from "@platform/testing/stores";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LoyaltyError } from "../../app/domain/loyalty/errors";
import { redeemReward } from "../../app/domain/loyalty/rewards.server";
import { ledgerTotals, newMember } from "../../app/domain/loyalty/testing.server";
import { createApiKey } from "../../app/domain/pos/api-keys.server";
import { type DevApps, type Running, startDevApps } from "../testing/dev-app";

/**
 * The issue's reliability test, on PostgreSQL only (vitest.config.ts includes *.postgres.* files only
 * with TEST_DATABASE_URL): two instances of the full app (createApp, the same Express app server.js
 * serves) listen on two ports over ONE database; 20 POS clients, each with its own store key, send
 * 5,000 mixed operations through HTTP, alternating between the instances, and a quarter of them are
 * sent twice with the same Idempotency-Key (half of those retries race the first attempt on the other
 * instance). Then the database must hold every invariant of the ledger.
 *
 * Redemptions (points → coupon) are a member action, not a POS endpoint (PRODUCT.md §6): they run
 * through the same domain function the member center calls, on each instance's own database pool, so
 * they contend with the HTTP traffic for the same rows.
 */
const OPERATIONS = 5_000;
const CLIENTS = 20;
const STORES = ["TPE01", "TPE02", "TXG01", "KHH01"];
const MEMBERS = 40;

// biome-ignore lint/suspicious/noExplicitAny: the test reads arbitrary JSON answers.
type Json = any;
type Answer = { status: number; body: Json; replayed: boolean };

let apps: DevApps;
const instances: { running: Running; base: string }[] = [];

beforeAll(async () => {
  // APP_ENV=test: no demo member, whose purchases would count in the totals below.
  apps = await startDevApps(2, { APP_ENV: "test" }, { label: "pos_reliability", poolMax: 12 });
  for (const { running, base } of apps.instances) instances.push({ running, base: `${base}/api/v1` });
}, 180_000);

afterAll(() => apps?.stop(), 120_000);

/** A small seeded PRNG (mulberry32): the same mix of operations on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("POS API reliability on PostgreSQL, two app instances", () => {
  it(`keeps every ledger invariant under ${OPERATIONS} mixed operations from ${CLIENTS} clients`, {
    timeout: 600_000,
  }, async () => {
    const started = performance.now();
    const [one] = instances;
    if (!one) throw new Error("no app instance");
    const db = one.running.database.db;
    const members = await Promise.all(Array.from({ length: MEMBERS }, () => newMember(db)));
    const rewardId = crypto.randomUUID();
    await db
      .insert(reward)
      .values({ id: rewardId, name: "NT$50 off", kind: "amount-off", amountOff: 50, pointsCost: 15 });
    await insertTestStores(db, STORES);
    const keys = await Promise.all(
      Array.from({ length: CLIENTS }, (_, c) =>
        createApiKey(db, { storeId: STORES[c % STORES.length]!, name: `client ${c}` }),
      ),
    );

    // What the clients learned, shared between them like a real chain's back office would not — so
    // refunds and coupon uses from different clients hit the same rows.
    const purchases: Record<string, { id: string; netAmount: number }[]> = Object.fromEntries(
      STORES.map((s) => [s, []]),
    );
    const receiptsSent: Record<string, string[]> = Object.fromEntries(STORES.map((s) => [s, []]));
    const coupons: string[] = [];
    const outcomes = new Map<string, number>();
    let earned = 0;
    let reversed = 0;
    let couponsIssued = 0;
    let couponsUsed = 0;
    let retried = 0;
    let requests = 0;

    const tally = (label: string, status: number, code?: string) => {
      const key = `${label} ${status}${code ? ` ${code}` : ""}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    };

    async function send(base: string, secret: string, path: string, body: unknown, idem: string): Promise<Answer> {
      for (;;) {
        requests++;
        const res = await fetch(`${base}${path}`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${secret}`,
            "content-type": "application/json",
            "idempotency-key": idem,
          },
          body: JSON.stringify(body),
        });
        const json = (await res.json()) as Json;
        // The twin of this request is still running on the other instance: a real client waits and retries.
        if (res.status === 409 && json.error?.code === "request_in_progress") {
          await new Promise((resolve) => setTimeout(resolve, 5));
          continue;
        }
        return { status: res.status, body: json, replayed: res.headers.get("idempotent-replayed") === "true" };
      }
    }

    /** Sends once, or twice with the same key (sequentially or racing on the other instance). */
    async function post(client: number, op: number, path: string, body: unknown, retry: number): Promise<Answer> {
      const here = instances[(client + op) % 2]!;
      const there = instances[(client + op + 1) % 2]!;
      const secret = keys[client]!.secret;
      const idem = `c${client}-op${op}`;
      if (retry === 0) return send(here.base, secret, path, body, idem);
      retried++;
      if (retry === 1) {
        const first = await send(here.base, secret, path, body, idem);
        const again = await send(there.base, secret, path, body, idem);
        expect({ status: again.status, body: again.body }).toEqual({ status: first.status, body: first.body });
        expect(again.replayed).toBe(true);
        return first;
      }
      const [a, b] = await Promise.all([
        send(here.base, secret, path, body, idem),
        send(there.base, secret, path, body, idem),
      ]);
      expect({ status: b.status, body: b.body }).toEqual({ status: a.status, body: a.body });
      expect([a.replayed, b.replayed].filter(Boolean)).toHaveLength(1);
      return a.replayed ? b : a;
    }

    async function operation(client: number, op: number, rand: () => number) {
      const store = STORES[client % STORES.length]!;
      const m = members[Math.floor(rand() * members.length)]!;
      const roll = rand();
      // A quarter retried: 1 = again after the answer, 2 = racing on the other instance.
      const retry = rand() < 0.25 ? (rand() < 0.5 ? 1 : 2) : 0;
      if (roll < 0.45 || purchases[store]!.length === 0) {
        // Now and then a receipt another client of this store already sent (a till resending under a new key).
        const reuse = rand() < 0.05 && receiptsSent[store]!.length > 0;
        const receiptNumber = reuse
          ? receiptsSent[store]![Math.floor(rand() * receiptsSent[store]!.length)]!
          : `R-${client}-${op}`;
        if (!reuse) receiptsSent[store]!.push(receiptNumber);
        // A reused receipt keeps its first details only if we send the same ones: derive them from the number.
        const seed = [...receiptNumber].reduce((s, ch) => (s * 31 + ch.charCodeAt(0)) >>> 0, 7);
        const netAmount = 100 + (seed % 200) * 100;
        const memberNumber = members[seed % members.length]!.memberNumber;
        const res = await post(client, op, "/purchases", { memberNumber, receiptNumber, netAmount }, retry);
        tally("purchase", res.status, res.body.error?.code);
        if (res.status === 201) {
          earned += res.body.pointsEarned;
          purchases[store]!.push({ id: res.body.purchaseId, netAmount });
        }
        return;
      }
      if (roll < 0.65) {
        const list = purchases[store]!;
        const target = list[Math.floor(rand() * list.length)]!;
        const amount = 1 + Math.floor(rand() * target.netAmount * 0.6);
        const res = await post(client, op, `/purchases/${target.id}/refunds`, { amount }, retry);
        tally("refund", res.status, res.body.error?.code);
        if (res.status === 201) reversed += res.body.pointsReversed;
        return;
      }
      if (roll < 0.85) {
        const handle = instances[(client + op) % 2]!.running.database.db;
        const attempt = () => redeemReward(handle, { memberId: m.id, rewardId, idempotencyKey: `c${client}-op${op}` });
        try {
          const first = await attempt();
          if (retry > 0) {
            retried++;
            const again = await attempt();
            expect(again).toMatchObject({ replayed: true, coupon: { id: first.coupon.id } });
          }
          tally("redeem", 201);
          couponsIssued++;
          coupons.push(first.coupon.code);
        } catch (error) {
          if (!(error instanceof LoyaltyError)) throw error;
          tally("redeem", 422, error.code);
        }
        return;
      }
      if (coupons.length === 0) return;
      // Any coupon, used or not: several clients try the same code.
      const code = coupons[Math.floor(rand() * coupons.length)]!;
      const res = await post(client, op, `/coupons/${code}/redeem`, {}, retry);
      tally("coupon", res.status, res.body.error?.code);
      if (res.status === 200) couponsUsed++;
    }

    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const rand = random(1000 + client);
        for (let op = 0; op < OPERATIONS / CLIENTS; op++) await operation(client, op, rand);
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    const summary = Object.fromEntries([...outcomes.entries()].sort());
    console.info(
      `reliability: ${OPERATIONS} operations (${retried} retried, ${requests} HTTP requests) in ${elapsed.toFixed(1)} s`,
      summary,
    );

    // Nothing but business refusals: no 5xx, no rate limiting, no unexpected code.
    const allowed = new Set([
      "purchase 201",
      "purchase 200",
      "refund 201",
      "refund 422 refund_exceeds_purchase",
      "redeem 201",
      "redeem 422 insufficient_points",
      "coupon 200",
      "coupon 409 coupon_used",
    ]);
    expect(Object.keys(summary).filter((k) => !allowed.has(k))).toEqual([]);
    expect(retried).toBeGreaterThanOrEqual(OPERATIONS * 0.2);
    for (const label of [
      "purchase 201",
      "purchase 200",
      "refund 201",
      "redeem 201",
      "coupon 200",
      "coupon 409 coupon_used",
    ])
      expect(summary[label], label).toBeGreaterThan(0);

    // Every balance equals its ledger sum (and its unspent lots); below zero only when flagged after a refund.
    for (const m of members) {
      const totals = await ledgerTotals(db, m.id);
      expect(totals.balance, m.memberNumber).toBe(totals.ledgerSum);
      expect(totals.lotsRemaining, m.memberNumber).toBe(Math.max(0, totals.balance));
      const [account] = await db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, m.id));
      if (totals.balance < 0) {
        expect(account?.negativeSince, m.memberNumber).not.toBeNull();
        const [reversal] = await db
          .select({ n: sql<number>`count(*)::int` })
          .from(pointEntry)
          .where(and(eq(pointEntry.memberId, m.id), eq(pointEntry.kind, "refund-reversal")));
        expect(reversal?.n, m.memberNumber).toBeGreaterThan(0);
      }
    }

    // No receipt booked twice: one purchase row per (store, receipt), one earn entry per purchase,
    // and the points the clients were told they earned are exactly the points booked.
    const [receipts] = await db
      .select({
        all: sql<number>`count(*)::int`,
        distinct: sql<number>`count(distinct (${purchase.storeId}, ${purchase.receiptNumber}))::int`,
      })
      .from(purchase);
    expect(receipts?.all).toBe(receipts?.distinct);
    expect(receipts?.all).toBe(Object.values(purchases).reduce((n, list) => n + list.length, 0));
    const sums = await db
      .select({ kind: pointEntry.kind, n: sql<number>`count(*)::int`, total: sql<string>`sum(${pointEntry.amount})` })
      .from(pointEntry)
      .groupBy(pointEntry.kind);
    const byKind = Object.fromEntries(sums.map((s) => [s.kind, { n: s.n, total: Number(s.total) }]));
    expect(byKind["earn-purchase"]?.total).toBe(earned);
    expect(-(byKind["refund-reversal"]?.total ?? 0)).toBe(reversed);
    expect(byKind.redeem?.n).toBe(couponsIssued);

    // No coupon used twice: each successful use is a distinct coupon, and only those are marked used.
    const used = await db.select().from(coupon).where(isNotNull(coupon.usedAt));
    expect(used.length).toBe(couponsUsed);
    expect(used.every((c) => c.status === "used")).toBe(true);
    expect((await db.select().from(coupon)).length).toBe(couponsIssued);
  });
});
