import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import type { Database } from "@platform/db/client";
import { oneTimeCode } from "@platform/db/schema";
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { CodePurpose } from "../messaging/types";
import { claimLimitsIn, type Limit, LimitRefusedError } from "./rate-limits.server";

/** PRODUCT.md §3 "Messages and codes". */
export const CODE_POLICY = {
  digits: 6,
  validMinutes: 5,
  maxWrongTries: 5,
  resendCooldownSeconds: 60,
  perTarget: { hour: 5, day: 10 },
  perIp: { hour: 10, day: 30 },
  /** Codes a logged-in member may have sent to new numbers or addresses (change-phone, change-e-mail). */
  perMember: { hour: 5, day: 10 },
} as const;

export type IssueResult =
  | { ok: true; code: string; expiresAt: Date }
  | { ok: false; reason: "cooldown" | "rate_limited"; retryAfterSeconds: number };

export type VerifyResult = { ok: true } | { ok: false; reason: "invalid" | "expired" | "too_many_attempts" };

function hashCode(secret: string, purpose: string, target: string, code: string): string {
  return createHmac("sha256", secret).update(`${purpose}\u0000${target}\u0000${code}`).digest("hex");
}

export function sendLimits(target: string, ip: string | null, memberUserId?: string): Limit[] {
  const limits: Limit[] = [
    { key: `otp:target:${target}`, window: "hour", max: CODE_POLICY.perTarget.hour },
    { key: `otp:target:${target}`, window: "day", max: CODE_POLICY.perTarget.day },
  ];
  if (ip) {
    limits.push(
      { key: `otp:ip:${ip}`, window: "hour", max: CODE_POLICY.perIp.hour },
      { key: `otp:ip:${ip}`, window: "day", max: CODE_POLICY.perIp.day },
    );
  }
  if (memberUserId) {
    limits.push(
      { key: `otp:member:${memberUserId}`, window: "hour", max: CODE_POLICY.perMember.hour },
      { key: `otp:member:${memberUserId}`, window: "day", max: CODE_POLICY.perMember.day },
    );
  }
  return limits;
}

class CooldownError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super("cooldown");
  }
}

/**
 * Creates a new code for a target and purpose, all or nothing in one transaction of two atomic
 * statements:
 * 1. the code row is upserted only if the previous code for this target and purpose is at least
 *    60 s old (`on conflict … do update … where created_at <= now − 60 s`): there is one row per
 *    target and purpose, so simultaneous sends queue on it and one wins (the resend cooldown);
 * 2. one hit is claimed on every send limit (claimLimitsIn).
 * Either refusal rolls both back.
 *
 * `deliver: false` is for answers that must not reveal whether an account exists (an unknown
 * target of "forgot password", a number that is already a member's): the same limits are counted
 * and a code row exists with the same attempts and expiry, but its hash matches no code and the
 * caller sends nothing. `memberUserId` also counts the send against that member's own limits.
 */
export async function issueCode(
  db: Database,
  input: {
    purpose: CodePurpose;
    target: string;
    ip: string | null;
    secret: string;
    deliver?: boolean;
    memberUserId?: string;
  },
  now = new Date(),
): Promise<IssueResult> {
  const deliver = input.deliver !== false;
  const code = String(randomInt(0, 10 ** CODE_POLICY.digits)).padStart(CODE_POLICY.digits, "0");
  // A decoy hash is random hex of the same length: nothing typed can ever match it.
  const codeHash = deliver
    ? hashCode(input.secret, input.purpose, input.target, code)
    : randomBytes(32).toString("hex");
  const expiresAt = new Date(now.getTime() + CODE_POLICY.validMinutes * 60_000);
  const cooldownEdge = new Date(now.getTime() - CODE_POLICY.resendCooldownSeconds * 1000);
  try {
    await db.transaction(async (tx) => {
      // A new code replaces the previous one for the same target and purpose (its attempts too).
      const fresh = { codeHash, attempts: 0, expiresAt, consumedAt: null, createdAt: now };
      const [issued] = await tx
        .insert(oneTimeCode)
        .values({ purpose: input.purpose, target: input.target, ...fresh })
        .onConflictDoUpdate({
          target: [oneTimeCode.target, oneTimeCode.purpose],
          set: fresh,
          setWhere: sql`${oneTimeCode.createdAt} <= ${cooldownEdge.toISOString()}::timestamptz`,
        })
        .returning({ id: oneTimeCode.id });
      if (!issued) {
        const [previous] = await tx
          .select({ createdAt: oneTimeCode.createdAt })
          .from(oneTimeCode)
          .where(and(eq(oneTimeCode.target, input.target), eq(oneTimeCode.purpose, input.purpose)));
        const elapsed = previous ? (now.getTime() - previous.createdAt.getTime()) / 1000 : 0;
        throw new CooldownError(Math.max(1, Math.ceil(CODE_POLICY.resendCooldownSeconds - elapsed)));
      }
      await claimLimitsIn(tx, sendLimits(input.target, input.ip, input.memberUserId), now);
    });
  } catch (error) {
    if (error instanceof CooldownError) {
      return { ok: false, reason: "cooldown", retryAfterSeconds: error.retryAfterSeconds };
    }
    if (error instanceof LimitRefusedError) {
      return { ok: false, reason: "rate_limited", retryAfterSeconds: error.retryAfterSeconds };
    }
    throw error;
  }
  return { ok: true, code: deliver ? code : "", expiresAt };
}

