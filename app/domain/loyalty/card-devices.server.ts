import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { Database } from "@platform/db/client";
import { member, memberDevice } from "@platform/db/schema";
import { and, desc, eq, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { CARD_STEP_SECONDS, cardCode, cardStep, parseCardCode, sameCode } from "~/lib/card-code";
import { derivedKey } from "~/lib/derived-key.server";

/**
 * The offline member card's devices (ADR 043): each phone or browser that opened the card page while online holds
 * its own 32-byte secret and computes the rotating code itself (app/lib/card-code.ts). Here: handing a secret out,
 * listing and removing devices, and the one verification the counter and the POS lookup both call.
 */

/** Codes of the step before and after the server's are accepted too (phone clocks drift; a code shown at 29 s). */
export const CARD_STEP_WINDOW = 1;

export type DeviceRefusal =
  | "malformed"
  | "forged"
  | "expired"
  | "future"
  | "replayed"
  | "device_revoked"
  | "device_unknown"
  | "unknown_member"
  | "member_disabled";

// The secret at rest: AES-256-GCM under a key derived from the server secret (its own HKDF label), so a copy of
// the database alone (a backup, a replica) cannot make anyone's card codes.
function wrapKey(serverSecret: string) {
  return derivedKey(serverSecret, "member-card-device-secret v1");
}

export function sealSecret(serverSecret: string, deviceId: string, secret: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", wrapKey(serverSecret), iv);
  cipher.setAAD(Buffer.from(deviceId));
  const sealed = Buffer.concat([cipher.update(secret), cipher.final()]);
  return Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString("base64url");
}

export function openSecret(serverSecret: string, deviceId: string, sealed: string): Buffer {
  const bytes = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", wrapKey(serverSecret), bytes.subarray(0, 12));
  decipher.setAAD(Buffer.from(deviceId));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]);
}

export type RegisteredDevice = { deviceId: string; memberId: string; secret: string; stepSeconds: number };

/** How many devices a member may hold a card on at once (removing one makes room). */
export const MAX_CARD_DEVICES = 10;

/**
 * A new device for this member: its id and secret (base64url), which only this answer ever carries; null when the
 * member already has MAX_CARD_DEVICES (the count and the insert are one statement).
 */
export async function registerCardDevice(
  db: Database,
  serverSecret: string,
  input: { memberId: string; name: string; sessionId: string | null },
  now = new Date(),
): Promise<RegisteredDevice | null> {
  const id = crypto.randomUUID();
  const secret = randomBytes(32);
  const inserted = await db
    .insert(memberDevice)
    .select(
      db
        .select({
          id: sql<string>`${id}::uuid`.as("id"),
          memberId: member.id,
          name: sql<string>`${input.name.slice(0, 80)}::text`.as("name"),
          secretEncrypted: sql<string>`${sealSecret(serverSecret, id, secret)}::text`.as("secret_encrypted"),
          sessionId: sql<string | null>`${input.sessionId}::text`.as("session_id"),
          lastStep: sql<number>`0`.as("last_step"),
          createdAt: sql<Date>`${now.toISOString()}::timestamptz`.as("created_at"),
          lastUsedAt: sql<Date | null>`null::timestamptz`.as("last_used_at"),
          revokedAt: sql<Date | null>`null::timestamptz`.as("revoked_at"),
        })
        .from(member)
        .where(
          and(
            eq(member.id, input.memberId),
            sql`(select count(*) from ${memberDevice} where ${memberDevice.memberId} = ${input.memberId} and ${memberDevice.revokedAt} is null) < ${MAX_CARD_DEVICES}`,
          ),
        ),
    )
    .returning({ id: memberDevice.id });
  if (inserted.length === 0) return null;
  return {
    deviceId: id,
    memberId: input.memberId,
    secret: secret.toString("base64url"),
    stepSeconds: CARD_STEP_SECONDS,
  };
}

export type CardDevice = { id: string; name: string; createdAt: Date; lastUsedAt: Date | null };

/** The member's devices that still hold a working card, newest first. */
export async function listCardDevices(db: Database, memberId: string): Promise<CardDevice[]> {
  return db
    .select({
      id: memberDevice.id,
      name: memberDevice.name,
      createdAt: memberDevice.createdAt,
      lastUsedAt: memberDevice.lastUsedAt,
    })
    .from(memberDevice)
    .where(and(eq(memberDevice.memberId, memberId), isNull(memberDevice.revokedAt)))
    .orderBy(desc(memberDevice.createdAt));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Which of the member's cards to revoke: one device (the member removes it in security), the devices one login
 * registered (logging out), those of the member's other logins ("log out everywhere else", a password change in
 * security), or all of them (staff ending every session or disabling the member, a password reset).
 */
