import { webhookAttempt, webhookDelivery, webhookEndpoint } from "@platform/db/schema";
import { jobQueueTestRig } from "@platform/testing/job-queue";
import { waitFor } from "@platform/testing/wait";
import { asc, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  purgeWebhookLog,
  registerWebhookHousekeeping,
  WEBHOOK_HOUSEKEEPING_CRON,
  WEBHOOK_HOUSEKEEPING_QUEUE,
  WEBHOOK_LOG_RETENTION_DAYS,
} from "./housekeeping.server";

/** The delivery log's purge (ADR 054 "Later (2026-12-07, the outbox's per-event cost)"): the outbox cannot grow forever. */
const rig = jobQueueTestRig("webhook_housekeeping", registerWebhookHousekeeping);

const DAY = 86_400_000;

it("schedules the purge nightly in Taipei time", async () => {
  const schedules = await rig.queue.schedules(WEBHOOK_HOUSEKEEPING_QUEUE);
  expect(schedules.map((s) => [s.cron, s.timezone])).toEqual([[WEBHOOK_HOUSEKEEPING_CRON, "Asia/Taipei"]]);
});

it("deletes finished deliveries older than the retention with their attempts, never an open one", async () => {
  const { db } = rig.database;
  const [on, off] = await db
    .insert(webhookEndpoint)
    .values([
      { url: "http://localhost:9/on", events: ["purchase.created"], secret: "whsec_AAAA" },
      { url: "http://localhost:9/off", events: ["purchase.created"], secret: "whsec_AAAA", enabled: false },
    ])
    .returning();
  const now = Date.now();
  const row = (
    endpointId: string,
    name: string,
    status: "pending" | "delivered" | "failed",
    age: number,
    claimed = false,
  ) => ({
    endpointId,
    eventType: "purchase.created",
    data: { name },
    status,
    occurredAt: new Date(now - (age + 1) * DAY),
    dueAt: new Date(now - age * DAY),
    // Being sent: a pending row with a fresh claim (migration 0063).
    ...(claimed ? { claimJob: "00000000-0000-4000-8000-000000000001", claimedAt: new Date(now) } : {}),
  });
  const R = WEBHOOK_LOG_RETENTION_DAYS;
  const rows = await db
    .insert(webhookDelivery)
    .values([
      row(on?.id as string, "delivered-old", "delivered", R + 1),
      row(on?.id as string, "failed-old", "failed", R + 5),
      row(on?.id as string, "delivered-kept", "delivered", R - 1),
      row(on?.id as string, "pending-old", "pending", R + 10),
      row(on?.id as string, "sending-old", "pending", R + 10, true),
      row(off?.id as string, "disabled-delivered-old", "delivered", R + 2),
      row(off?.id as string, "disabled-waiting-old", "pending", R + 20),
    ])
    .returning();
  const byName = new Map(rows.map((r) => [(r.data as { name: string }).name, r]));
  const failedOld = byName.get("failed-old");
  const kept = byName.get("delivered-kept");
  await db.insert(webhookAttempt).values(
    [failedOld, kept].map((d) => ({
      deliveryId: d?.id as string,
      endpointId: d?.endpointId as string,
      at: d?.dueAt as Date,
      outcome: "http_error",
      statusCode: 500,
      durationMs: 3,
    })),
  );
  const id = await rig.queue.send(WEBHOOK_HOUSEKEEPING_QUEUE, {});
  const job = await waitFor(
    () => rig.queue.job(WEBHOOK_HOUSEKEEPING_QUEUE, id),
    (j) => j?.state === "completed",
    15_000,
  );
  expect(job?.output).toEqual({ deliveries: 3 });
  const left = await db.select().from(webhookDelivery).orderBy(asc(webhookDelivery.seq));
  expect(left.map((r) => (r.data as { name: string }).name)).toEqual([
    "delivered-kept",
    "pending-old",
    "sending-old",
    "disabled-waiting-old",
  ]);
  const attempts = await db.select().from(webhookAttempt);
  expect(attempts.map((a) => a.deliveryId)).toEqual([kept?.id]);
  // A second run finds nothing more; a day later the kept one goes too.
  expect(await purgeWebhookLog(db)).toBe(0);
  expect(await purgeWebhookLog(db, new Date(now + 2 * DAY))).toBe(1);
  expect(
    await db
      .select()
      .from(webhookAttempt)
      .where(eq(webhookAttempt.deliveryId, kept?.id as string)),
  ).toEqual([]);
});

it("purges in batches until nothing old is left", async () => {
  const { db } = rig.database;
  await db.delete(webhookEndpoint);
  const [e] = await db
    .insert(webhookEndpoint)
    .values({ url: "http://localhost:9/many", events: ["purchase.created"], secret: "whsec_AAAA" })
    .returning();
  const old = new Date(Date.now() - (WEBHOOK_LOG_RETENTION_DAYS + 1) * DAY);
  await db.insert(webhookDelivery).values(
    Array.from({ length: 5200 }, () => ({
      endpointId: e?.id as string,
      eventType: "purchase.created",
      data: {},
      status: "delivered" as const,
      dueAt: old,
    })),
  );
  expect(await purgeWebhookLog(db)).toBe(5200);
  expect(await db.select().from(webhookDelivery)).toHaveLength(0);
});
