import type { FirebaseHashConfig, ImportPassword } from "../imports/record";

/**
 * How an imported Firebase password is kept in `auth_account.password` until its first successful login
 * replaces it with argon2id (ADR 038): every parameter travels in the string, so checking it needs nothing
 * else. `$firebase-scrypt$r=<rounds>,m=<memCost>$<saltSeparator>$<signerKey>$<salt>$<hash>` (base64 values;
 * `$` never occurs in base64).
 */
export const FIREBASE_HASH_PREFIX = "$firebase-scrypt$";

export type StoredFirebaseHash = FirebaseHashConfig & { salt: string; hash: string };

export function encodeFirebaseHash(config: FirebaseHashConfig, password: ImportPassword): string {
  return `${FIREBASE_HASH_PREFIX}r=${config.rounds},m=${config.memCost}$${config.saltSeparator}$${config.signerKey}$${password.salt}$${password.hash}`;
}

export function isFirebaseHash(stored: string): boolean {
  return stored.startsWith(FIREBASE_HASH_PREFIX);
}

/** The parts of a stored Firebase hash, or null when it is not one or is damaged. */
export function decodeFirebaseHash(stored: string): StoredFirebaseHash | null {
  if (!isFirebaseHash(stored)) return null;
  const [params, saltSeparator, signerKey, salt, hash, ...rest] = stored.slice(FIREBASE_HASH_PREFIX.length).split("$");
  const match = /^r=(\d{1,2}),m=(\d{1,2})$/.exec(params ?? "");
  if (!match || rest.length > 0 || saltSeparator === undefined || !signerKey || !salt || !hash) return null;
  return { rounds: Number(match[1]), memCost: Number(match[2]), saltSeparator, signerKey, salt, hash };
}
