import type { Database } from "@platform/db/client";
import { authUser, staffRecoveryCode, staffTotp } from "@platform/db/schema";
import { and, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import {
  decryptSecret,
  encryptSecret,
  looksLikeRecoveryCode,
  newRecoveryCode,
  recoveryCodeHash,
} from "./secrets.server";
import { matchTotp, newTotpSecret, otpauthUri } from "./totp";

/** Every staff account has an authenticator app (TOTP) and recovery codes (ADR 020). */

export type StaffSecrets = { db: Database; secret: string };

export const RECOVERY_CODE_COUNT = 10;
export const TOTP_ISSUER = "漢生活 Console";
/** A started enrolment keeps its secret this long (a reload shows the same QR code). */
export const ENROLMENT_REUSE_MINUTES = 15;

export async function hasConfirmedTotp(db: Database, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ confirmedAt: staffTotp.confirmedAt })
    .from(staffTotp)
    .where(eq(staffTotp.userId, userId));
  return Boolean(row?.confirmedAt);
}

/**
 * Starts the enrolment: a new secret, kept until a code confirms it. Reloading the page within a few
 * minutes shows the same secret (the app may have scanned it already). An enrolment that was confirmed is
 * never replaced here (losing the phone is what recovery codes are for).
 */
export async function beginTotpEnrolment(
  deps: StaffSecrets,
  userId: string,
  now = new Date(),
): Promise<{ ok: true; secret: string; uri: string } | { ok: false; reason: "already_enrolled" }> {
  const [row] = await deps.db.select().from(staffTotp).where(eq(staffTotp.userId, userId));
  if (row?.confirmedAt) return { ok: false, reason: "already_enrolled" };
  const [user] = await deps.db
    .select({ email: authUser.email, phone: authUser.phoneNumber })
    .from(authUser)
    .where(eq(authUser.id, userId));
  const account = user?.email && !user.email.endsWith(".invalid") ? user.email : (user?.phone ?? userId);
  const fresh = row && now.getTime() - row.createdAt.getTime() < ENROLMENT_REUSE_MINUTES * 60_000;
  if (row && fresh) {
    const secret = decryptSecret(deps.secret, row.secretEncrypted);
    return { ok: true, secret, uri: otpauthUri(secret, account, TOTP_ISSUER) };
  }
  const secret = newTotpSecret();
  const sealed = encryptSecret(deps.secret, secret);
  await deps.db
    .insert(staffTotp)
    .values({ userId, secretEncrypted: sealed, createdAt: now })
    .onConflictDoUpdate({
      target: staffTotp.userId,
      set: { secretEncrypted: sealed, createdAt: now },
      setWhere: isNull(staffTotp.confirmedAt),
    });
  return { ok: true, secret, uri: otpauthUri(secret, account, TOTP_ISSUER) };
}

/**
 * Confirms the enrolment with a first code from the app and issues the recovery codes, shown once.
 * Runs in one transaction with its audit row.
 */
export async function confirmTotpEnrolment(
  deps: StaffSecrets,
  userId: string,
  code: string,
  audit: AuditContext,
  now = new Date(),
): Promise<{ ok: true; recoveryCodes: string[] } | { ok: false; reason: "invalid_code" | "not_started" }> {
  const [row] = await deps.db.select().from(staffTotp).where(eq(staffTotp.userId, userId));
  if (!row || row.confirmedAt) return { ok: false, reason: "not_started" };
  const step = matchTotp(decryptSecret(deps.secret, row.secretEncrypted), code.trim(), now);
  if (step === null) return { ok: false, reason: "invalid_code" };
  const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const confirmed = await auditedTx(deps.db, audit, now, async (tx, record) => {
    const [done] = await tx
      .update(staffTotp)
      .set({ confirmedAt: now, lastUsedStep: step })
      .where(
        and(
          eq(staffTotp.userId, userId),
          isNull(staffTotp.confirmedAt),
          eq(staffTotp.secretEncrypted, row.secretEncrypted),
        ),
      )
      .returning({ userId: staffTotp.userId });
    if (!done) return false;
    await tx.delete(staffRecoveryCode).where(eq(staffRecoveryCode.userId, userId));
    await tx
      .insert(staffRecoveryCode)
      .values(recoveryCodes.map((c) => ({ userId, codeHash: recoveryCodeHash(deps.secret, c) })));
    await record("staff.second_factor_enrolled", ["staff", userId], {
      after: { method: "totp", recoveryCodes: RECOVERY_CODE_COUNT },
    });
    return true;
  });
  return confirmed ? { ok: true, recoveryCodes } : { ok: false, reason: "not_started" };
}

/**
 * Checks a second-factor code: a TOTP code (each time step at most once: a code cannot be replayed)
 * or an unused recovery code (spent by the check). Both are single conditional updates.
 */
export async function checkSecondFactor(
  deps: StaffSecrets,
  userId: string,
  code: string,
  now = new Date(),
): Promise<"totp" | "recovery" | null> {
  const given = code.trim();
  if (/^\d{6}$/.test(given)) {
    const [row] = await deps.db
      .select()
      .from(staffTotp)
      .where(and(eq(staffTotp.userId, userId), isNotNull(staffTotp.confirmedAt)));
    if (!row) return null;
    const step = matchTotp(decryptSecret(deps.secret, row.secretEncrypted), given, now);
    if (step === null) return null;
    const [used] = await deps.db
      .update(staffTotp)
      .set({ lastUsedStep: step })
      .where(and(eq(staffTotp.userId, userId), or(isNull(staffTotp.lastUsedStep), lt(staffTotp.lastUsedStep, step))))
      .returning({ userId: staffTotp.userId });
    return used ? "totp" : null;
  }
  if (!looksLikeRecoveryCode(given)) return null;
  const [spent] = await deps.db
    .update(staffRecoveryCode)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCode.userId, userId),
        eq(staffRecoveryCode.codeHash, recoveryCodeHash(deps.secret, given)),
        isNull(staffRecoveryCode.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCode.id });
  return spent ? "recovery" : null;
}

export async function remainingRecoveryCodes(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffRecoveryCode)
    .where(and(eq(staffRecoveryCode.userId, userId), isNull(staffRecoveryCode.usedAt)));
  return row?.n ?? 0;
}
