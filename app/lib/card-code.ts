/**
 * The offline member card's code (ADR 043), shared by the phone (the card page's script) and the server (the
 * counter and the POS lookup): WebCrypto only, so the same function runs on both.
 *
 * A TOTP in the style of RFC 6238 with HMAC-SHA-256: the 30-second step counter T = floor(unix seconds / 30),
 * HMAC-SHA-256(device secret, message), dynamic truncation (RFC 4226 §5.3) to 8 decimal digits. The message is the
 * step as 8 bytes big-endian (exactly RFC 6238's) followed by the member id and the device id (16 bytes each), so
 * the code signs who it is for: a code cannot be moved to another member's or another device's QR.
 *
 * The QR's text: `HLD1.<device id>.<step>.<code>`, the device id as base64url of its 16 bytes (22 characters), the
 * step in decimal, the code 8 digits: 45 characters (a counter's typed field and a handheld scanner take 60). The
 * member id is not written out but signed: the server computes the code with the member the device belongs to.
 */

export const CARD_STEP_SECONDS = 30;
export const CARD_CODE_DIGITS = 8;
export const CARD_CODE_PREFIX = "HLD1.";

/** The step counter of an instant (ms since the epoch). */
export function cardStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / CARD_STEP_SECONDS);
}

/** RFC 4226 HOTP over an arbitrary message with HMAC-SHA-256: dynamic truncation to `digits` decimal digits. */
export async function hotpSha256(secret: Uint8Array, message: Uint8Array, digits = CARD_CODE_DIGITS): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secret as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message as BufferSource));
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary =
    (((mac[offset] as number) & 0x7f) << 24) |
    ((mac[offset + 1] as number) << 16) |
    ((mac[offset + 2] as number) << 8) |
    (mac[offset + 3] as number);
  return String(binary % 10 ** digits).padStart(digits, "0");
}

/** The step as RFC 6238's 8-byte big-endian counter. */
export function stepBytes(step: number): Uint8Array {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setBigUint64(0, BigInt(step));
  return bytes;
}

function uuidBytes(uuid: string): Uint8Array {
  const hex = uuid.replace(/-/g, "");
  const bytes = new Uint8Array(16);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

function uuidFromBytes(bytes: Uint8Array): string {
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The code of one step for one member's device. */
export async function cardCode(secret: Uint8Array, memberId: string, deviceId: string, step: number): Promise<string> {
  const message = new Uint8Array(40);
  message.set(stepBytes(step), 0);
  message.set(uuidBytes(memberId), 8);
  message.set(uuidBytes(deviceId), 24);
  return hotpSha256(secret, message);
}

/** The QR's text for this instant. */
export async function cardCodeText(
  secret: Uint8Array,
  memberId: string,
  deviceId: string,
  nowMs: number,
): Promise<string> {
  const step = cardStep(nowMs);
  const code = await cardCode(secret, memberId, deviceId, step);
  return `${CARD_CODE_PREFIX}${base64url(uuidBytes(deviceId))}.${step}.${code}`;
}

export type ParsedCardCode = { deviceId: string; step: number; code: string };

const FORMAT = /^HLD1\.([A-Za-z0-9_-]{22})\.([1-9][0-9]{0,9})\.([0-9]{8})$/;

/**
 * The parts of a QR's text, or null when it is not exactly this format (one spelling per code: an id whose
 * base64url spells the same bytes differently is not the one the device wrote).
 */
export function parseCardCode(text: string): ParsedCardCode | null {
  const match = FORMAT.exec(text);
  if (!match) return null;
  const device = fromBase64url(match[1] as string);
  if (base64url(device) !== match[1]) return null;
  const step = Number(match[2]);
  if (!Number.isSafeInteger(step) || step > 0x7fffffff) return null;
  return { deviceId: uuidFromBytes(device), step, code: match[3] as string };
}

/** Whether a text is meant as an offline card code (then only its verification answers for it). */
export function isCardCode(text: string): boolean {
  return text.startsWith(CARD_CODE_PREFIX);
}

/** Constant-time comparison of two codes of equal length. */
export function sameCode(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
