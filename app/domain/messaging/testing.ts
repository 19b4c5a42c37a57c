import type { EmailTransport, OutgoingEmail } from "./email-transport.server";
import type { OutgoingSms, SmsProvider } from "./sms-provider";

/**
 * Test stand-ins for the two transports, kept in memory (tests that need the real protocol use the SMTP server and
 * the local SMS provider instead): an e-mail transport that records what it was given, and a text-message provider
 * that records, or refuses when a test expects no text message at all.
 */
export function recordingEmail(): EmailTransport & { sent: OutgoingEmail[] } {
  const sent: OutgoingEmail[] = [];
  return {
    name: "outbox",
    from: "漢生活 <no-reply@example.test>",
    sent,
    async send(email) {
      sent.push(email);
      return { messageId: email.idempotencyKey };
    },
    close() {},
  };
}

export function recordingSms(): SmsProvider & { sent: OutgoingSms[] } {
  const sent: OutgoingSms[] = [];
  return {
    name: "outbox",
    sent,
    async send(sms) {
      sent.push(sms);
      return { providerMessageId: null };
    },
  };
}

/** A provider that fails every send with `why`: the test expects no text message. */
export function refusingSms(why: string): SmsProvider {
  return {
    name: "outbox",
    async send() {
      throw new Error(why);
    },
  };
}
