import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from "node:crypto";

/**
 * Keys derived from the app's session secret (one secret to manage; a purpose label per key), and the
 * hashes of the console's bearer secrets.
 */

function key(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "han-living-staff", purpose, 32));
}

/** AES-256-GCM: `v1.` + base64url(iv | tag | ciphertext). Authenticated: a changed byte fails to open. */
export function encryptSecret(secret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(secret, "totp-secret"), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
}

export function decryptSecret(secret: string, sealed: string): string {
  if (!sealed.startsWith("v1.")) throw new Error("unknown secret format");
  const raw = Buffer.from(sealed.slice(3), "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key(secret, "totp-secret"), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}

/** Session and invitation tokens: 256 random bits, so a plain SHA-256 is enough to store. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Recovery codes have ~60 bits: keyed (HMAC) so a stolen table cannot be brute-forced offline. */
export function recoveryCodeHash(secret: string, code: string): string {
  return createHmac("sha256", key(secret, "recovery-code")).update(normalizeRecoveryCode(code)).digest("hex");
}

const RECOVERY_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I

/** `XXXXX-XXXXX-XX`: 12 characters of a 32-letter alphabet (60 bits), grouped for reading aloud. */
export function newRecoveryCode(): string {
  const chars = Array.from(randomBytes(12), (b) => RECOVERY_ALPHABET[b & 31]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5, 10)}-${chars.slice(10)}`;
}

export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[^A-Z0-9]/g, "");
}

export function looksLikeRecoveryCode(code: string): boolean {
  return /^[A-Z0-9]{12}$/.test(normalizeRecoveryCode(code)) && !/^\d+$/.test(code.trim());
}
