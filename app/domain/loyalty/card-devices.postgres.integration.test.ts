import type { DatabaseHandle } from "@platform/db/client";
import { memberDevice } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { cardCodeText, cardStep, fromBase64url } from "~/lib/card-code";
import { registerCardDevice, revokeCardDevices, verifyDeviceCode } from "./card-devices.server";
import { newMember } from "./testing.server";

/**
 * The offline card's replay refusal under real concurrency (ADR 043): two database handles stand in for two app
 * instances; only on PostgreSQL (PGlite serialises everything on one connection).
 */
let one: DatabaseHandle;
let two: DatabaseHandle;

useTwoPostgresInstances("card_devices_conc", (pair) => {
  ({ one, two } = pair);
});

const serverSecret = "s".repeat(40);

describe("offline card codes at once over two instances", () => {
  it("the same code sent 20 times at once is accepted once", { timeout: 60_000 }, async () => {
    const m = await newMember(one.db);
    const now = new Date("2026-12-06T04:00:05Z");
    const device = await registerCardDevice(
      one.db,
      serverSecret,
      { memberId: m.id, name: "iphone/safari", sessionId: null },
      now,
    );
    if (!device) throw new Error("not registered");
    const text = await cardCodeText(fromBase64url(device.secret), m.id, device.deviceId, now.getTime());
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verifyDeviceCode(i % 2 ? one.db : two.db, serverSecret, text, now)),
    );
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok).map((a) => (a.ok ? "" : a.reason))).toEqual(Array(19).fill("replayed"));
    const [row] = await one.db.select().from(memberDevice).where(eq(memberDevice.id, device.deviceId));
    expect(row?.lastStep).toBe(cardStep(now.getTime()));
  });

  it("after a removal, 20 scans of a fresh code at once over both instances are all refused", {
    timeout: 60_000,
  }, async () => {
    const m = await newMember(one.db);
    const now = new Date("2026-12-06T05:00:05Z");
    const device = await registerCardDevice(
      one.db,
      serverSecret,
      { memberId: m.id, name: "android/chrome", sessionId: null },
      now,
    );
    if (!device) throw new Error("not registered");
    await revokeCardDevices(two.db, { device: device.deviceId, memberId: m.id }, now);
    const text = await cardCodeText(fromBase64url(device.secret), m.id, device.deviceId, now.getTime());
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => verifyDeviceCode(i % 2 ? one.db : two.db, serverSecret, text, now)),
    );
    expect(answers.map((a) => (a.ok ? "ok" : a.reason))).toEqual(Array(20).fill("device_revoked"));
  });
});
