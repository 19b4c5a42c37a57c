import { createHash } from "node:crypto";
import type { Database } from "@platform/db/client";
import { oneTimeCode, rateLimitCounter } from "@platform/db/schema";
import { waitFor } from "@platform/testing/wait";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Auth, createAuth } from "../app/domain/auth/auth.server";
import { createCaptchaChallenge } from "../app/domain/auth/captcha.server";
import { placeholderEmail, setPassword, startSession } from "../app/domain/auth/flows.server";
import { confirmMemberEmail, createMember } from "../app/domain/members/members.server";
import { endOfTaipeiDay, startOfTaipeiDay } from "../app/lib/time";
import { type AppInstance, type DevApps, startDevApps } from "./testing/dev-app";

/**
 * Issue 11 item 2: every sign-in and code limit holds when requests arrive at the same moment; and
 * item 4: answers that could tell whether an account exists cost what a code send costs and read
 * alike for known and unknown targets. Two
 * instances of the full app (createApp, as server.js serves it) listen on two ports over ONE
 * PostgreSQL database; each test sends N simultaneous form posts spread over both and counts how many
 * got through: exactly the limit. PostgreSQL only (vitest.config.ts runs *.postgres.* files only with
 * TEST_DATABASE_URL): PGlite is one process and cannot race.
 *
 * Every request comes from 127.0.0.1, so the per-IP counters are shared by the whole file; each test
 * starts with no counters and no codes.
 */
const IP = "127.0.0.1";
const PASSWORD = "Granite-Terrace-2026!";

let apps: DevApps;
let db: Database;
let auth: Auth;
let secret: string;
const instances: AppInstance[] = [];

beforeAll(async () => {
  apps = await startDevApps(2, { APP_ENV: "test" }, { label: "auth_limits", poolMax: 20 });
  instances.push(...apps.instances);
  const [first] = instances;
  if (!first) throw new Error("no app instance");
  db = first.running.database.db;
  secret = first.running.config.secrets.session;
  auth = createAuth({ db, config: first.running.config });
}, 180_000);

afterAll(() => apps?.stop(), 120_000);

beforeEach(async () => {
  await db.delete(rateLimitCounter);
  await db.delete(oneTimeCode);
  // Fixed clock windows: never start a burst in the last half minute of an hour, so that the whole
  // burst is counted in one window (a wait for a condition, not a fixed sleep).
  await waitFor(
    async () => 3_600_000 - (Date.now() % 3_600_000),
    (left) => left > 30_000,
    40_000,
    500,
  );
});

// ─── Helpers ────────────────────────────────────────────────────────────────────────────────────

let phoneSeq = 20_000_000;
/** A fresh Taiwan mobile number: E.164 for the database, 09… as a person types it. */
function newPhone() {
  const digits = String(phoneSeq++).padStart(8, "0");
  return { e164: `+8869${digits}`, typed: `09${digits}` };
}

async function newMember(options: { email?: string } = {}) {
  const phone = newPhone();
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser(
    { name: "測試會員", email: placeholderEmail(phone.e164), phoneNumber: phone.e164, phoneNumberVerified: true },
    { method: "phone-number" },
  );
  await setPassword({ auth }, user.id, PASSWORD);
  await createMember(db, {
    userId: user.id,
    phoneNumber: phone.e164,
    signupMethod: "phone",
    ip: null,
    profile: { nameZh: "測試會員", gender: "female", marketingSms: false, marketingEmail: false, marketingLine: false },
  });
  if (options.email) await confirmMemberEmail(db, user.id, options.email);
  return { userId: user.id, phone };
}

/** Members one after the other (each sets a password: argon2 is heavy enough on a small machine). */
async function newMembers(n: number, options: (i: number) => { email?: string } = () => ({})) {
  const created: Awaited<ReturnType<typeof newMember>>[] = [];
  for (let i = 0; i < n; i++) created.push(await newMember(options(i)));
  return created;
}