export type CardDeviceSelection =
  | { device: string; memberId: string }
  | { session: string }
  | { otherThan: string; memberId: string }
  | { user: string };

function selected(which: CardDeviceSelection) {
  if ("device" in which) return and(eq(memberDevice.id, which.device), eq(memberDevice.memberId, which.memberId));
  if ("session" in which) return eq(memberDevice.sessionId, which.session);
  if ("otherThan" in which) {
    return and(
      eq(memberDevice.memberId, which.memberId),
      or(isNull(memberDevice.sessionId), ne(memberDevice.sessionId, which.otherThan)),
    );
  }
  return inArray(
    memberDevice.memberId,
    sql`(select ${member.id} from ${member} where ${member.userId} = ${which.user})`,
  );
}

/**
 * The selected cards stop working at once (their next code is refused: the counter's check reads `revoked_at` in the
 * same statement that accepts a code). One UPDATE; runs in the caller's transaction when given one. Returns how many
 * devices it revoked (0 for a device id that is not a UUID, not this member's, or already gone).
 */
export async function revokeCardDevices(
  db: Pick<Database, "update">,
  which: CardDeviceSelection,
  now = new Date(),
): Promise<number> {
  if ("device" in which && !UUID.test(which.device)) return 0;
  const revoked = await db
    .update(memberDevice)
    .set({ revokedAt: now })
    .where(and(selected(which), isNull(memberDevice.revokedAt)))
    .returning({ id: memberDevice.id });
  return revoked.length;
}

export type DeviceCheck =
  | { ok: true; member: typeof member.$inferSelect; deviceId: string }
  | { ok: false; reason: DeviceRefusal; memberId?: string };

/**
 * A scanned offline card code: the format, the step within ±1 of the server's, the device (known, not removed), the
 * code (constant time, signed with the device's member), and at last one conditional UPDATE that raises the device's last step, so
 * the same code (or an older one) sent twice, at once or later, over any number of instances, is accepted once.
 */
export async function verifyDeviceCode(
  db: Database,
  serverSecret: string,
  text: string,
  now = new Date(),
): Promise<DeviceCheck> {
  const parsed = parseCardCode(text);
  if (!parsed) return { ok: false, reason: "malformed" };
  const current = cardStep(now.getTime());
  if (parsed.step < current - CARD_STEP_WINDOW) return { ok: false, reason: "expired" };
  if (parsed.step > current + CARD_STEP_WINDOW) return { ok: false, reason: "future" };
  const [device] = await db.select().from(memberDevice).where(eq(memberDevice.id, parsed.deviceId));
  if (!device) return { ok: false, reason: "device_unknown" };
  let secret: Buffer;
  try {
    secret = openSecret(serverSecret, device.id, device.secretEncrypted);
  } catch {
    // Sealed under another server secret (rotated): no code of this device can be checked any more.
    return { ok: false, reason: "forged" };
  }
  // Signed with the member the device belongs to: a code made for another member's id does not match.
  const expected = await cardCode(secret, device.memberId, device.id, parsed.step);
  if (!sameCode(expected, parsed.code)) return { ok: false, reason: "forged", memberId: device.memberId };
  if (device.revokedAt) return { ok: false, reason: "device_revoked", memberId: device.memberId };
  const used = await db
    .update(memberDevice)
    .set({ lastStep: parsed.step, lastUsedAt: now })
    .where(and(eq(memberDevice.id, device.id), isNull(memberDevice.revokedAt), lt(memberDevice.lastStep, parsed.step)))
    .returning({ id: memberDevice.id });
  if (used.length === 0) {
    // Either removed between the two statements, or this step (or a later one) was used already.
    const [after] = await db
      .select({ revokedAt: memberDevice.revokedAt })
      .from(memberDevice)
      .where(eq(memberDevice.id, device.id));
    return { ok: false, reason: after?.revokedAt ? "device_revoked" : "replayed", memberId: device.memberId };
  }
  const [found] = await db.select().from(member).where(eq(member.id, device.memberId));
  if (!found) return { ok: false, reason: "unknown_member" };
  if (found.disabled) return { ok: false, reason: "member_disabled" };
  return { ok: true, member: found, deviceId: device.id };
}
