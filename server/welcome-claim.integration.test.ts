import { createHash, randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { startTestSmtpServer, type TestSmtpServer } from "@platform/testing/smtp";
import { waitFor } from "@platform/testing/wait";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCaptchaChallenge } from "../app/domain/auth/captcha.server";
import type * as MembersModule from "../app/domain/members/members.server";
import type * as OutboxModule from "../app/domain/messaging/outbox.server";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * A member moved in from another system without a password (issue 35: a CSV member, or a Firebase member
 * imported without hash.json) claims the account over HTTP: the link on /member-login, the forgot-password
 * steps in their welcome wording with `?welcome=1` kept from step to step, a welcome text message, the first
 * password (the user had no credential account), then a login. An unknown number gets the same answers.
 * The e-mail path is a welcome too (page, heading, button, and the e-mail itself, sent over real SMTP).
 */
const PASSWORD = "Tile-and-Walnut-2026!";

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let members: typeof MembersModule;
let outbox: typeof OutboxModule;
let smtp: TestSmtpServer;

beforeAll(async () => {
  // E-mail goes through a real SMTP server (text messages stay in the development outbox).
  smtp = await startTestSmtpServer();
  app = await startDevApp(
    { APP_ENV: "test", SMTP_URL: smtp.url, MAIL_FROM: "漢生活 <no-reply@hanliving.test>" },
    "welcome_claim",
  );
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  members = (await load("/app/domain/members/members.server.ts")) as typeof MembersModule;
  outbox = (await load("/app/domain/messaging/outbox.server.ts")) as typeof OutboxModule;
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await smtp?.close();
}, 60_000);

async function solvedCaptcha(): Promise<string> {
  const challenge = await createCaptchaChallenge(app.running.config.secrets.session);
  const max = challenge.maxnumber ?? 1_000_000;
  for (let n = 0; n <= max; n++) {
    if (createHash("sha256").update(`${challenge.salt}${n}`).digest("hex") === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return Buffer.from(
        JSON.stringify({ algorithm, challenge: challenge.challenge, number: n, salt, signature }),
      ).toString("base64");
    }
  }
  throw new Error("challenge not solved");
}

