import type { Database } from "@platform/db/client";
import { createTransport } from "nodemailer";
import { DeliveryError } from "./errors";
import { recordOutboxMessage } from "./outbox.server";

/** An e-mail ready to go: rendered, addressed, with a key that is the same for every attempt. */
export type OutgoingEmail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The job id: becomes the Message-ID, so a retried e-mail is recognisably the same message. */
  idempotencyKey: string;
  /** Extra headers: List-Unsubscribe and List-Unsubscribe-Post on marketing (RFC 8058). */
  headers?: Record<string, string>;
};

export type EmailReceipt = { messageId: string | null };

export interface EmailTransport {
  readonly name: "smtp" | "outbox";
  /** The From header, e.g. `漢生活 <no-reply@example.com>`. */
  readonly from: string;
  send(email: OutgoingEmail): Promise<EmailReceipt>;
  close(): void;
}

/** The domain of the From address (for Message-IDs); `localhost` when it has none. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.split("@")[1]?.trim().toLowerCase() || "localhost";
}

/** Development and tests: e-mails are stored in the outbox table instead of being sent. */
export function outboxEmailTransport(db: Database, from: string): EmailTransport {
  return {
    name: "outbox",
    from,
    async send(email) {
      const id = await recordOutboxMessage(db, {
        channel: "email",
        to: email.to,
        from,
        subject: email.subject,
        body: email.text,
        html: email.html,
        headers: email.headers ?? null,
        jobId: email.idempotencyKey,
      });
      return { messageId: id };
    },
    close() {},
  };
}

type SmtpError = Error & { code?: string; responseCode?: number; response?: string };

/** RFC 5321: 5yz is a permanent refusal, except 503 (bad sequence), which a new session can pass. */
function isPermanentReply(code: number): boolean {
  return code >= 500 && code <= 599 && code !== 503;
}

function toDeliveryError(error: SmtpError): DeliveryError {
  const { code, responseCode } = error;
  // Without a reply: wrong or missing settings are permanent, connection trouble is not.
  const permanent =
    responseCode !== undefined ? isPermanentReply(responseCode) : code === "EAUTH" || code === "ECONFIG";
  return new DeliveryError(`smtp: ${error.message}`, {
    provider: "smtp",
    retryable: !permanent,
    code,
    status: responseCode,
    cause: error,
  });
}

/**
 * SMTP through nodemailer. `url` is `smtp://user:pass@host:587` (STARTTLS when offered) or
 * `smtps://user:pass@host:465` (TLS from the start). Short timeouts: the job queue retries.
 */
export function smtpEmailTransport(url: string, from: string): EmailTransport {
  const transporter = createTransport({
    url,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  const domain = senderDomain(from);
  return {
    name: "smtp",
    from,
    async send(email) {
      try {
        const info = await transporter.sendMail({
          from,
          to: email.to,
          subject: email.subject,
          text: email.text,
          html: email.html,
          messageId: `<${email.idempotencyKey}@${domain}>`,
          ...(email.headers ? { headers: email.headers } : {}),
        });
        return { messageId: info.messageId ?? null };
      } catch (error) {
        throw toDeliveryError(error as SmtpError);
      }
    },
    close() {
      transporter.close();
    },
  };
}
