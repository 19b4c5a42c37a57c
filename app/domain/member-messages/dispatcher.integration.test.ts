import type { Database } from "@platform/db/client";
import { memberMessage } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { recordingEmail, refusingSms } from "../messaging/testing";
import type { DeliveryDeps } from "./delivery.server";
import { DISPATCH_GATHER, startDispatcher } from "./jobs.server";

/**
 * The delivery's dispatcher gathers its notifications (ADR 034, "Later (2026-12-07, gathering)"): every purchase
 * queues a receipt and notifies `msg` at its commit; a notification starts no pass at once, the window's pass takes
 * every receipt queued in it. Until 2026-12-07 each notification started a pass (one after another, without end, at
 * a few hundred purchases a second), and the bench's purchase phase paid for them.
 */
let db: Database;
useMigratedTestDatabase("message_dispatcher", (handle) => {
  db = handle.db;
});

const email = recordingEmail();
const sms = refusingSms("a receipt does not go by text message");
const deps = (): DeliveryDeps => ({
  db,
  line: null,
  sms,
  email,
  secret: "d".repeat(40),
  publicBaseUrl: "https://members.example.test",
});

beforeAll(async () => {
  await insertTestStores(db, ["S1"]);
});

describe("the member messages' dispatcher", () => {
  it("gathers a stream of notifications into one pass that delivers every receipt queued in it", async () => {
    expect(DISPATCH_GATHER.ms).toBeGreaterThan(0);
    let notify: (payload: string) => void = () => undefined;
    const logger = { debug: () => undefined, warn: () => undefined, error: () => undefined };
    const dispatcher = startDispatcher(deps(), {
      subscribe: (listener) => {
        notify = listener;
        return () => undefined;
      },
      logger,
      gather: { ms: 60_000, events: 3 },
    });
    try {
      const buyers = await Promise.all(
        [0, 1, 2].map((i) => newMember(db, { email: `receipt-${i}-${Date.now()}@example.test` })),
      );
      const now = new Date();
      for (const [i, buyer] of buyers.entries()) {
        await recordPurchase(
          db,
          { memberId: buyer.id, storeId: "S1", receiptNumber: `GATHER-${i}`, netAmount: 1_200, purchasedAt: now },
          now,
        );
      }
      const statuses = async () =>
        (
          await Promise.all(
            buyers.map((b) =>
              db.select({ status: memberMessage.status }).from(memberMessage).where(eq(memberMessage.memberId, b.id)),
            ),
          )
        ).flatMap((rows) => rows.map((r) => r.status));
      // Two notifications: the window (a minute here) is still open, nothing has been taken.
      notify("msg");
      notify("msg");
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await statuses()).toEqual(["queued", "queued", "queued"]);
      // The third reaches the window's count: one pass takes all three.
      notify("msg");
      await dispatcher.idle();
      expect(await statuses()).toEqual(["sent", "sent", "sent"]);
      expect(email.sent.filter((m) => m.to.startsWith("receipt-"))).toHaveLength(3);
    } finally {
      await dispatcher.stop();
    }
  });
});