/** A logged-in session cookie for the member (a fresh login: the account pages need one). */
async function sessionCookie(userId: string): Promise<string> {
  const headers = await startSession({ db, auth }, userId, new Headers({ "user-agent": "limits-test" }));
  return headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** Solves an ALTCHA challenge as the page's worker does: each payload is accepted once. */
async function solvedCaptcha(): Promise<string> {
  const challenge = await createCaptchaChallenge(secret);
  const max = challenge.maxnumber ?? 1_000_000;
  for (let n = 0; n <= max; n++) {
    if (createHash("sha256").update(`${challenge.salt}${n}`).digest("hex") === challenge.challenge) {
      const { algorithm, salt, signature } = challenge;
      return Buffer.from(
        JSON.stringify({ algorithm, challenge: challenge.challenge, number: n, salt, signature }),
      ).toString("base64");
    }
  }
  throw new Error("captcha not solved");
}

type Answer = { status: number; body: string; setCookie: string[] };

/**
 * A form post to one instance, as a browser sends it (Origin of that instance). `.data` asks for the
 * action's data instead of the page, so the answer holds the field messages and nothing else.
 */
async function post(
  instance: number,
  pathname: string,
  fields: Record<string, string>,
  cookie?: string,
): Promise<Answer> {
  const { base } = instances[instance % 2] as AppInstance;
  const response = await fetch(`${base}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: base, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
  });
  return { status: response.status, body: await response.text(), setCookie: response.headers.getSetCookie() };
}

/** N requests built by `make(i)`, all sent at once, alternating between the two instances. */
function burst(n: number, make: (i: number) => Promise<Answer>): Promise<Answer[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => make(i)));
}

function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

/** Text messages queued for a number (each send enqueues one job; nothing else does). */
async function smsJobs(e164: string): Promise<string[]> {
  // postgres.js answers an array of rows.
  const rows = (await db.execute(
    sql`select data->>'text' as text from pgboss.job where name = 'messaging.sms' and data->>'to' = ${e164}`,
  )) as unknown as { text: string }[];
  return rows.map((r) => r.text);
}

async function counter(key: string): Promise<number> {
  const rows = await db
    .select({ count: rateLimitCounter.count })
    .from(rateLimitCounter)
    .where(eq(rateLimitCounter.key, key));
  return rows.reduce((n, r) => n + r.count, 0);
}

/** Puts a counter where a test needs it (the window the app is counting in right now). */
async function presetCounter(key: string, window: "hour" | "day", count: number, lastHitAt?: Date) {
  const now = new Date();
  const start = window === "day" ? startOfTaipeiDay(now) : new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const end = window === "day" ? endOfTaipeiDay(now) : new Date(start.getTime() + 3_600_000);
  await db.insert(rateLimitCounter).values({
    key: `${key}:${window}`,
    windowStart: start,
    count,
    lastHitAt: lastHitAt ?? now,
    expiresAt: end,
  });
}

const SIGNUP = "/signup/phone-verification";
const RESET_PHONE = "/forget-password/phone-verification";

async function sendSignupCode(instance: number, typed: string, cookie?: string) {
  return post(instance, SIGNUP, { intent: "send", phone: typed, consent: "on", altcha: await solvedCaptcha() }, cookie);
}

async function sendResetCode(instance: number, typed: string) {
  return post(instance, RESET_PHONE, { intent: "send", phone: typed, altcha: await solvedCaptcha() });
}

const cookieOf = (answer: Answer, name: string) =>
  answer.setCookie.find((c) => c.startsWith(`${name}=`))?.split(";")[0] ?? "";

// ─── Login failures ─────────────────────────────────────────────────────────────────────────────

describe("login failures", () => {
  it("let exactly 5 of 20 simultaneous wrong logins be checked, one counter whichever identifier was typed", async () => {
    const email = `limits-${phoneSeq}@example.com`;
    const { userId, phone } = await newMember({ email });
    const answers = await burst(20, (i) =>
      post(
        i,
        "/member-login",
        i % 2 === 0
          ? { method: "phone", phone: phone.typed, password: `wrong-password-${i}` }
          : { method: "email", email, password: `wrong-password-${i}` },
      ),
    );
    // 401 = the password was checked and was wrong; 429 = refused before any check.
    expect(tally(answers)).toEqual({ 401: 5, 429: 15 });
    expect(await counter(`login:fail:user:${userId}:hour`)).toBe(5);
  });

  it("let exactly 1 of 20 simultaneous wrong logins through at 99 of the 100 per hour", async () => {
    const { userId, phone } = await newMember();
    // The growing delay since the last failure has long passed; only the hourly cap is left.
    await presetCounter(`login:fail:user:${userId}`, "hour", 99, new Date(Date.now() - 3_600_000));
    const answers = await burst(20, (i) =>
      post(i, "/member-login", { method: "phone", phone: phone.typed, password: `wrong-password-${i}` }),
    );
    expect(tally(answers)).toEqual({ 401: 1, 429: 19 });
    expect(await counter(`login:fail:user:${userId}:hour`)).toBe(100);
  });

  it("let exactly the rest of the IP's 300 per hour through, across accounts", async () => {
    await presetCounter(`login:ip:${IP}`, "hour", 296);
    const answers = await burst(12, (i) =>
      post(i, "/member-login", { method: "phone", phone: newPhone().typed, password: "not-a-member-here" }),
    );
    expect(tally(answers)).toEqual({ 401: 4, 429: 8 });
    expect(await counter(`login:ip:${IP}:hour`)).toBe(300);
  });

  it("count an unknown identifier per identifier and IP, with the same answers as a member", async () => {
    const unknown = newPhone();
    const answers = await burst(20, (i) =>
      post(i, "/member-login", { method: "phone", phone: unknown.typed, password: `wrong-password-${i}` }),
    );
    expect(tally(answers)).toEqual({ 401: 5, 429: 15 });
    expect(await counter(`login:fail:unknown:phone:${unknown.e164}:${IP}:hour`)).toBe(5);
  });
});

// ─── Code sends ─────────────────────────────────────────────────────────────────────────────────

describe("code sends", () => {
  it("send one text message for 12 simultaneous requests for one number (the 60 s cooldown)", async () => {
    const phone = newPhone();
    const answers = await burst(12, (i) => sendSignupCode(i, phone.typed));
    expect(tally(answers)).toEqual({ 302: 1, 429: 11 });
    expect(await smsJobs(phone.e164)).toHaveLength(1);
  });

  it("let exactly 10 of 15 simultaneous sends from one IP through (10 per hour)", async () => {
    const phones = Array.from({ length: 15 }, () => newPhone());
    const answers = await burst(15, (i) => sendSignupCode(i, phones[i]!.typed));
    expect(tally(answers)).toEqual({ 302: 10, 429: 5 });
    const sent = await Promise.all(phones.map((p) => smsJobs(p.e164)));
    expect(sent.flat()).toHaveLength(10);
    expect(await counter(`otp:ip:${IP}:hour`)).toBe(10);
    expect(await counter(`otp:ip:${IP}:day`)).toBe(10);
  });

  it("let exactly the rest of the IP's 30 per day through", async () => {
    await presetCounter(`otp:ip:${IP}`, "day", 25);
    const phones = Array.from({ length: 12 }, () => newPhone());
    const answers = await burst(12, (i) => sendSignupCode(i, phones[i]!.typed));
    expect(tally(answers)).toEqual({ 302: 5, 429: 7 });
    expect(await counter(`otp:ip:${IP}:day`)).toBe(30);
    expect(await counter(`otp:ip:${IP}:hour`)).toBe(5);
  });

  it("let exactly one more send through at 4 of a number's 5 per hour, across purposes", async () => {
    const phone = newPhone();
    await presetCounter(`otp:target:${phone.e164}`, "hour", 4);
    // Sign-up and forgot-password each have their own cooldown but share the number's budget.
    const answers = await burst(12, (i) => (i < 6 ? sendSignupCode(i, phone.typed) : sendResetCode(i, phone.typed)));
    expect(tally(answers)).toEqual({ 302: 1, 429: 11 });
    expect(await counter(`otp:target:${phone.e164}:hour`)).toBe(5);
  });

  it("let exactly one more send through at 9 of a number's 10 per day, across purposes", async () => {
    const phone = newPhone();
    await presetCounter(`otp:target:${phone.e164}`, "day", 9);
    const answers = await burst(12, (i) => (i < 6 ? sendSignupCode(i, phone.typed) : sendResetCode(i, phone.typed)));
    expect(tally(answers)).toEqual({ 302: 1, 429: 11 });
    expect(await counter(`otp:target:${phone.e164}:day`)).toBe(10);
  });
});

// ─── Wrong code guesses ─────────────────────────────────────────────────────────────────────────

describe("code guesses", () => {
  it("try at most 5 of 16 simultaneous guesses, and refuse the right code once the code is burnt", async () => {
    const phone = newPhone();
    const sent = await sendSignupCode(0, phone.typed);
    expect(sent.status).toBe(302);
    const flow = cookieOf(sent, "signup_phone");
    const [text] = await smsJobs(phone.e164);
    const code = text?.match(/\d{6}/)?.[0];
    if (!code) throw new Error(`no code in ${text}`);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");

    const answers = await burst(16, (i) => post(i, `${SIGNUP}.data`, { intent: "verify", code: wrong(i) }, flow));
    expect(tally(answers)).toEqual({ 400: 16 });
    // 4 tries answered "wrong", the 5th burnt the code, 11 were refused without a comparison.
    expect(answers.filter((a) => a.body.includes("驗證碼不正確"))).toHaveLength(4);
    expect(answers.filter((a) => a.body.includes("錯誤次數過多"))).toHaveLength(12);
    const [row] = await db
      .select({ attempts: oneTimeCode.attempts, consumedAt: oneTimeCode.consumedAt })
      .from(oneTimeCode)
      .where(and(eq(oneTimeCode.target, phone.e164), eq(oneTimeCode.purpose, "signup")));
    expect(row).toEqual({ attempts: 5, consumedAt: null });

    const right = await post(1, `${SIGNUP}.data`, { intent: "verify", code }, flow);
    expect(right.status).toBe(400);
    expect(right.body).toContain("錯誤次數過多");
    expect(right.setCookie.some((c) => c.includes("session_token"))).toBe(false);
  });
});

// ─── No account enumeration (issue 11 item 4) ───────────────────────────────────────────────────

describe("no account enumeration", () => {
  it("forgot password answers alike for a member's number and an unknown one, also to 16 simultaneous guesses", async () => {
    const { phone: known } = await newMember();
    const unknown = newPhone();
    async function attack(phone: { e164: string; typed: string }) {
      const sent = await sendResetCode(0, phone.typed);
      const flow = cookieOf(sent, "reset_target");
      // Never the real code (only the member's number has one).
      const real = Number((await smsJobs(phone.e164))[0]?.match(/\d{6}/)?.[0] ?? 0);
      const guesses = await burst(16, (i) =>
        post(
          i,
          `${RESET_PHONE}.data`,
          { intent: "verify", code: String((real + 1 + i) % 1_000_000).padStart(6, "0") },
          flow,
        ),
      );
      const later = await post(1, `${RESET_PHONE}.data`, { intent: "verify", code: "123456" }, flow);
      return {
        sent: sent.status,
        guesses: tally(guesses),
        wrong: guesses.filter((a) => a.body.includes("驗證碼不正確")).length,
        tooMany: guesses.filter((a) => a.body.includes("錯誤次數過多")).length,
        later: { status: later.status, tooMany: later.body.includes("錯誤次數過多") },
      };
    }
    const expected = { sent: 302, guesses: { 400: 16 }, wrong: 4, tooMany: 12, later: { status: 400, tooMany: true } };
    expect(await attack(known)).toEqual(expected);
    expect(await attack(unknown)).toEqual(expected);
    expect(await smsJobs(unknown.e164)).toEqual([]);
  });

  it("sign-up step 1 answers 'already a member' only after the captcha and the send limits", async () => {
    const members = await newMembers(12);
    const noCaptcha = await post(0, SIGNUP, { intent: "send", phone: members[0]!.phone.typed, consent: "on" });
    expect(noCaptcha.status).toBe(400);
    expect(noCaptcha.body).toContain("安全驗證未通過");
    // 12 members probed at once from one IP: only the IP's 10 sends per hour get an answer.
    const answers = await burst(12, (i) => sendSignupCode(i, members[i]!.phone.typed));
    expect(tally(answers)).toEqual({ 409: 10, 429: 2 });
    expect(await counter(`otp:ip:${IP}:hour`)).toBe(10);
  });

  it("change-phone answers 'taken' at the cost of a code send: 5 per member per hour", async () => {
    const me = await newMember();
    const others = await newMembers(8);
    const cookie = await sessionCookie(me.userId);
    const answers = await burst(8, (i) =>
      post(i, "/member-center/change-phone", { intent: "send", phone: others[i]!.phone.typed }, cookie),
    );
    expect(tally(answers)).toEqual({ 409: 5, 429: 3 });
    expect(await counter(`otp:member:${me.userId}:hour`)).toBe(5);
  });

  it("edit-info answers 'taken' for an e-mail at the cost of a code send: 5 per member per hour", async () => {
    const me = await newMember();
    const emails = Array.from({ length: 8 }, (_, i) => `taken-${phoneSeq}-${i}@example.com`);
    await newMembers(8, (i) => ({ email: emails[i] }));
    const cookie = await sessionCookie(me.userId);
    const answers = await burst(8, (i) =>
      post(i, "/member-center/edit-info", { nameZh: "測試會員", gender: "female", email: emails[i]! }, cookie),
    );
    expect(tally(answers)).toEqual({ 409: 5, 429: 3 });
    expect(await counter(`otp:member:${me.userId}:hour`)).toBe(5);
  });
});
