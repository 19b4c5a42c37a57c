import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { AddressRefusedError, type AddressRules, guardedLookup, isBlockedAddress } from "./address.server";

/** What one attempt came to; every kind is written to the delivery log. */
export type SendOutcome = {
  outcome: "ok" | "http_error" | "redirect" | "timeout" | "network" | "address_refused" | "secret_unreadable";
  statusCode: number | null;
  durationMs: number;
  error: string | null;
};

export type Sender = (url: string, headers: Record<string, string>, body: string) => Promise<SendOutcome>;

/**
 * POSTs one delivery (ADR 054): a 2xx is delivered; a redirect is a failure (never followed: it could lead to a
 * private address); no complete answer within `timeoutMs` (a slow answer included) is a timeout; the connection's
 * address is checked after DNS in production. Keep-alive agents per instance, so many deliveries share sockets.
 */
export function createSender(rules: AddressRules, options: { timeoutMs?: number; maxSockets?: number } = {}): Sender {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const lookup = guardedLookup(rules) as unknown as http.AgentOptions["lookup"];
  const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64, lookup };
  const agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) };
  return (raw, headers, body) =>
    new Promise<SendOutcome>((resolve) => {
      const started = performance.now();
      const finish = (o: Omit<SendOutcome, "durationMs">) =>
        resolve({ ...o, durationMs: Math.round(performance.now() - started) });
      let url: URL;
      try {
        url = new URL(raw);
      } catch {
        return finish({ outcome: "network", statusCode: null, error: "invalid URL" });
      }
      const host = url.hostname.replace(/^\[|\]$/g, "");
      // An address literal skips the lookup: checked here.
      if (rules.production && (url.protocol !== "https:" || (isIP(host) && isBlockedAddress(host)))) {
        return finish({ outcome: "address_refused", statusCode: null, error: `${host} is not a public https address` });
      }
      const client = url.protocol === "https:" ? https : http;
      const payload = Buffer.from(body);
      const request = client.request(url, {
        method: "POST",
        agent: url.protocol === "https:" ? agents.https : agents.http,
        headers: { ...headers, "content-length": String(payload.length), "user-agent": "han-living-webhooks/1" },
      });
      const timer = setTimeout(() => request.destroy(new TimeoutError()), timeoutMs);
      request.on("response", (response) => {
        response.resume();
        response.on("error", () => undefined);
        response.on("end", () => {
          clearTimeout(timer);
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) return finish({ outcome: "ok", statusCode: status, error: null });
          if (status >= 300 && status < 400) {
            return finish({
              outcome: "redirect",
              statusCode: status,
              error: `redirect to ${String(response.headers.location ?? "").slice(0, 200)} not followed`,
            });
          }
          finish({ outcome: "http_error", statusCode: status, error: null });
        });
      });
      request.on("error", (error) => {
        clearTimeout(timer);
        if (error instanceof TimeoutError) {
          return finish({ outcome: "timeout", statusCode: null, error: `no answer within ${timeoutMs / 1000} s` });
        }
        if (error instanceof AddressRefusedError) {
          return finish({ outcome: "address_refused", statusCode: null, error: error.message });
        }
        finish({ outcome: "network", statusCode: null, error: error.message.slice(0, 300) });
      });
      request.end(payload);
    });
}

class TimeoutError extends Error {}
