import type { Database } from "@platform/db/client";
import { memberDevice } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { CARD_STEP_SECONDS, cardCodeText, cardStep, fromBase64url } from "~/lib/card-code";
import {
  listCardDevices,
  MAX_CARD_DEVICES,
  openSecret,
  registerCardDevice,
  revokeCardDevices,
  verifyDeviceCode,
} from "./card-devices.server";
import { issueCardToken } from "./card-tokens.server";
import { LoyaltyError } from "./errors";
import { findMemberAtCounter } from "./member-lookup.server";
import { newMember } from "./testing.server";

let db: Database;
useMigratedTestDatabase("card_devices", (handle) => {
  db = handle.db;
});

const serverSecret = "s".repeat(40);
const t0 = new Date("2026-12-06T04:00:05Z");
const at = (steps: number) => new Date(t0.getTime() + steps * CARD_STEP_SECONDS * 1000);

async function setUp(options: { disabled?: boolean } = {}) {
  const m = await newMember(db, options);
  const device = await registerCardDevice(
    db,
    serverSecret,
    { memberId: m.id, name: "iphone/safari", sessionId: `s-${m.id}` },
    t0,
  );
  if (!device) throw new Error("not registered");
  const secret = fromBase64url(device.secret);
  const code = (when: Date, ids = { memberId: m.id, deviceId: device.deviceId }) =>
    cardCodeText(secret, ids.memberId, ids.deviceId, when.getTime());
  return { m, device, secret, code };
}

async function atCounter(text: string, now: Date): Promise<string> {
  try {
    const found = await findMemberAtCounter(db, { cardToken: text }, { cardSecret: serverSecret, now });
    return `member:${found.id}`;
  } catch (error) {
    if (error instanceof LoyaltyError) return error.code;
    throw error;
  }
}

