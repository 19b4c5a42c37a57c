import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { messageOutbox } from "@platform/db/schema";
import { type JobQueue, startJobQueue } from "@platform/jobs/queue";
import { registry } from "@platform/metrics";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { type FakeMitake, startFakeMitake } from "@platform/testing/fake-mitake";
import { type FakeTwilio, startFakeTwilio } from "@platform/testing/fake-twilio";
import { messageResults, resultsSince } from "@platform/testing/metrics";
import { startTestSmtpServer, type TestSmtpServer } from "@platform/testing/smtp";
import { waitFor } from "@platform/testing/wait";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmailTransport, outboxEmailTransport, smtpEmailTransport } from "./email-transport.server";
import { MessageRejectedError } from "./errors";
import {
  createMessaging,
  EMAIL_QUEUE,
  enqueueEmail,
  enqueueSms,
  OUTBOX_PURGE_CRON,
  OUTBOX_PURGE_QUEUE,
  registerMessagingJobs,
  SMS_QUEUE,
} from "./messaging.server";
import { purgeOutbox, readOutbox, recordOutboxMessage } from "./outbox.server";
import { mitakeSmsProvider } from "./sms-mitake.server";
import { outboxSmsProvider } from "./sms-outbox.server";
import type { SmsProvider } from "./sms-provider";
import { twilioSmsProvider } from "./sms-twilio.server";

/**
 * Messaging end to end below the HTTP layer: the real job queue on the test database (PGlite, or
 * PostgreSQL with TEST_DATABASE_URL), real providers' adapters against local fakes of their APIs,
 * and a real SMTP server. Each block gets its own database, queue and providers.
 */
const logger = pino({ level: "silent" });
// Retries one second apart so a retry is seen within the test's patience.
const FAST_POLICY = { retryLimit: 3, retryDelay: 1, retryDelayMax: 1 };

type Rig = { database: DatabaseHandle; jobs: JobQueue; close(): Promise<void> };

/** hanliving_messages_total for SMS through Twilio, by result. */
const twilioCounts = () => messageResults(registry, { channel: "sms", provider: "twilio" });

async function startRig(
  providers: (db: DatabaseHandle["db"]) => { sms: SmsProvider; email: EmailTransport },
): Promise<Rig> {
  const testDb: TestDatabase = await createTestDatabase({ label: "messaging", migrated: true });
  const database = await openDatabase(testDb.config);
  await database.migrate();
  const jobs = await startJobQueue({
    connection: database.connection,
    logger,
    pollingIntervalSeconds: 0.5,
    notifyPollingIntervalSeconds: 0.5,
  });
  const { sms, email } = providers(database.db);
  await registerMessagingJobs(jobs, { db: database.db, sms, email, policy: FAST_POLICY });
  return {
    database,
    jobs,
    async close() {
      await jobs.stop(2000);
      email.close();
      await database.close();
      await testDb.drop();
    },
  };
}

const settled = (jobs: JobQueue, queue: string, id: string) =>
  waitFor(
    () => jobs.job(queue, id),
    (job) => job?.state === "completed" || job?.state === "failed",
    20_000,
  );

