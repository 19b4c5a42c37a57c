import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "../../../server/db/client";
import { oneTimeCode } from "../../../server/db/schema";
import type { CodePurpose } from "../messaging/types";
import { hitLimits, type Limit } from "./rate-limits.server";

/** PRODUCT.md §3 "Messages and codes". */
export const CODE_POLICY = {
  digits: 6,
  validMinutes: 5,
  maxWrongTries: 5,
  resendCooldownSeconds: 60,
  perTarget: { hour: 5, day: 10 },
  perIp: { hour: 10, day: 30 },
} as const;

export type IssueResult =
  | { ok: true; code: string; expiresAt: Date }
  | { ok: false; reason: "cooldown" | "rate_limited"; retryAfterSeconds: number };

export type VerifyResult = { ok: true } | { ok: false; reason: "invalid" | "expired" | "too_many_attempts" };

function hashCode(secret: string, purpose: string, target: string, code: string): string {
  return createHmac("sha256", secret).update(`${purpose}\u0000${target}\u0000${code}`).digest("hex");
}

export function sendLimits(target: string, ip: string | null): Limit[] {
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
  return limits;
}

/**
 * Checks the resend cooldown and the send limits, then (only when `deliver` is true) creates a
 * new code. Callers that must not reveal whether an account exists pass deliver=false for unknown
 * targets: the limits and the answer are the same, but no code exists and nothing is sent.
 */
export async function issueCode(
  db: Database,
  input: { purpose: CodePurpose; target: string; ip: string | null; secret: string; deliver?: boolean },
  now = new Date(),
): Promise<IssueResult> {
  const [latest] = await db
    .select({ createdAt: oneTimeCode.createdAt })
    .from(oneTimeCode)
    .where(and(eq(oneTimeCode.target, input.target), eq(oneTimeCode.purpose, input.purpose)))
    .orderBy(desc(oneTimeCode.createdAt))
    .limit(1);
  if (latest) {
    const elapsed = (now.getTime() - latest.createdAt.getTime()) / 1000;
    if (elapsed < CODE_POLICY.resendCooldownSeconds) {
      return {
        ok: false,
        reason: "cooldown",
        retryAfterSeconds: Math.ceil(CODE_POLICY.resendCooldownSeconds - elapsed),
      };
    }
  }
  const limited = await hitLimits(db, sendLimits(input.target, input.ip), now);
  if (!limited.allowed) return { ok: false, reason: "rate_limited", retryAfterSeconds: limited.retryAfterSeconds };

  const code = String(randomInt(0, 10 ** CODE_POLICY.digits)).padStart(CODE_POLICY.digits, "0");
  const expiresAt = new Date(now.getTime() + CODE_POLICY.validMinutes * 60_000);
  if (input.deliver === false) {
    // Record the attempt for the cooldown without a usable code (the hash of nothing matches nothing).
    await db.insert(oneTimeCode).values({
      purpose: input.purpose,
      target: input.target,
      codeHash: "unusable",
      expiresAt: now,
      consumedAt: now,
      createdAt: now,
    });
    return { ok: true, code: "", expiresAt };
  }
  // A new code replaces any older unused one for the same target and purpose.
  await db
    .update(oneTimeCode)
    .set({ consumedAt: now })
    .where(
      and(eq(oneTimeCode.target, input.target), eq(oneTimeCode.purpose, input.purpose), isNull(oneTimeCode.consumedAt)),
    );
  await db.insert(oneTimeCode).values({
    purpose: input.purpose,
    target: input.target,
    codeHash: hashCode(input.secret, input.purpose, input.target, code),
    expiresAt,
    createdAt: now,
  });
  return { ok: true, code, expiresAt };
}

/** Verifies and consumes a code. Wrong tries count against the code; the 5th wrong try burns it. */
export async function verifyCode(
  db: Database,
  input: { purpose: CodePurpose; target: string; code: string; secret: string },
  now = new Date(),
): Promise<VerifyResult> {
  const [row] = await db
    .select()
    .from(oneTimeCode)
    .where(
      and(eq(oneTimeCode.target, input.target), eq(oneTimeCode.purpose, input.purpose), isNull(oneTimeCode.consumedAt)),
    )
    .orderBy(desc(oneTimeCode.createdAt))
    .limit(1);
  if (!row) return { ok: false, reason: "invalid" };
  if (row.expiresAt <= now) return { ok: false, reason: "expired" };
  if (row.attempts >= CODE_POLICY.maxWrongTries) return { ok: false, reason: "too_many_attempts" };

  const expected = Buffer.from(row.codeHash, "hex");
  const given = Buffer.from(hashCode(input.secret, input.purpose, input.target, input.code.trim()), "hex");
  const matches =
    /^\d{6}$/.test(input.code.trim()) && expected.length === given.length && timingSafeEqual(expected, given);
  if (!matches) {
    const [updated] = await db
      .update(oneTimeCode)
      .set({ attempts: sql`${oneTimeCode.attempts} + 1` })
      .where(eq(oneTimeCode.id, row.id))
      .returning({ attempts: oneTimeCode.attempts });
    return {
      ok: false,
      reason: (updated?.attempts ?? 0) >= CODE_POLICY.maxWrongTries ? "too_many_attempts" : "invalid",
    };
  }
  // Single use even under concurrent submissions: only one update can flip consumedAt.
  const consumed = await db
    .update(oneTimeCode)
    .set({ consumedAt: now })
    .where(and(eq(oneTimeCode.id, row.id), isNull(oneTimeCode.consumedAt), gt(oneTimeCode.expiresAt, now)))
    .returning({ id: oneTimeCode.id });
  return consumed.length === 1 ? { ok: true } : { ok: false, reason: "invalid" };
}
