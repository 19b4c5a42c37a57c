import { DeliveryError } from "./errors";
import { isRetryableStatus, postForm, providerUrl } from "./provider-http.server";
import { taiwanMobileNational } from "./sms";
import type { SmsProvider } from "./sms-provider";

/**
 * 三竹簡訊 (Mitake), Taiwan. HTTP API `SmSend`:
 *
 *   POST {base}/api/mtk/SmSend?CharsetURL=UTF8
 *   Content-Type: application/x-www-form-urlencoded
 *   username=…&password=…&dstaddr=09xxxxxxxx&smbody=…&clientid=…
 *
 * `CharsetURL=UTF8` says the form values are UTF-8 (the alternative is Big5). Line breaks in
 * smbody are sent as ASCII 6. `clientid` is Mitake's duplicate guard: a repeated clientid within
 * 12 hours is not sent again, the first answer comes back with `Duplicate=Y`, so a retry after a
 * lost response never sends twice. Mitake answers HTTP 200 with plain `key=value` lines even for
 * errors, so only `statuscode` tells:
 *
 *   [1]
 *   msgid=1010079522
 *   statuscode=1
 *   AccountPoint=98
 *
 * Mitake delivers to Taiwan numbers only; others fail permanently (use Twilio for them).
 */
export const MITAKE_DEFAULT_BASE_URL = "https://smsapi.mitake.com.tw";
export const MITAKE_SEND_PATH = "/api/mtk/SmSend?CharsetURL=UTF8";

export type MitakeOptions = { baseUrl: string; username: string; password: string };

/** Accepted: 0 scheduled, 1–3 handed to the carrier, 4 delivered to the handset. */
const ACCEPTED = new Set(["0", "1", "2", "3", "4"]);
/** Mitake's own trouble: system error, sending paused, too many connections, service paused. */
const RETRYABLE = new Set(["*", "a", "b", "l", "r"]);

const DESCRIPTIONS: Record<string, string> = {
  "*": "system error",
  a: "sending temporarily unavailable",
  b: "sending temporarily unavailable",
  c: "username missing",
  d: "password missing",
  e: "wrong username or password",
  f: "account expired",
  h: "account disabled",
  k: "invalid connection address",
  l: "too many simultaneous connections",
  m: "password must be changed",
  n: "password expired",
  p: "no permission for the HTTP API",
  r: "service paused",
  s: "accounting failure (out of credit?)",
  t: "message expired",
  u: "empty message",
  v: "invalid phone number",
  x: "message too large",
  y: "invalid parameter",
  "5": "content error",
  "6": "phone number error",
  "7": "message disabled",
  "8": "delivery timed out",
  "9": "scheduled message cancelled",
};

/** Mitake answers in UTF-8 or, on older accounts, Big5: decode whichever it is. */
export function decodeMitakeResponse(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("big5").decode(bytes);
  }
}

export type MitakeResult = { statuscode?: string; msgid?: string; duplicate: boolean; error?: string };

/** The first message block of an SmSend answer. */
export function parseMitakeResponse(text: string): MitakeResult {
  const fields: Record<string, string> = {};
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.trim();
    if (!line) continue;
    if (/^\[.*\]$/.test(line)) {
      if (Object.keys(fields).length > 0) break;
      continue;
    }
    const eq = line.indexOf("=");
    if (eq > 0) fields[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return {
    statuscode: fields.statuscode,
    msgid: fields.msgid?.replace(/^#/, ""),
    duplicate: fields.Duplicate === "Y",
    error: fields.Error,
  };
}

export function mitakeSmsProvider(options: MitakeOptions, fetchImpl: typeof fetch = fetch): SmsProvider {
  const url = providerUrl(options.baseUrl, MITAKE_SEND_PATH);
  return {
    name: "mitake",
    async send(sms) {
      const dstaddr = taiwanMobileNational(sms.to);
      if (!dstaddr) {
        throw new DeliveryError("mitake: only Taiwan mobile numbers (+8869…) can be sent through Mitake", {
          provider: "mitake",
          retryable: false,
          code: "not-taiwan-mobile",
        });
      }
      const form = new URLSearchParams([
        ["username", options.username],
        ["password", options.password],
        ["dstaddr", dstaddr],
        ["smbody", sms.text.replace(/\r\n|\r|\n/g, "\x06")],
        ["clientid", sms.idempotencyKey],
      ]);
      const response = await postForm("mitake", url, form, {}, fetchImpl);
      if (response.status < 200 || response.status > 299) {
        throw new DeliveryError(`mitake: HTTP ${response.status}`, {
          provider: "mitake",
          retryable: isRetryableStatus(response.status),
          status: response.status,
        });
      }
      const result = parseMitakeResponse(decodeMitakeResponse(response.body));
      const code = result.statuscode;
      if (code === undefined) {
        // Nothing to go by: try again. The clientid keeps a retry from sending twice.
        throw new DeliveryError("mitake: answer without a statuscode", {
          provider: "mitake",
          retryable: true,
          status: response.status,
        });
      }
      if (ACCEPTED.has(code)) return { providerMessageId: result.msgid ?? null };
      const description = DESCRIPTIONS[code] ?? "unknown status code";
      throw new DeliveryError(`mitake: statuscode ${code} (${description}${result.error ? `: ${result.error}` : ""})`, {
        provider: "mitake",
        retryable: RETRYABLE.has(code),
        code,
        status: response.status,
      });
    },
  };
}
