import type { Database } from "@platform/db/client";
import { recordOutboxMessage } from "./outbox.server";
import type { SmsProvider } from "./sms-provider";

/** Development and tests: text messages are stored in the outbox table instead of being sent. */
export function outboxSmsProvider(db: Database): SmsProvider {
  return {
    name: "outbox",
    async send(sms) {
      const id = await recordOutboxMessage(db, {
        channel: "sms",
        to: sms.to,
        from: null,
        subject: null,
        body: sms.text,
        html: null,
        jobId: sms.idempotencyKey,
      });
      return { providerMessageId: id };
    },
  };
}
