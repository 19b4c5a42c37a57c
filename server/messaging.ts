import type { EmailConfig, SmsConfig } from "@platform/config";
import type { Database } from "@platform/db/client";
import type { JobQueue } from "@platform/jobs/queue";
import {
  type EmailTransport,
  outboxEmailTransport,
  smtpEmailTransport,
} from "../app/domain/messaging/email-transport.server";
import {
  createMessaging,
  type MessagingWorkers,
  registerMessagingJobs,
} from "../app/domain/messaging/messaging.server";
import { mitakeSmsProvider } from "../app/domain/messaging/sms-mitake.server";
import { outboxSmsProvider } from "../app/domain/messaging/sms-outbox.server";
import type { SmsProvider } from "../app/domain/messaging/sms-provider";
import { twilioSmsProvider } from "../app/domain/messaging/sms-twilio.server";
import type { Messaging } from "../app/domain/messaging/types";

/** The configured text message provider (platform/config.ts decides which). */
export function createSmsProvider(config: SmsConfig, db: Database): SmsProvider {
  switch (config.provider) {
    case "outbox":
      return outboxSmsProvider(db);
    case "mitake":
      return mitakeSmsProvider(config);
    case "twilio":
      return twilioSmsProvider(config);
  }
}

export function createEmailTransport(config: EmailConfig, db: Database): EmailTransport {
  return config.provider === "smtp"
    ? smtpEmailTransport(config.url, config.from)
    : outboxEmailTransport(db, config.from);
}

export type MessagingSetup = {
  messaging: Messaging;
  sms: SmsProvider;
  email: EmailTransport;
  close(): void;
};

/** Builds the providers, declares the messaging queues and starts their workers. */
export async function startMessaging(options: {
  sms: SmsConfig;
  email: EmailConfig;
  db: Database;
  jobs: JobQueue;
  workers?: Pick<MessagingWorkers, "policy" | "concurrency">;
}): Promise<MessagingSetup> {
  const sms = createSmsProvider(options.sms, options.db);
  const email = createEmailTransport(options.email, options.db);
  await registerMessagingJobs(options.jobs, { db: options.db, sms, email, ...options.workers });
  return { messaging: createMessaging(options.jobs), sms, email, close: () => email.close() };
}