/**
 * Verifies and consumes a code. Every try first claims one of the code's 5 tries in one
 * conditional update (`attempts = attempts + 1 … where attempts < 5 and unexpired and unused`),
 * and only a claimed try is compared: simultaneous guesses on any number of app instances try at
 * most 5 codes, and once they are spent the right code is refused too.
 */
export async function verifyCode(
  db: Database,
  input: { purpose: CodePurpose; target: string; code: string; secret: string },
  now = new Date(),
): Promise<VerifyResult> {
  const [claimed] = await db
    .update(oneTimeCode)
    .set({ attempts: sql`${oneTimeCode.attempts} + 1` })
    .where(
      and(
        eq(oneTimeCode.target, input.target),
        eq(oneTimeCode.purpose, input.purpose),
        isNull(oneTimeCode.consumedAt),
        gt(oneTimeCode.expiresAt, now),
        lt(oneTimeCode.attempts, CODE_POLICY.maxWrongTries),
      ),
    )
    .returning({ id: oneTimeCode.id, codeHash: oneTimeCode.codeHash, attempts: oneTimeCode.attempts });
  if (!claimed) return { ok: false, reason: await whyNoTry(db, input, now) };

  const typed = input.code.trim();
  const expected = Buffer.from(claimed.codeHash, "hex");
  const given = Buffer.from(hashCode(input.secret, input.purpose, input.target, typed), "hex");
  const matches = /^\d{6}$/.test(typed) && expected.length === given.length && timingSafeEqual(expected, given);
  if (!matches) {
    return { ok: false, reason: claimed.attempts >= CODE_POLICY.maxWrongTries ? "too_many_attempts" : "invalid" };
  }
  // Single use even under simultaneous submissions: only one update can flip consumedAt, and only
  // for the code that was compared (a resend in between replaced it).
  const consumed = await db
    .update(oneTimeCode)
    .set({ consumedAt: now })
    .where(
      and(
        eq(oneTimeCode.id, claimed.id),
        eq(oneTimeCode.codeHash, claimed.codeHash),
        isNull(oneTimeCode.consumedAt),
        gt(oneTimeCode.expiresAt, now),
      ),
    )
    .returning({ id: oneTimeCode.id });
  return consumed.length === 1 ? { ok: true } : { ok: false, reason: "invalid" };
}

/** Why no try could be claimed (the answer only; the refusal was decided by the update). */
async function whyNoTry(
  db: Database,
  input: { purpose: CodePurpose; target: string },
  now: Date,
): Promise<"invalid" | "expired" | "too_many_attempts"> {
  const [row] = await db
    .select({ expiresAt: oneTimeCode.expiresAt, consumedAt: oneTimeCode.consumedAt, attempts: oneTimeCode.attempts })
    .from(oneTimeCode)
    .where(and(eq(oneTimeCode.target, input.target), eq(oneTimeCode.purpose, input.purpose)));
  if (!row || row.consumedAt) return "invalid";
  if (row.expiresAt <= now) return "expired";
  return row.attempts >= CODE_POLICY.maxWrongTries ? "too_many_attempts" : "invalid";
}
