import { createCipheriv, scrypt, timingSafeEqual } from "node:crypto";
import type { FirebaseHashConfig, ImportPassword } from "../imports/record";
import { decodeFirebaseHash } from "./firebase-hash-format";

/**
 * Firebase Authentication's modified scrypt (ADR 038), checked with node's own crypto:
 * key = scrypt(password, salt ‖ saltSeparator, N = 2^memCost, r = rounds, p = 1, 32 bytes), then
 * hash = AES-256-CTR(key, IV = 16 zero bytes) over the project's signer key. Test vectors come from the npm
 * package `firebase-scrypt` (a devDependency only). Imported hashes live until the member's first login,
 * which replaces them with argon2id (checkAndUpgradePassword).
 */

/** scrypt needs 128·N·r bytes; above this the stored parameters are not Firebase's (mem_cost ≤ 14, rounds ≤ 8). */
const MAX_SCRYPT_BYTES = 128 * 2 ** 16 * 16;

function base64(value: string): Buffer {
  // `firebase auth:export` writes standard base64, the Admin SDK the URL-safe alphabet: accept both.
  return Buffer.from(value.replace(/-/g, "+").replace(/_/g, "/"), "base64");
}

function scryptAsync(password: string, salt: Buffer, N: number, r: number): Promise<Buffer> {
  const needed = 128 * N * r;
  return new Promise((resolve, reject) => {
    // Off the event loop (libuv thread pool); maxmem above what N and r need (the default is 32 MiB).
    scrypt(password, salt, 32, { N, r, p: 1, maxmem: 2 * needed + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** The base64 hash Firebase stores for `password` with this project's parameters and the user's salt. */
export async function firebaseScryptHash(config: FirebaseHashConfig, salt: string, password: string): Promise<string> {
  return (await firebaseScryptBytes(config, salt, password)).toString("base64");
}

async function firebaseScryptBytes(config: FirebaseHashConfig, salt: string, password: string): Promise<Buffer> {
  const { rounds, memCost } = config;
  if (!Number.isInteger(rounds) || !Number.isInteger(memCost) || rounds < 1 || memCost < 1 || memCost > 20) {
    throw new RangeError("firebase scrypt parameters out of range");
  }
  const N = 2 ** memCost;
  if (128 * N * rounds > MAX_SCRYPT_BYTES) throw new RangeError("firebase scrypt parameters out of range");
  const key = await scryptAsync(password, Buffer.concat([base64(salt), base64(config.saltSeparator)]), N, rounds);
  const cipher = createCipheriv("aes-256-ctr", key, Buffer.alloc(16, 0));
  return Buffer.concat([cipher.update(base64(config.signerKey)), cipher.final()]);
}

/**
 * Whether `password` matches a Firebase hash made with these parameters (constant-time comparison).
 * False, never a throw, for damaged values: a failed login, not a 500.
 */
export async function verifyFirebaseScrypt(
  config: FirebaseHashConfig,
  stored: Pick<ImportPassword, "salt" | "hash">,
  password: string,
): Promise<boolean> {
  const expected = base64(stored.hash);
  if (expected.length === 0) return false;
  let actual: Buffer;
  try {
    actual = await firebaseScryptBytes(config, stored.salt, password);
  } catch {
    return false;
  }
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Checks a password against an `auth_account.password` value in the stored Firebase format (firebase-hash-format.ts). */
export async function verifyStoredFirebaseHash(stored: string, password: string): Promise<boolean> {
  const decoded = decodeFirebaseHash(stored);
  if (!decoded) return false;
  return verifyFirebaseScrypt(decoded, decoded, password);
}
