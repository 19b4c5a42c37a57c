import { DeliveryError } from "./errors";
import { isRetryableStatus, postForm, providerUrl } from "./provider-http.server";
import type { SmsProvider } from "./sms-provider";

/**
 * Twilio Programmable Messaging (any country). Messages API:
 *
 *   POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json
 *   Authorization: Basic base64(AccountSid:AuthToken)
 *   Content-Type: application/x-www-form-urlencoded
 *   To=+8869…&MessagingServiceSid=MG…  (or From=+1…)  &Body=…
 *
 * 201 with the Message resource (`sid`, `status` "queued" or "accepted") means Twilio took it.
 * Errors come as JSON `{ code, message, more_info, status }`: 429 (20429) and 5xx are worth a
 * retry, everything else (21211 invalid number, 21610 unsubscribed, 20003 bad credentials …) is
 * not. Twilio has no idempotency key for messages: a response lost after Twilio took the message
 * can lead to a second copy on retry (documented in ADR 005).
 */
export const TWILIO_DEFAULT_BASE_URL = "https://api.twilio.com";

export type TwilioOptions = {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** A Messaging Service picks the sender; takes precedence over `from`. */
  messagingServiceSid?: string | null;
  /** A Twilio number in E.164 or an alphanumeric sender id. */
  from?: string | null;
};

type TwilioError = { code?: number; message?: string; status?: number };

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

export function twilioSmsProvider(options: TwilioOptions, fetchImpl: typeof fetch = fetch): SmsProvider {
  if (!options.messagingServiceSid && !options.from) {
    throw new Error("Twilio needs a Messaging Service SID or a From number");
  }
  const url = providerUrl(
    options.baseUrl,
    `/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`,
  );
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString("base64")}`;
  return {
    name: "twilio",
    async send(sms) {
      const form = new URLSearchParams([["To", sms.to]]);
      if (options.messagingServiceSid) form.append("MessagingServiceSid", options.messagingServiceSid);
      else form.append("From", options.from as string);
      form.append("Body", sms.text);
      const response = await postForm(
        "twilio",
        url,
        form,
        { Authorization: authorization, Accept: "application/json" },
        fetchImpl,
      );
      const json = parseJson(response.body);
      if (response.status >= 200 && response.status <= 299) {
        const sid = (json as { sid?: unknown } | null)?.sid;
        return { providerMessageId: typeof sid === "string" ? sid : null };
      }
      const error = (json ?? {}) as TwilioError;
      const code = error.code === undefined ? undefined : String(error.code);
      throw new DeliveryError(
        `twilio: HTTP ${response.status}${code ? ` error ${code}` : ""}${error.message ? `: ${error.message}` : ""}`,
        { provider: "twilio", retryable: isRetryableStatus(response.status), status: response.status, code },
      );
    },
  };
}
