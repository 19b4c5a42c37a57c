import { randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as LegalModule from "../app/content/legal";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * Members moved in from another system accept the terms and the privacy notice once (issue 35, ADR 038
 * "Consents"), over HTTP: whichever way they logged in, every member-center page sends them to /accept-terms first;
 * accepting records "terms" and "privacy" (the sign-up versions, source `accept-terms`) and continues where they
 * were going (a same-site path only); the next visit goes straight in. A member who signed up here (no
 * `member_source` row) is never asked. Bad input gets a localized error beside the checkbox or a 4xx.
 */
const HOOKS_SECRET = "t".repeat(40);
const PASSWORD = "Tile-and-Walnut-2026!";
const TITLE = "請閱讀並同意會員條款與隱私權政策";

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let legal: typeof LegalModule;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "accept_terms");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  legal = (await load("/app/content/legal.ts")) as typeof LegalModule;
}, 180_000);

afterAll(() => app?.stop(), 60_000);

/** The cookies a browser keeps between requests. */
class Jar {
  private cookies = new Map<string, string>();
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

type Answer = { status: number; location: string | null; html: string };

async function get(jar: Jar, pathname: string): Promise<Answer> {
  const response = await fetch(`${base}${pathname}`, { headers: { cookie: jar.header() }, redirect: "manual" });
  jar.take(response);
  return { status: response.status, location: response.headers.get("location"), html: await response.text() };
}

async function post(jar: Jar, pathname: string, fields: Record<string, string>): Promise<Answer> {
  const response = await fetch(`${base}${pathname}`, {
    method: "POST",
    headers: { origin: base, "content-type": "application/x-www-form-urlencoded", cookie: jar.header() },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  jar.take(response);
  return { status: response.status, location: response.headers.get("location"), html: await response.text() };
}

async function hook(pathname: string, body: unknown) {
  const response = await fetch(`${base}/__test${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json();
}

let phoneSeq = 0;
/** A member as sign-up leaves it (the test hook), with a password; `imported` adds the import's trace. */
async function newMember(options: { imported: boolean }) {
  phoneSeq += 1;
  const digits = String(57_000_000 + phoneSeq).padStart(8, "0");
  const phone = { e164: `+8869${digits}`, typed: `09${digits}` };
  const { userId, memberId } = (await hook("/members", {
    phoneNumber: phone.e164,
    name: "林匯入",
    password: PASSWORD,
  })) as { userId: string; memberId: string };
  if (options.imported) {
    await db.insert(schema.memberSource).values({ source: "csv", externalId: randomUUID(), memberId });
  }
  return { userId, memberId, phone };
}

/** Logs in by phone and password, as the login page does. */
async function login(phone: { typed: string }): Promise<Jar> {
  const jar = new Jar();
  const answer = await post(jar, "/member-login", { method: "phone", phone: phone.typed, password: PASSWORD });
  expect(answer).toMatchObject({ status: 302, location: "/member-center" });
  return jar;
}

/** A session started another way (an SMS code, LINE, the welcome claim all end in one). */
async function sessionOf(userId: string): Promise<Jar> {
  const { setCookie } = (await hook("/sessions", { userId })) as { setCookie: string[] };
  const jar = new Jar();
  jar.take(new Response(null, { headers: setCookie.map((c) => ["set-cookie", c] as [string, string]) }));
  return jar;
}

/** The member's "terms" and "privacy" rows (sign-up through the test hook records the marketing ones). */
const consentsOf = (userId: string) =>
  db
    .select()
    .from(schema.memberConsent)
    .where(and(eq(schema.memberConsent.userId, userId), inArray(schema.memberConsent.kind, ["terms", "privacy"])))
    .orderBy(asc(schema.memberConsent.kind));

const acceptPage = (back: string) => `/accept-terms?${new URLSearchParams({ redirectTo: back })}`;

describe("the terms of a member moved in from another system", () => {
  it("asks at the first visit after a password login, records the consents, continues, and never asks again", async () => {
    const { userId, phone } = await newMember({ imported: true });
    const jar = await login(phone);

    expect(await get(jar, "/member-center")).toMatchObject({ status: 302, location: acceptPage("/member-center") });
    expect(await get(jar, "/member-center/points?page=2")).toMatchObject({
      status: 302,
      location: acceptPage("/member-center/points?page=2"),
    });
    // A client-side navigation (React Router's data request) is sent there too.
    const data = await get(jar, "/member-center/points.data");
    expect(data.status).toBeLessThan(500);
    expect(`${data.location ?? ""} ${data.html}`).toContain("/accept-terms?redirectTo=%2Fmember-center%2Fpoints");
    // A post is stopped too, and the card's token is not handed out.
    expect(await post(jar, "/member-center/edit-info", { nameZh: "改名" })).toMatchObject({
      status: 302,
      location: acceptPage("/member-center/edit-info"),
    });
    const card = await get(jar, "/member-center/card-token");
    expect(card.status).toBe(403);
    expect(JSON.parse(card.html)).toEqual({ error: { code: "terms_not_accepted" } });

    const page = await get(jar, acceptPage("/member-center/points"));
    expect(page.status).toBe(200);
    expect(page.html).toContain(TITLE);
    expect(page.html).toContain("我已閱讀並同意");
    expect(page.html).toContain('href="/terms"');
    expect(page.html).toContain('href="/privacy"');
    expect(page.html).toContain('name="consent"');
    expect(page.html).toContain('value="/member-center/points"');
    expect(page.html).toMatch(/<form[^>]*action="\/logout"/);
    expect(await consentsOf(userId)).toEqual([]);

    const noTick = await post(jar, "/accept-terms", { redirectTo: "/member-center/points" });
    expect(noTick.status).toBe(400);
    expect(noTick.html).toContain("請勾選同意會員服務條款與隱私權政策");
    expect(await consentsOf(userId)).toEqual([]);

    const accepted = await post(jar, "/accept-terms", { consent: "on", redirectTo: "/member-center/points" });
    expect(accepted).toMatchObject({ status: 302, location: "/member-center/points" });
    const rows = await consentsOf(userId);
    expect(rows.map(({ kind, version, granted, source }) => ({ kind, version, granted, source }))).toEqual([
      { kind: "privacy", version: legal.PRIVACY_VERSION, granted: true, source: "accept-terms" },
      { kind: "terms", version: legal.TERMS_VERSION, granted: true, source: "accept-terms" },
    ]);
    expect(rows.every((row) => row.ipAddress)).toBe(true);

    expect((await get(jar, "/member-center")).status).toBe(200);
    expect((await get(jar, "/member-center/card-token")).status).toBe(200);
    // Nothing left to accept: the page sends the member on, and a second post records nothing more.
    expect(await get(jar, "/accept-terms")).toMatchObject({ status: 302, location: "/member-center" });
    await post(jar, "/accept-terms", { consent: "on" });
    expect(await consentsOf(userId)).toHaveLength(2);

    // The next login goes straight in.
    const again = await login(phone);
    expect((await get(again, "/member-center")).status).toBe(200);
  });

  it("asks whatever way the member logged in (a session from an SMS code, LINE or the welcome claim)", async () => {
    const { userId } = await newMember({ imported: true });
    const jar = await sessionOf(userId);
    expect(await get(jar, "/member-center/security")).toMatchObject({
      status: 302,
      location: acceptPage("/member-center/security"),
    });
  });

  it("asks again when the only terms the member has are the old system's (imported) or were refused", async () => {
    for (const previous of [
      { version: "import", granted: true, source: "import:csv" },
      { version: "2026-11-01", granted: false, source: "member-center" },
    ]) {
      const { userId } = await newMember({ imported: true });
      await db.insert(schema.memberConsent).values({ userId, kind: "terms", ...previous, ipAddress: null });
      const jar = await sessionOf(userId);
      expect((await get(jar, "/member-center")).location).toBe(acceptPage("/member-center"));
    }
  });

  it("follows import rows and consents written elsewhere (the gate's answer is cached per instance, issue 36)", async () => {
    const { userId, memberId } = await newMember({ imported: false });
    const jar = await sessionOf(userId);
    const status = async () => (await get(jar, "/member-center")).status;
    expect(await status()).toBe(200);
    expect(await status()).toBe(200);
    // Another instance, a job or SQL by hand: the triggers drop the cached answer on every instance (PostgreSQL
    // delivers it a moment after the commit, hence the poll).
    await db.insert(schema.memberSource).values({ source: "csv", externalId: randomUUID(), memberId });
    await expect.poll(status).toBe(302);
    await db
      .insert(schema.memberConsent)
      .values({ userId, kind: "terms", version: legal.TERMS_VERSION, granted: true, source: "test", ipAddress: null });
    await expect.poll(status).toBe(200);
    await db.delete(schema.memberConsent).where(eq(schema.memberConsent.userId, userId));
    await expect.poll(status).toBe(302);
    await db.delete(schema.memberSource).where(eq(schema.memberSource.memberId, memberId));
    await expect.poll(status).toBe(200);
  });

  it("never asks a member who signed up here", async () => {
    const { userId, phone } = await newMember({ imported: false });
    const jar = await login(phone);
    expect((await get(jar, "/member-center")).status).toBe(200);
    expect((await get(jar, "/member-center/points")).status).toBe(200);
    expect((await get(jar, "/member-center/card-token")).status).toBe(200);
    expect(await get(jar, acceptPage("/member-center/points"))).toMatchObject({
      status: 302,
      location: "/member-center/points",
    });
    expect(await consentsOf(userId)).not.toContainEqual(expect.objectContaining({ kind: "terms" }));
  });

  it("ignores a forged return path: only a same-site path is followed", async () => {
    const { phone } = await newMember({ imported: true });
    const jar = await login(phone);
    for (const forged of ["https://evil.example/x", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const page = await get(jar, acceptPage(forged));
      expect(page.status).toBe(200);
      expect(page.html).toContain('name="redirectTo" value="/member-center"');
    }
    expect(await get(jar, acceptPage("/accept-terms?redirectTo=%2Fmember-center"))).toMatchObject({ status: 200 });
    const accepted = await post(jar, "/accept-terms", { consent: "on", redirectTo: "https://evil.example/x" });
    expect(accepted).toMatchObject({ status: 302, location: "/member-center" });
    for (const forged of ["//evil.example", "/\\evil.example", "/accept-terms"]) {
      const again = await post(jar, "/accept-terms", { consent: "on", redirectTo: forged });
      expect(again).toMatchObject({ status: 302, location: "/member-center" });
    }
  });

  it("answers bad input with a 4xx, never a 500", async () => {
    const { phone } = await newMember({ imported: true });
    const jar = await login(phone);
    const json = await fetch(`${base}/accept-terms`, {
      method: "POST",
      headers: { origin: base, "content-type": "application/json", cookie: jar.header() },
      body: JSON.stringify({ consent: "on" }),
      redirect: "manual",
    });
    expect(json.status).toBe(415);
    await json.body?.cancel();
    const forged = await post(jar, "/accept-terms", { consent: "yes", redirectTo: "x".repeat(3000) });
    expect(forged.status).toBe(400);
    expect(forged.html).toContain("請勾選同意會員服務條款與隱私權政策");
    // Logged out: the login page, which comes back here.
    const visitor = await post(new Jar(), "/accept-terms", { consent: "on" });
    expect(visitor.status).toBe(302);
    expect(visitor.location).toMatch(/^\/member-login\?redirectTo=%2Faccept-terms/);
  });

  it("lets a member who declines log out", async () => {
    const { phone } = await newMember({ imported: true });
    const jar = await login(phone);
    const out = await post(jar, "/logout", {});
    expect(out).toMatchObject({ status: 302, location: "/" });
    expect((await get(jar, "/member-center")).location).toMatch(/^\/member-login/);
  });

  it("words the page in English for a member browsing in English", async () => {
    const { phone } = await newMember({ imported: true });
    const jar = await login(phone);
    const response = await fetch(`${base}${acceptPage("/member-center")}`, {
      headers: { cookie: `${jar.header()}; locale=en` },
      redirect: "manual",
    });
    const html = await response.text();
    expect(html).toContain("Please read and accept the membership terms and the privacy notice");
    expect(html).toContain("Decline and log out");
  });
});
