import type { Database } from "@platform/db/client";
import { authAccount } from "@platform/db/schema";
import { onFirstUse } from "@platform/deferred-modules";
import { and, eq } from "drizzle-orm";
import { isFirebaseHash } from "./firebase-hash-format";
import { verifyStoredFirebaseHash } from "./firebase-scrypt.server";

/** The native argon2 addon, loaded by the first hash or check rather than by every start (ADR 030, cold start). */
export const loadArgon2 = onFirstUse(() => import("@node-rs/argon2"));

/** argon2id at the OWASP Password Storage Cheat Sheet's first option: m=19 MiB, t=2, p=1. */
export const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
  outputLen: 32,
} as const;

export async function hashPassword(password: string): Promise<string> {
  const { hash } = await loadArgon2();
  return hash(password, ARGON2_OPTIONS);
}

/**
 * Checks a password against a stored hash: argon2id, or a Firebase scrypt hash of an imported member (ADR 038,
 * firebase-scrypt.server.ts). Where a member's password is checked, use checkAndUpgradePassword instead: it also
 * replaces an imported hash by argon2id.
 */
export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
  if (isFirebaseHash(stored)) return verifyStoredFirebaseHash(stored, password);
  const { verify } = await loadArgon2();
  try {
    return await verify(stored, password);
  } catch {
    // Not an argon2 hash (corrupt row): a failed login, not a 500.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification, for logins to accounts that do not exist, so the
 * response time does not reveal whether an account exists.
 */
export async function burnPasswordVerification(password: string): Promise<void> {
  dummyHash ??= hashPassword("no-such-account-placeholder");
  await verifyPassword({ hash: await dummyHash, password });
}

/** Whether a stored hash is not ours (argon2id) and is to be replaced at the next successful check. */
export function needsRehash(stored: string): boolean {
  return isFirebaseHash(stored);
}

/**
 * The one place a user's password is checked (member login, identity proof before sensitive changes and account
 * deletion, password change, a staff invitation accepted with an existing login): checks `password` against
 * `stored` (the user's credential account password, as the caller read it) and, when it matches and the hash is
 * an imported one (Firebase scrypt), replaces it by argon2id in the same request. The replacement only writes
 * over the very hash that was checked, so a password changed meanwhile is never overwritten.
 */
export async function checkAndUpgradePassword(
  db: Database,
  input: { userId: string; stored: string; password: string },
): Promise<boolean> {
  const valid = await verifyPassword({ hash: input.stored, password: input.password });
  if (!valid || !needsRehash(input.stored)) return valid;
  const upgraded = await hashPassword(input.password);
  await db
    .update(authAccount)
    .set({ password: upgraded, updatedAt: new Date() })
    .where(
      and(
        eq(authAccount.userId, input.userId),
        eq(authAccount.providerId, "credential"),
        eq(authAccount.password, input.stored),
      ),
    );
  return true;
}
