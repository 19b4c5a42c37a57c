import type { LineMessagingConfig } from "@platform/config";
import { DeliveryError } from "../messaging/errors";
import { isRetryableStatus, PROVIDER_TIMEOUT_MS, USER_AGENT } from "../messaging/provider-http.server";

/**
 * The LINE Messaging API client (the brand's Official Account): push, multicast, reply and the
 * profile check, as LINE documents them. Every push and multicast carries an `X-Line-Retry-Key`
 * chosen by the caller (one per message and recipient set, kept with the queued job), so a call
 * retried after a timeout is never delivered twice: LINE answers 409 to a key it already accepted,
 * which is success here. 429 and 5xx are retryable DeliveryErrors; other refusals are permanent.
 */
export type LineMessagingChannel = Exclude<LineMessagingConfig, { mode: "disabled" }>;

export type LineTextMessage = { type: "text"; text: string };
export type LineFlexMessage = { type: "flex"; altText: string; contents: Record<string, unknown> };
export type LineMessage = LineTextMessage | LineFlexMessage;

/** LINE's limits: 1–5 message objects a call, 1–500 recipients a multicast, 5,000 characters of text. */
export const LINE_MAX_MESSAGES = 5;
export const LINE_MULTICAST_MAX = 500;
export const LINE_TEXT_MAX = 5000;

export type LineSendResult = { outcome: "sent" | "already-sent"; requestId: string | null };

const PROVIDER = "line";
const RETRY_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * LINE's data host (api-data.line.me) takes uploads such as a rich menu's image; the local fake and a configured
 * host of our own take them on the API host.
 */
export function lineDataBaseUrl(channel: LineMessagingChannel): string {
  return channel.dataApiBaseUrl ?? channel.apiBaseUrl.replace("://api.line.me", "://api-data.line.me");
}

export function lineMessagingChannel(config: LineMessagingConfig): LineMessagingChannel | null {
  return config.mode === "disabled" ? null : config;
}

export function createLineMessagingClient(channel: LineMessagingChannel, fetchImpl: typeof fetch = fetch) {
  async function call(
    path: string,
    init: {
      method: "GET" | "POST" | "DELETE";
      body?: unknown;
      retryKey?: string;
      /** A file's bytes (the rich-menu image) to LINE's data host instead of a JSON body. */
      file?: { bytes: Uint8Array; contentType: string };
    },
  ) {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${channel.accessToken}`,
      "User-Agent": USER_AGENT,
    };
    if (init.body !== undefined) headers["Content-Type"] = "application/json";
    if (init.file) headers["Content-Type"] = init.file.contentType;
    if (init.retryKey) headers["X-Line-Retry-Key"] = init.retryKey;
    let response: Response;
    try {
      response = await fetchImpl(`${init.file ? lineDataBaseUrl(channel) : channel.apiBaseUrl}${path}`, {
        method: init.method,
        headers,
        body: init.file
          ? new Blob([init.file.bytes as Uint8Array<ArrayBuffer>])
          : init.body === undefined
            ? undefined
            : JSON.stringify(init.body),
        redirect: "error",
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
    } catch (error) {
      // LINE may or may not have taken it: the retry key makes the next try safe.
      throw new DeliveryError(`line: request failed (${(error as Error).message})`, {
        provider: PROVIDER,
        retryable: true,
        cause: error,
      });
    }
    const text = await response.text().catch(() => "");
    return { response, text };
  }

  function refusal(status: number, text: string): DeliveryError {
    let message = "";
    try {
      message = String((JSON.parse(text) as { message?: unknown }).message ?? "");
    } catch {
      // not JSON: the status says enough
    }
    return new DeliveryError(`line: ${status} ${message}`.trim(), {
      provider: PROVIDER,
      retryable: isRetryableStatus(status),
      status,
      code: status === 429 ? "quota_or_rate" : undefined,
    });
  }

  function checkMessages(messages: LineMessage[]) {
    if (messages.length < 1 || messages.length > LINE_MAX_MESSAGES) {
      throw new RangeError(`LINE takes 1 to ${LINE_MAX_MESSAGES} messages a call, not ${messages.length}`);
    }
    for (const m of messages) {
      if (m.type === "text" && (m.text.length < 1 || m.text.length > LINE_TEXT_MAX)) {
        throw new RangeError(`a LINE text message has 1 to ${LINE_TEXT_MAX} characters`);
      }
    }
  }

  function checkRetryKey(retryKey: string) {
    if (!RETRY_KEY.test(retryKey)) throw new RangeError("X-Line-Retry-Key must be a UUID");
  }

  async function send(path: string, body: unknown, retryKey: string): Promise<LineSendResult> {
    const { response, text } = await call(path, { method: "POST", body, retryKey });
    if (response.ok) return { outcome: "sent", requestId: response.headers.get("x-line-request-id") };
    // 409: this key was accepted before (a retry after a lost answer) — delivered once, as wanted.
    if (response.status === 409) {
      return { outcome: "already-sent", requestId: response.headers.get("x-line-accepted-request-id") };
    }
    throw refusal(response.status, text);
  }

  return {
    /** The raw call and LINE's refusal (the rich-menu client's calls use them). */
    call,
    refusal,
    /** One user. A blocked user is accepted by LINE and not delivered (the unfollow webhook says so). */
    push(to: string, messages: LineMessage[], retryKey: string): Promise<LineSendResult> {
      checkMessages(messages);
      checkRetryKey(retryKey);
      return send("/v2/bot/message/push", { to, messages }, retryKey);
    },

    /** Up to 500 users with the same messages. */
    multicast(to: string[], messages: LineMessage[], retryKey: string): Promise<LineSendResult> {
      if (to.length < 1 || to.length > LINE_MULTICAST_MAX) {
        throw new RangeError(`a multicast goes to 1 to ${LINE_MULTICAST_MAX} users, not ${to.length}`);
      }
      checkMessages(messages);
      checkRetryKey(retryKey);
      return send("/v2/bot/message/multicast", { to, messages }, retryKey);
    },

    /** The answer to a webhook event (its reply token is single use and short-lived; no retry key). */
    async reply(replyToken: string, messages: LineMessage[]): Promise<void> {
      checkMessages(messages);
      const { response, text } = await call("/v2/bot/message/reply", {
        method: "POST",
        body: { replyToken, messages },
      });
      if (!response.ok) throw refusal(response.status, text);
    },

    /** Whether the user follows the account now (LINE answers 404 for someone who blocked it). */
    async isFollower(userId: string): Promise<boolean> {
      const { response, text } = await call(`/v2/bot/profile/${encodeURIComponent(userId)}`, { method: "GET" });
      if (response.ok) return true;
      if (response.status === 404) return false;
      throw refusal(response.status, text);
    },
  };
}

export type LineMessagingClient = ReturnType<typeof createLineMessagingClient>;
