import { randomBytes } from "node:crypto";
import { type FakeHttpServer, type RecordedRequest, startFakeHttpServer } from "@platform/testing/fake-http";

/**
 * A local stand-in for Twilio's Messages API, strict about what Twilio expects and answering with
 * Twilio's JSON bodies:
 *
 *   POST /2010-04-01/Accounts/{AccountSid}/Messages.json
 *   Authorization: Basic base64(AccountSid:AuthToken)
 *   To (E.164), From or MessagingServiceSid, Body   (application/x-www-form-urlencoded)
 *
 * 201 with the Message resource on success; `{ code, message, more_info, status }` otherwise.
 */
export type TwilioFault = "rate-limited" | "server-error";

export type TwilioAccepted = {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
};

export type FakeTwilio = FakeHttpServer & {
  accepted: TwilioAccepted[];
  fail(...faults: TwilioFault[]): void;
};

export async function startFakeTwilio(credentials: { accountSid: string; authToken: string }): Promise<FakeTwilio> {
  const accepted: TwilioAccepted[] = [];
  const faults: TwilioFault[] = [];
  const { accountSid } = credentials;
  const resourcePath = `/2010-04-01/Accounts/${accountSid}/Messages.json`;

  const server = await startFakeHttpServer((req: RecordedRequest, res) => {
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    };
    const error = (status: number, code: number, message: string) =>
      json(status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });

    const expected = `Basic ${Buffer.from(`${accountSid}:${credentials.authToken}`).toString("base64")}`;
    if (req.headers.authorization !== expected) {
      return error(401, 20003, "Authentication Error - invalid username");
    }
    if (req.method !== "POST" || req.url !== resourcePath) {
      return error(404, 20404, `The requested resource ${req.url} was not found`);
    }
    const fault = faults.shift();
    if (fault === "rate-limited") return error(429, 20429, "Too Many Requests");
    if (fault === "server-error") return error(500, 20500, "Internal Server Error");

    if ((req.headers["content-type"] ?? "").split(";")[0]?.trim() !== "application/x-www-form-urlencoded") {
      return error(400, 20001, "Invalid content type");
    }
    const form = new URLSearchParams(req.body.toString("utf8"));
    const to = form.get("To") ?? "";
    const from = form.get("From");
    const messagingServiceSid = form.get("MessagingServiceSid");
    const body = form.get("Body") ?? "";
    if (!to) return error(400, 21604, "A 'To' phone number is required.");
    if (!/^\+[1-9]\d{7,14}$/.test(to)) return error(400, 21211, `The 'To' number ${to} is not a valid phone number.`);
    if (!from && !messagingServiceSid) return error(400, 21603, "A 'From' phone number is required.");
    if (!body) return error(400, 21602, "Message body is required.");
    if ([...body].length > 1600)
      return error(400, 21617, "The concatenated message body exceeds the 1600 character limit.");

    const sid = `SM${randomBytes(16).toString("hex")}`;
    accepted.push({ sid, to, from, messagingServiceSid, body });
    const now = new Date().toUTCString().replace("GMT", "+0000");
    json(201, {
      account_sid: accountSid,
      api_version: "2010-04-01",
      body,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: "outbound-api",
      error_code: null,
      error_message: null,
      from,
      messaging_service_sid: messagingServiceSid,
      num_media: "0",
      num_segments: "1",
      price: null,
      price_unit: "USD",
      sid,
      status: messagingServiceSid ? "accepted" : "queued",
      subresource_uris: { media: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}/Media.json` },
      to,
      uri: `/2010-04-01/Accounts/${accountSid}/Messages/${sid}.json`,
    });
  });

  return {
    ...server,
    accepted,
    fail(...more) {
      faults.push(...more);
    },
  };
}