/** The cookies a browser keeps between the steps. */
class Jar {
  private cookies = new Map<string, string>();
  set(name: string, value: string) {
    this.cookies.set(name, value);
    return this;
  }
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const at = pair?.indexOf("=") ?? -1;
      if (!pair || at < 0) continue;
      const value = pair.slice(at + 1);
      if (value === "" || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, at));
      else this.cookies.set(pair.slice(0, at), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function get(jar: Jar, pathname: string): Promise<{ status: number; html: string }> {
  const response = await fetch(`${base}${pathname}`, { headers: { cookie: jar.header() }, redirect: "manual" });
  jar.take(response);
  return { status: response.status, html: await response.text() };
}

async function post(jar: Jar, pathname: string, fields: Record<string, string>) {
  const response = await fetch(`${base}${pathname}`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  jar.take(response);
  await response.body?.cancel();
  return { status: response.status, location: response.headers.get("location") };
}

let phoneSeq = 0;
function newPhone() {
  phoneSeq += 1;
  const digits = String(56_000_000 + phoneSeq).padStart(8, "0");
  return { e164: `+8869${digits}`, typed: `09${digits}` };
}

/**
 * What an import leaves for a member without a password: the login user, the member and its `member_source` row,
 * no credential account.
 */
async function importedMemberWithoutPassword() {
  const phone = newPhone();
  const userId = randomUUID();
  await db.insert(schema.authUser).values({
    id: userId,
    name: "陳匯入",
    email: `${phone.e164.replace("+", "")}@phone.invalid`,
    phoneNumber: phone.e164,
    phoneNumberVerified: true,
  });
  const created = await members.createMember(db, {
    userId,
    phoneNumber: phone.e164,
    signupMethod: "phone",
    ip: null,
    profile: { nameZh: "陳匯入", gender: "female", marketingSms: false, marketingEmail: false, marketingLine: false },
  });
  // The import's trace: this member is asked to accept the terms at the first visit (ADR 038 "Consents").
  await db.insert(schema.memberSource).values({ source: "csv", externalId: randomUUID(), memberId: created.id });
  return { userId, phone };
}

/** The same member with an e-mail address from the old system (stored as the import does: member and login user). */
async function importedMemberWithEmail() {
  const imported = await importedMemberWithoutPassword();
  const email = `claim-${phoneSeq}@example.com`;
  await db.update(schema.member).set({ email }).where(eq(schema.member.userId, imported.userId));
  await db.update(schema.authUser).set({ email, emailVerified: true }).where(eq(schema.authUser.id, imported.userId));
  return { ...imported, email };
}

/** The e-mails that arrived for `to` over SMTP. */
const mailsTo = (to: string) => smtp.received.filter((mail) => mail.to.includes(to));

const PHONE_STEP = "/forget-password/phone-verification?welcome=1";
const EMAIL_STEP = "/forget-password/email-verification?welcome=1";

describe("the welcome claim of an imported member", () => {
  it("offers the welcome link on /member-login and words every step as a welcome", async () => {
    const jar = new Jar();
    const login = await get(jar, "/member-login");
    expect(login.html).toContain("從原會員系統轉來？第一次登入請用簡訊或電子郵件驗證碼設定密碼");
    expect(login.html).toContain(`href="${PHONE_STEP}"`);
    const step = await get(jar, PHONE_STEP);
    expect(step.status).toBe(200);
    expect(step.html).toContain("歡迎加入：手機驗證");
    expect(step.html).not.toContain("忘記密碼：手機驗證");
    const choice = await get(jar, "/forget-password?welcome=1");
    expect(choice.html).toContain("歡迎加入");
    expect(choice.html).toContain('href="/forget-password/email-verification?welcome=1"');
    // The ordinary flow is unchanged.
    expect((await get(jar, "/forget-password/phone-verification")).html).toContain("忘記密碼：手機驗證");
  });

  it("sets the first password of a member with no credential account, then logs in", async () => {
    const { userId, phone } = await importedMemberWithoutPassword();
    const jar = new Jar();
    const sent = await post(jar, PHONE_STEP, { intent: "send", phone: phone.typed, altcha: await solvedCaptcha() });
    expect(sent).toEqual({ status: 302, location: PHONE_STEP });
    expect((await get(jar, PHONE_STEP)).html).toContain("歡迎加入：手機驗證");

    const [sms] = await waitFor(
      () => outbox.readOutbox(db, { to: phone.e164, channel: "sms" }),
      (messages) => messages.length === 1,
    );
    expect(sms?.body).toContain("歡迎加入漢生活會員！您設定密碼的驗證碼為");
    const code = /\b(\d{6})\b/.exec(sms?.body ?? "")?.[1] ?? "";

    const verified = await post(jar, PHONE_STEP, { intent: "verify", code });
    expect(verified).toEqual({ status: 302, location: "/forget-password/new-password-setting?welcome=1" });
    const setPage = await get(jar, "/forget-password/new-password-setting?welcome=1");
    expect(setPage.status).toBe(200);
    expect(setPage.html).toContain("設定您的密碼");

    const set = await post(jar, "/forget-password/new-password-setting?welcome=1", {
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(set).toEqual({ status: 302, location: "/member-login" });

    const loginJar = new Jar();
    const loggedIn = await post(loginJar, "/member-login", {
      method: "phone",
      phone: phone.typed,
      password: PASSWORD,
    });
    expect(loggedIn.status).toBe(302);
    expect(loggedIn.location).toBe("/member-center");
    expect(userId).toBeTruthy();
    // First visit after the claim: the terms and the privacy notice first (accept-terms.integration.test.ts).
    const center = await fetch(`${base}/member-center`, { headers: { cookie: loginJar.header() }, redirect: "manual" });
    await center.body?.cancel();
    expect(center.headers.get("location")).toBe("/accept-terms?redirectTo=%2Fmember-center");
  });

  it("answers an unknown number exactly as a member's number, and sends it nothing", async () => {
    const unknown = newPhone();
    const jar = new Jar();
    const sent = await post(jar, PHONE_STEP, { intent: "send", phone: unknown.typed, altcha: await solvedCaptcha() });
    expect(sent).toEqual({ status: 302, location: PHONE_STEP });
    expect((await get(jar, PHONE_STEP)).html).toContain("0956");
    const wrong = await post(jar, PHONE_STEP, { intent: "verify", code: "123456" });
    expect(wrong.status).toBe(400);
    expect(await outbox.readOutbox(db, { to: unknown.e164, channel: "sms" })).toEqual([]);
  });
  it("words the e-mail path as a welcome: the choice, the page and the e-mail, then sets the first password", async () => {
    const { email } = await importedMemberWithEmail();
    const jar = new Jar();
    const choice = await get(jar, "/forget-password?welcome=1");
    expect(choice.html).toContain("以電子郵件驗證");
    expect(choice.html).toContain("傳送驗證碼到您在原會員系統使用的電子郵件");
    expect(choice.html).not.toContain("以電子郵件重設");

    const page = await get(jar, EMAIL_STEP);
    expect(page.status).toBe(200);
    expect(page.html).toContain("歡迎加入：電子郵件驗證");
    expect(page.html).toContain("請輸入您在原會員系統使用的電子郵件");
    expect(page.html).not.toContain("忘記密碼");
    expect(page.html).not.toContain("重設");

    const sent = await post(jar, EMAIL_STEP, { intent: "send", email, altcha: await solvedCaptcha() });
    expect(sent).toEqual({ status: 302, location: EMAIL_STEP });
    const codePage = await get(jar, EMAIL_STEP);
    expect(codePage.html).toContain("歡迎加入：電子郵件驗證");
    expect(codePage.html).not.toContain("重設");

    const [mail] = await waitFor(
      async () => mailsTo(email),
      (mails) => mails.length === 1,
    );
    const subject = mail?.parsed.subject ?? "";
    expect(subject).toMatch(/^\d{6} 是您設定漢生活會員密碼的驗證碼$/);
    for (const part of [mail?.parsed.text ?? "", String(mail?.parsed.html ?? "")]) {
      expect(part).toContain("歡迎加入漢生活會員");
      expect(part).toContain("您的會員資料已從原會員系統轉入");
      expect(part).not.toContain("重設");
    }
    const code = /\b(\d{6})\b/.exec(mail?.parsed.text ?? "")?.[1] ?? "";

    const verified = await post(jar, EMAIL_STEP, { intent: "verify", code });
    expect(verified).toEqual({ status: 302, location: "/forget-password/new-password-setting?welcome=1" });
    const setPage = await get(jar, "/forget-password/new-password-setting?welcome=1");
    expect(setPage.html).toContain("設定您的密碼");
    expect(setPage.html).not.toContain("忘記密碼");
    const set = await post(jar, "/forget-password/new-password-setting?welcome=1", {
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(set).toEqual({ status: 302, location: "/member-login" });

    const loggedIn = await post(new Jar(), "/member-login", { method: "email", email, password: PASSWORD });
    expect(loggedIn).toEqual({ status: 302, location: "/member-center" });
  });

  it("sends the English welcome e-mail to a member browsing in English", async () => {
    const { email } = await importedMemberWithEmail();
    const jar = new Jar().set("locale", "en");
    const page = await get(jar, EMAIL_STEP);
    expect(page.html).toContain("Welcome: e-mail code");
    const sent = await post(jar, EMAIL_STEP, { intent: "send", email, altcha: await solvedCaptcha() });
    expect(sent).toEqual({ status: 302, location: EMAIL_STEP });
    const [mail] = await waitFor(
      async () => mailsTo(email),
      (mails) => mails.length === 1,
    );
    expect(mail?.parsed.subject).toMatch(/^\d{6} is your code to set your Han Living password$/);
    expect(mail?.parsed.text).toContain("Welcome to Han Living membership");
    expect(mail?.parsed.text).not.toMatch(/reset/i);
  });

  it("keeps the ordinary reset e-mail a reset", async () => {
    const { email } = await importedMemberWithEmail();
    const jar = new Jar();
    const step = "/forget-password/email-verification";
    expect((await get(jar, step)).html).toContain("忘記密碼：電子郵件驗證");
    expect(await post(jar, step, { intent: "send", email, altcha: await solvedCaptcha() })).toEqual({
      status: 302,
      location: step,
    });
    const [mail] = await waitFor(
      async () => mailsTo(email),
      (mails) => mails.length === 1,
    );
    expect(mail?.parsed.subject).toMatch(/^\d{6} 是您的漢生活重設密碼驗證碼$/);
  });

  it("answers an unknown e-mail address exactly as a member's, and sends it nothing", async () => {
    const { email: known } = await importedMemberWithEmail();
    const unknown = `nobody-${randomUUID()}@example.com`;
    const answers = [];
    for (const email of [known, unknown]) {
      const jar = new Jar();
      const sent = await post(jar, EMAIL_STEP, { intent: "send", email, altcha: await solvedCaptcha() });
      const page = await get(jar, EMAIL_STEP);
      const wrong = await post(jar, EMAIL_STEP, { intent: "verify", code: "000000" });
      answers.push({ sent, page: page.html.includes(email), wrong: wrong.status });
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]).toEqual({ sent: { status: 302, location: EMAIL_STEP }, page: true, wrong: 400 });
    await waitFor(
      async () => mailsTo(known),
      (mails) => mails.length === 1,
    );
    expect(mailsTo(unknown)).toEqual([]);
  });
});
