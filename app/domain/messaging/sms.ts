import { BRAND_NAME } from "@platform/constants";
import { MessageRejectedError } from "./errors";
import type { SmsMessage } from "./types";

/** Every text message starts with the brand in 【】 (PRODUCT.md §3). */
export const SMS_BRAND_PREFIX = `【${BRAND_NAME}】`;

/**
 * The longest text we send, brand included: five concatenated parts of 67 UCS-2 characters.
 * One-time codes need a tenth of it; a longer text is a bug in the caller.
 */
export const SMS_MAX_LENGTH = 335;

// Top-level domains a link in a text message would realistically use. A plain list keeps
// "3.5折" or "NT$1.50" legal while catching "example.com/x", "lin.ee/abc" and "bit.ly/abc".
const TLDS = [
  "com",
  "net",
  "org",
  "tw",
  "io",
  "me",
  "ly",
  "co",
  "cc",
  "ee",
  "gl",
  "gd",
  "to",
  "app",
  "dev",
  "info",
  "biz",
  "xyz",
  "link",
  "page",
  "site",
  "shop",
  "store",
  "top",
  "online",
  "club",
  "vip",
  "gov",
  "edu",
  "jp",
  "cn",
  "hk",
  "mo",
  "sg",
  "us",
  "uk",
  "ai",
  "gg",
  "tv",
  "im",
  "in",
  "cx",
  "su",
  "ru",
  "de",
  "fr",
  "it",
  "nl",
];

const URL_PATTERNS = [
  // Any scheme: https://, http://, line://, intent:// …
  /[a-z][a-z0-9+.-]*:\/\//i,
  /\bwww\./i,
  // A bare domain ("example.com", "lin.ee/abc"), also right next to Chinese text.
  new RegExp(
    `(?:^|[^a-z0-9-])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9-]+)*\\.(?:${TLDS.join("|")})(?![a-z0-9-])`,
    "i",
  ),
  // Punycode labels and raw IPv4 addresses.
  /\bxn--/i,
  /\b\d{1,3}(?:\.\d{1,3}){3}\b/,
];

/** True when the text carries something a phone would turn into a link. */
export function containsUrl(text: string): boolean {
  return URL_PATTERNS.some((pattern) => pattern.test(text));
}

/** A Taiwan mobile number, as typed (`0912-345-678`, `0912 345 678`, `+886 912 345 678`). */
const TAIWAN_MOBILE_NATIONAL = /^09\d{8}$/;
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * The recipient in E.164. Taiwan mobiles may be given nationally (`09…`); anything else must
 * already be E.164 (`+81…`). Spaces, dashes, dots and parentheses are ignored.
 */
export function normalizeSmsRecipient(input: string): string {
  const compact = input.trim().replace(/[\s\-().]/g, "");
  if (TAIWAN_MOBILE_NATIONAL.test(compact)) return `+886${compact.slice(1)}`;
  // "+886 0912…" is a common way to write it; the trunk 0 does not belong in E.164.
  if (/^\+88609\d{8}$/.test(compact)) return `+886${compact.slice(5)}`;
  if (E164.test(compact)) return compact;
  throw new MessageRejectedError("recipient", "The recipient is not a phone number (09xxxxxxxx or E.164 +…)");
}

/** `+8869xxxxxxxx` → `09xxxxxxxx`; null for anything that is not a Taiwan mobile number. */
export function taiwanMobileNational(e164: string): string | null {
  const match = /^\+886(9\d{8})$/.exec(e164);
  return match ? `0${match[1]}` : null;
}

/**
 * The text message as it will be sent: recipient in E.164, the brand in front. Refuses (throws
 * MessageRejectedError) an empty text, a text with a URL, and one longer than SMS_MAX_LENGTH.
 */
export function composeSms(message: SmsMessage): SmsMessage {
  const to = normalizeSmsRecipient(message.to);
  const body = message.text.trim();
  if (!body || body === SMS_BRAND_PREFIX) throw new MessageRejectedError("empty", "The text message is empty");
  if (containsUrl(body)) throw new MessageRejectedError("url", "A text message must not contain a URL");
  const text = body.startsWith(SMS_BRAND_PREFIX) ? body : `${SMS_BRAND_PREFIX}${body}`;
  if ([...text].length > SMS_MAX_LENGTH) {
    throw new MessageRejectedError("too-long", `A text message is at most ${SMS_MAX_LENGTH} characters`);
  }
  return { to, text };
}