describe("the development outbox", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig((db) => ({
      sms: outboxSmsProvider(db),
      email: outboxEmailTransport(db, "漢生活 <no-reply@localhost>"),
    }));
  });
  afterAll(() => rig?.close());

  it("receives a queued text message, branded, for the number in E.164", async () => {
    const messaging = createMessaging(rig.jobs);
    await messaging.sendSms({ to: "0912-000-001", text: "您的驗證碼是 246810，5 分鐘內有效。" });
    const [message] = await waitFor(
      () => readOutbox(rig.database.db, { to: "0912000001", channel: "sms" }),
      (rows) => rows.length > 0,
    );
    expect(message).toMatchObject({
      channel: "sms",
      to: "+886912000001",
      body: "【漢生活】您的驗證碼是 246810，5 分鐘內有效。",
      subject: null,
      html: null,
    });
  });

  it("receives a queued e-mail with subject, plain text and HTML", async () => {
    const id = await enqueueEmail(rig.jobs, {
      to: "Member@Example.com",
      locale: "zh-TW",
      template: "one-time-code",
      data: { code: "135790", purpose: "reset-password", minutes: 5 },
    });
    expect(await settled(rig.jobs, EMAIL_QUEUE, id)).toMatchObject({ state: "completed" });
    const [mail] = await readOutbox(rig.database.db, { to: "member@example.com" });
    expect(mail).toMatchObject({
      channel: "email",
      to: "member@example.com",
      from: "漢生活 <no-reply@localhost>",
      subject: "135790 是您的漢生活重設密碼驗證碼",
    });
    expect(mail?.body).toContain("135790");
    expect(mail?.html).toContain("135790");
  });

  it("lists the latest messages first and filters by recipient and channel", async () => {
    for (const code of ["111111", "222222", "333333"]) {
      const id = await enqueueSms(rig.jobs, { to: "+886912000002", text: `驗證碼 ${code}` });
      await settled(rig.jobs, SMS_QUEUE, id);
    }
    const latest = await readOutbox(rig.database.db, { to: "0912000002", limit: 2 });
    expect(latest.map((m) => m.body)).toEqual(["【漢生活】驗證碼 333333", "【漢生活】驗證碼 222222"]);
    expect(await readOutbox(rig.database.db, { to: "0912000002", channel: "email" })).toEqual([]);
    const all = await readOutbox(rig.database.db, { limit: 200 });
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(all.map((m) => m.createdAt.getTime())).toEqual(all.map((m) => m.createdAt.getTime()).sort((a, b) => b - a));
  });

  it("refuses a URL before anything is queued", async () => {
    const before = await rig.database.db.$count(messageOutbox);
    await expect(
      createMessaging(rig.jobs).sendSms({ to: "0912000003", text: "請至 https://evil.example 登入" }),
    ).rejects.toThrow(MessageRejectedError);
    await expect(
      createMessaging(rig.jobs).sendEmail({
        to: "not-an-address",
        locale: "en",
        template: "one-time-code",
        data: { code: "123456", purpose: "signup", minutes: 5 },
      }),
    ).rejects.toThrow(MessageRejectedError);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await rig.database.db.$count(messageOutbox)).toBe(before);
  });

  it("stores one row per job, however often the job runs", async () => {
    const message = {
      channel: "sms" as const,
      to: "+886912000004",
      from: null,
      subject: null,
      body: "【漢生活】x",
      html: null,
      jobId: "job-twice",
    };
    const first = await recordOutboxMessage(rig.database.db, message);
    const second = await recordOutboxMessage(rig.database.db, message);
    expect(second).toBe(first);
    expect(await readOutbox(rig.database.db, { to: "+886912000004" })).toHaveLength(1);
  });

  it("purges old messages every night at 03:30 Taipei time", async () => {
    const [schedule] = await rig.jobs.schedules(OUTBOX_PURGE_QUEUE);
    expect(schedule).toMatchObject({ cron: OUTBOX_PURGE_CRON, timezone: "Asia/Taipei" });
    expect(OUTBOX_PURGE_CRON).toBe("30 3 * * *");

    const count = await rig.database.db.$count(messageOutbox);
    expect(await purgeOutbox(rig.database.db, new Date(Date.now() - 60_000))).toBe(0);
    expect(await purgeOutbox(rig.database.db, new Date(Date.now() + 60_000))).toBe(count);
    expect(await readOutbox(rig.database.db)).toEqual([]);
  });
});

describe("text messages through Mitake", () => {
  const credentials = { username: "hanliving", password: "mitake-pass" };
  let fake: FakeMitake;
  let rig: Rig;
  beforeAll(async () => {
    fake = await startFakeMitake(credentials);
    rig = await startRig((db) => ({
      sms: mitakeSmsProvider({ baseUrl: fake.url, ...credentials }),
      email: outboxEmailTransport(db, "x@localhost"),
    }));
  });
  afterAll(async () => {
    await rig?.close();
    await fake?.close();
  });

  it("retries after Mitake's outage and delivers the message once", async () => {
    fake.fail("http-503");
    const before = { requests: fake.requests.length, accepted: fake.accepted.length };
    const id = await enqueueSms(rig.jobs, { to: "0912000101", text: "驗證碼 101010" });
    const job = await settled(rig.jobs, SMS_QUEUE, id);
    expect(job).toMatchObject({ state: "completed", retryCount: 1 });
    expect(fake.requests.length - before.requests).toBe(2);
    const delivered = fake.accepted.slice(before.accepted);
    expect(delivered).toEqual([
      { msgid: expect.any(String), dstaddr: "0912000101", smbody: "【漢生活】驗證碼 101010", clientid: id },
    ]);
    expect(job?.output).toEqual({ provider: "mitake", providerMessageId: delivered[0]?.msgid });
  });

  it("sends once even when Mitake's answer is lost and the job runs again", async () => {
    fake.fail("lose-response");
    const before = fake.accepted.length;
    const id = await enqueueSms(rig.jobs, { to: "0912000102", text: "驗證碼 202020" });
    expect(await settled(rig.jobs, SMS_QUEUE, id)).toMatchObject({ state: "completed", retryCount: 1 });
    expect(fake.accepted.slice(before).map((m) => m.dstaddr)).toEqual(["0912000102"]);
  });

  it("gives up at once on a number Mitake cannot take", async () => {
    const before = fake.requests.length;
    const id = await enqueueSms(rig.jobs, { to: "+819012345678", text: "驗證碼 303030" });
    const job = await settled(rig.jobs, SMS_QUEUE, id);
    expect(job).toMatchObject({
      state: "failed",
      retryCount: 0,
      output: { permanent: true, code: "not-taiwan-mobile" },
    });
    expect(fake.requests.length).toBe(before);
  });
});