describe("offline card devices (ADR 043)", () => {
  it("registers a device whose secret is kept encrypted and only handed out once", async () => {
    const { m, device } = await setUp();
    expect(device.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const [row] = await db.select().from(memberDevice).where(eq(memberDevice.id, device.deviceId));
    expect(row?.secretEncrypted).not.toContain(device.secret);
    expect(openSecret(serverSecret, device.deviceId, row?.secretEncrypted ?? "").toString("base64url")).toBe(
      device.secret,
    );
    expect(() => openSecret("t".repeat(40), device.deviceId, row?.secretEncrypted ?? "")).toThrow();
    expect(await listCardDevices(db, m.id)).toEqual([
      { id: device.deviceId, name: "iphone/safari", createdAt: t0, lastUsedAt: null },
    ]);
  });

  it("accepts a device's code at the counter once, within one step either side of the server's clock", async () => {
    const { m, code } = await setUp();
    expect(await atCounter(await code(t0), t0)).toBe(`member:${m.id}`);
    // The same code again (a screenshot, a second scan): refused.
    expect(await atCounter(await code(t0), t0)).toBe("card_token_replayed");
    // The phone's clock one step ahead, then the next step: accepted.
    expect(await atCounter(await code(at(1)), t0)).toBe(`member:${m.id}`);
    // An older step than one already used: refused as a replay, even within the window.
    expect(await atCounter(await code(at(0)), at(1))).toBe("card_token_replayed");
    // One step behind the server's: accepted (a code shown at the end of its 30 s).
    expect(await atCounter(await code(at(2)), at(3))).toBe(`member:${m.id}`);
    const [row] = await db.select().from(memberDevice).where(eq(memberDevice.memberId, m.id));
    expect(row?.lastStep).toBe(cardStep(at(2).getTime()));
    expect(row?.lastUsedAt).toEqual(at(3));
  });

  it("refuses codes from the far past and the far future: a screenshot stops within a minute", async () => {
    const { code } = await setUp();
    const shot = await code(t0);
    expect(await atCounter(shot, at(2))).toBe("card_token_expired");
    expect(await atCounter(shot, at(-2))).toBe("card_token_future");
    expect(await atCounter(await code(at(1000)), t0)).toBe("card_token_future");
    expect(await atCounter(await code(at(-1000)), t0)).toBe("card_token_expired");
  });

  it("refuses a removed device at once, and only the member can remove their own", async () => {
    const { m, device, code } = await setUp();
    const other = await newMember(db);
    expect(await revokeCardDevices(db, { device: device.deviceId, memberId: other.id })).toBe(0);
    expect(await revokeCardDevices(db, { device: "not-a-uuid", memberId: m.id })).toBe(0);
    expect(await atCounter(await code(t0), t0)).toBe(`member:${m.id}`);
    expect(await revokeCardDevices(db, { device: device.deviceId, memberId: m.id }, t0)).toBe(1);
    expect(await revokeCardDevices(db, { device: device.deviceId, memberId: m.id }, t0)).toBe(0);
    expect(await atCounter(await code(at(1)), at(1))).toBe("card_device_revoked");
    expect(await listCardDevices(db, m.id)).toEqual([]);
  });

  it("logging out revokes the devices that login set up, not the others", async () => {
    const { m, device, code } = await setUp();
    const other = await registerCardDevice(
      db,
      serverSecret,
      { memberId: m.id, name: "android/chrome", sessionId: "x" },
      t0,
    );
    expect(await revokeCardDevices(db, { session: `s-${m.id}` })).toBe(1);
    expect(await atCounter(await code(t0), t0)).toBe("card_device_revoked");
    expect((await listCardDevices(db, m.id)).map((d) => d.id)).toEqual([other?.deviceId]);
    expect(device.deviceId).not.toBe(other?.deviceId);
  });

  it("refuses a code signed for another member, and an unknown device", async () => {
    const { secret, device, m } = await setUp();
    const other = await newMember(db);
    // This device's secret, but signed for another member's id: not what the device's member would show.
    expect(await atCounter(await cardCodeText(secret, other.id, device.deviceId, t0.getTime()), t0)).toBe(
      "card_token_forged",
    );
    // Another member's device with its own secret, signed for this member: forged too (the device is theirs).
    const theirs = await setUp();
    expect(await atCounter(await cardCodeText(theirs.secret, m.id, theirs.device.deviceId, t0.getTime()), t0)).toBe(
      "card_token_forged",
    );
    // An unknown device id.
    expect(await atCounter(await cardCodeText(secret, m.id, crypto.randomUUID(), t0.getTime()), t0)).toBe(
      "card_device_unknown",
    );
    // The real code of each still works.
    expect(await atCounter(await theirs.code(t0), t0)).toBe(`member:${theirs.m.id}`);
  });

  it("refuses a forged code (a guessed or altered code, another secret) and never books the step", async () => {
    const { m, device, code } = await setUp();
    const good = await code(t0);
    const altered = `${good.slice(0, -1)}${good.endsWith("0") ? "1" : "0"}`;
    expect(await atCounter(altered, t0)).toBe("card_token_forged");
    const wrongSecret = new Uint8Array(32).fill(9);
    expect(await atCounter(await cardCodeText(wrongSecret, m.id, device.deviceId, t0.getTime()), t0)).toBe(
      "card_token_forged",
    );
    // The forged attempts did not use up the step: the real code still works.
    expect(await atCounter(good, t0)).toBe(`member:${m.id}`);
  });

  it.each([
    ["empty after the prefix", "HLD1."],
    ["a NUL byte", "HLD1.\u0000"],
    ["NUL bytes inside a good shape", `HLD1.${"A".repeat(21)}\u0000.1.12345678`],
    ["letters in the code", `HLD1.${"A".repeat(22)}.1.1234567x`],
    ["a huge step", `HLD1.${"A".repeat(22)}.99999999999999999999.12345678`],
    ["far too long", `HLD1.${"A".repeat(5000)}`],
  ])("refuses a malformed code (%s) with a stable code", async (_name, text) => {
    expect(await atCounter(text, t0)).toBe("card_token_malformed");
  });

  it("refuses a disabled member's device, and still accepts the server's own tokens", async () => {
    const off = await setUp({ disabled: true });
    expect(await atCounter(await off.code(t0), t0)).toBe("member_disabled");
    const { m } = await setUp();
    expect(await atCounter(issueCardToken(serverSecret, m.id, t0).token, t0)).toBe(`member:${m.id}`);
  });

  it(`caps a member's devices at ${MAX_CARD_DEVICES}; removing one makes room`, async () => {
    const m = await newMember(db);
    const input = { memberId: m.id, name: "other/other", sessionId: null };
    const made = [];
    for (let i = 0; i < MAX_CARD_DEVICES; i++) made.push(await registerCardDevice(db, serverSecret, input, t0));
    expect(made.every(Boolean)).toBe(true);
    expect(await registerCardDevice(db, serverSecret, input, t0)).toBeNull();
    await revokeCardDevices(db, { device: made[0]?.deviceId ?? "", memberId: m.id });
    expect(await registerCardDevice(db, serverSecret, input, t0)).not.toBeNull();
    // An unknown member registers nothing.
    expect(await registerCardDevice(db, serverSecret, { ...input, memberId: crypto.randomUUID() }, t0)).toBeNull();
  });

  it("verifyDeviceCode answers the device it accepted", async () => {
    const { m, device, code } = await setUp();
    const check = await verifyDeviceCode(db, serverSecret, await code(t0), t0);
    expect(check).toMatchObject({ ok: true, deviceId: device.deviceId, member: { id: m.id } });
  });
});
