import { onFirstUse } from "@platform/deferred-modules";

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

export async function verifyPassword({ hash: stored, password }: { hash: string; password: string }): Promise<boolean> {
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