describe("text messages through Twilio", () => {
  const credentials = { accountSid: `AC${"a1".repeat(16)}`, authToken: "token" };
  let fake: FakeTwilio;
  let rig: Rig;
  beforeAll(async () => {
    fake = await startFakeTwilio(credentials);
    rig = await startRig((db) => ({
      sms: twilioSmsProvider({ baseUrl: fake.url, ...credentials, from: "+15005550006" }),
      email: outboxEmailTransport(db, "x@localhost"),
    }));
  });
  afterAll(async () => {
    await rig?.close();
    await fake?.close();
  });

  it("retries after a 429 and delivers once, to a foreign number too", async () => {
    fake.fail("rate-limited");
    const before = await twilioCounts();
    const id = await enqueueSms(rig.jobs, { to: "+81 90 1234 5678", text: "Your code is 404040" });
    const job = await settled(rig.jobs, SMS_QUEUE, id);
    expect(job).toMatchObject({ state: "completed", retryCount: 1 });
    // The 429 is a retry in /metrics, not a failure: the "messages failing" alert is for messages that are lost.
    expect(resultsSince(before, await twilioCounts())).toEqual({ sent: 1, retry: 1, failed: 0 });
    expect(fake.accepted).toEqual([
      {
        sid: expect.stringMatching(/^SM/),
        to: "+819012345678",
        from: "+15005550006",
        messagingServiceSid: null,
        body: "【漢生活】Your code is 404040",
      },
    ]);
  });
});

describe("e-mail over SMTP", () => {
  let smtp: TestSmtpServer;
  let rig: Rig;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    rig = await startRig((db) => ({
      sms: outboxSmsProvider(db),
      email: smtpEmailTransport(smtp.url, "漢生活 <no-reply@member.example.com>"),
    }));
  });
  afterAll(async () => {
    await rig?.close();
    await smtp?.close();
  });

  it("delivers the one-time code to a real SMTP server, readable from the message", async () => {
    const id = await enqueueEmail(rig.jobs, {
      to: "Member@Example.com",
      locale: "en",
      template: "one-time-code",
      data: { code: "975310", purpose: "verify-email", minutes: 5 },
    });
    expect(await settled(rig.jobs, EMAIL_QUEUE, id)).toMatchObject({ state: "completed" });
    const mail = smtp.received.at(-1);
    expect(mail?.from).toBe("no-reply@member.example.com");
    expect(mail?.to).toEqual(["member@example.com"]);
    const parsed = mail!.parsed;
    expect(parsed.from?.value[0]).toEqual({ address: "no-reply@member.example.com", name: "漢生活" });
    expect(parsed.subject).toBe("975310 is your Han Living e-mail verification code");
    expect(parsed.messageId).toBe(`<${id}@member.example.com>`);
    // The member reads the code from the message, as a test of the real thing would.
    const code = /\b(\d{6})\b/.exec(parsed.text ?? "")?.[1];
    expect(code).toBe("975310");
    expect(parsed.text).toContain("The code is valid for 5 minutes");
    expect(parsed.html || "").toContain("975310");
    expect(parsed.html || "").not.toMatch(/<a\b|https?:/i);
    expect(parsed.attachments).toEqual([]);
  });

  it("retries a temporary refusal (451) and delivers once", async () => {
    smtp.rejectNextRecipients(451);
    const before = smtp.received.length;
    const id = await enqueueEmail(rig.jobs, {
      to: "retry@example.com",
      locale: "zh-TW",
      template: "one-time-code",
      data: { code: "864200", purpose: "signup", minutes: 5 },
    });
    expect(await settled(rig.jobs, EMAIL_QUEUE, id)).toMatchObject({ state: "completed", retryCount: 1 });
    const delivered = smtp.received.slice(before);
    expect(delivered.map((m) => m.to)).toEqual([["retry@example.com"]]);
    expect(delivered[0]?.parsed.subject).toBe("864200 是您的漢生活會員註冊驗證碼");
  });

  it("gives up at once on a permanent refusal (550)", async () => {
    smtp.rejectNextRecipients(550);
    const before = smtp.received.length;
    const id = await enqueueEmail(rig.jobs, {
      to: "gone@example.com",
      locale: "zh-TW",
      template: "one-time-code",
      data: { code: "100200", purpose: "signup", minutes: 5 },
    });
    const job = await settled(rig.jobs, EMAIL_QUEUE, id);
    expect(job).toMatchObject({ state: "failed", retryCount: 0, output: { permanent: true, status: 550 } });
    expect(smtp.received.length).toBe(before);
  });
});
