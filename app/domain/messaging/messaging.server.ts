import type { Database } from "@platform/db/client";
import { type JobContext, type JobQueue, type QueuePolicy, willRetry } from "@platform/jobs/queue";
import { countMessage } from "@platform/metrics";
import { renderEmail, validateEmailMessage } from "./email-templates.server";
import type { EmailTransport } from "./email-transport.server";
import { purgeOutbox } from "./outbox.server";
import { composeSms } from "./sms";
import type { SmsProvider } from "./sms-provider";
import type { EmailMessage, Messaging, SmsMessage } from "./types";

/** Queue names (pg-boss queues; see docs/decisions/005-job-queue.md). */
export const SMS_QUEUE = "messaging.sms";
export const EMAIL_QUEUE = "messaging.email";
export const OUTBOX_PURGE_QUEUE = "messaging.outbox-purge";

/** Outbox messages older than this are deleted every night (03:30 Asia/Taipei). */
export const OUTBOX_RETENTION_DAYS = 14;
export const OUTBOX_PURGE_CRON = "30 3 * * *";

/**
 * Retries for outgoing messages: 5 s, ~10 s, ~20 s, ~40 s, ~80 s (with jitter). A one-time code
 * is good for 5 minutes, so a message that cannot go out within about three is not worth sending;
 * the caller's resend (after its 60 s cooldown) is the better way out.
 */
export const MESSAGE_POLICY: QueuePolicy = {
  retryLimit: 5,
  retryDelay: 5,
  retryDelayMax: 80,
  // A provider call times out after 10 s; an attempt that runs far longer is stuck.
  expireInSeconds: 60,
  // Jobs carry the text (with the code): keep finished ones only briefly.
  deleteAfterSeconds: 60 * 60,
};

export type SmsJob = SmsMessage;
export type EmailJob = EmailMessage;

/** Checks and queues a text message; returns the job id. Throws MessageRejectedError for bad input. */
export async function enqueueSms(jobs: JobQueue, message: SmsMessage): Promise<string> {
  const sms: SmsJob = composeSms(message);
  return jobs.send(SMS_QUEUE, sms);
}

/** Checks and queues an e-mail; returns the job id. Throws MessageRejectedError for bad input. */
export async function enqueueEmail(jobs: JobQueue, message: EmailMessage): Promise<string> {
  const email: EmailJob = validateEmailMessage(message);
  return jobs.send(EMAIL_QUEUE, email);
}

/** The Messaging contract (types.ts) on top of the job queue: both calls only enqueue. */
export function createMessaging(jobs: JobQueue): Messaging {
  return {
    async sendSms(message) {
      await enqueueSms(jobs, message);
    },
    async sendEmail(message) {
      await enqueueEmail(jobs, message);
    },
  };
}

export type MessagingWorkers = {
  db: Database;
  sms: SmsProvider;
  email: EmailTransport;
  /** Overrides MESSAGE_POLICY (tests use short delays). */
  policy?: QueuePolicy;
  /** Attempts per queue this instance runs at once. Default 2. */
  concurrency?: number;
};

/** A provider call, counted as sent, retry (the job tries again) or failed per channel and provider (/metrics). */
async function countedSend<T>(
  channel: "sms" | "email",
  provider: string,
  job: JobContext<unknown>,
  send: () => Promise<T>,
): Promise<T> {
  try {
    const receipt = await send();
    countMessage(channel, provider, "sent");
    return receipt;
  } catch (error) {
    countMessage(channel, provider, willRetry(job, error) ? "retry" : "failed");
    throw error;
  }
}

/** Declares the messaging queues and runs their workers on this instance (every instance does). */
export async function registerMessagingJobs(jobs: JobQueue, workers: MessagingWorkers): Promise<void> {
  const policy = { ...MESSAGE_POLICY, ...workers.policy };
  const concurrency = workers.concurrency ?? 2;
  await jobs.define(SMS_QUEUE, policy);
  await jobs.define(EMAIL_QUEUE, policy);
  await jobs.define(OUTBOX_PURGE_QUEUE, { retryLimit: 2, retryDelay: 60 });

  await jobs.work<SmsJob>(
    SMS_QUEUE,
    async (job) => {
      // Checked again: a job written by an older release must still follow today's rules.
      const sms = composeSms(job.data);
      const receipt = await countedSend("sms", workers.sms.name, job, () =>
        workers.sms.send({ ...sms, idempotencyKey: job.id }),
      );
      return { provider: workers.sms.name, providerMessageId: receipt.providerMessageId };
    },
    { concurrency },
  );

  await jobs.work<EmailJob>(
    EMAIL_QUEUE,
    async (job) => {
      const rendered = renderEmail(job.data);
      const receipt = await countedSend("email", workers.email.name, job, () =>
        workers.email.send({ to: job.data.to, ...rendered, idempotencyKey: job.id }),
      );
      return { transport: workers.email.name, messageId: receipt.messageId };
    },
    { concurrency },
  );

  await jobs.work(OUTBOX_PURGE_QUEUE, async () => {
    const before = new Date(Date.now() - OUTBOX_RETENTION_DAYS * 24 * 60 * 60 * 1000);
    return { deleted: await purgeOutbox(workers.db, before) };
  });
  await jobs.schedule(OUTBOX_PURGE_QUEUE, OUTBOX_PURGE_CRON);
}
