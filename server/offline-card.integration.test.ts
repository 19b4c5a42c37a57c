import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { insertTestStores } from "@platform/testing/stores";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cardCodeText, fromBase64url } from "../app/lib/card-code";
import { type DevApp, startDevApp } from "./testing/dev-app";

/**
 * The offline member card over HTTP (issue 36 item 4, ADR 043): the card page and what makes it installable and
 * kept offline, handing a device its secret, the POS lookup accepting the device's code once, removing the device in
 * security and logging out (both stop it at once), and bad input answered with stable codes.
 */
const HOOKS_SECRET = "t".repeat(40);

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let posKey: string;

beforeAll(async () => {
  app = await startDevApp({ APP_ENV: "test", TEST_HOOKS_SECRET: HOOKS_SECRET }, "offline_card");
  base = app.base;
  db = app.running.database.db;
  schema = (await app.vite.ssrLoadModule("/platform/db/schema/index.ts")) as typeof Schema;
  await insertTestStores(db, ["TPE01"]);
  posKey = ((await hook("/api-keys", { storeId: "TPE01" })) as { secret: string }).secret;
}, 180_000);

afterAll(() => app?.stop(), 60_000);

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
async function member() {
  phoneSeq += 1;
  const digits = String(58_000_000 + phoneSeq).padStart(8, "0");
  const made = (await hook("/members", {
    phoneNumber: `+8869${digits}`,
    name: "陳離線",
    password: "Tile-and-Walnut-2026!",
  })) as {
    userId: string;
    memberId: string;
    memberNumber: string;
  };
  const { setCookie } = (await hook("/sessions", { userId: made.userId })) as { setCookie: string[] };
  const jar = new Jar();
  jar.take(new Response(null, { headers: setCookie.map((c) => ["set-cookie", c] as [string, string]) }));
  return { ...made, jar };
}

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";

async function request(jar: Jar | null, pathname: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  if (jar) headers.set("cookie", jar.header());
  headers.set("user-agent", IPHONE);
  if (init.method === "POST" && !headers.has("origin")) headers.set("origin", base);
  const response = await fetch(`${base}${pathname}`, { ...init, headers, redirect: "manual" });
  jar?.take(response);
  return response;
}

type Device = { deviceId: string; memberId: string; secret: string; serverNow: number };

async function register(jar: Jar): Promise<Device> {
  const response = await request(jar, "/member-center/card/device", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(201);
  expect(response.headers.get("cache-control")).toContain("no-store");
  return (await response.json()) as Device;
}

const code = (d: Device, at = Date.now()) => cardCodeText(fromBase64url(d.secret), d.memberId, d.deviceId, at);

async function lookup(cardToken: string) {
  const response = await fetch(`${base}/api/v1/members/lookup?${new URLSearchParams({ cardToken })}`, {
    headers: { authorization: `Bearer ${posKey}` },
  });
  const body = (await response.json()) as { memberNumber?: string; error?: { code: string } };
  return { status: response.status, answer: body.memberNumber ?? body.error?.code };
}

describe("the offline member card", () => {
  it("serves the card page with its manifest, worker and script under the CSP nonce, saying when the balance was read", async () => {
    const m = await member();
    const page = await request(m.jar, "/member-center/card");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("private, no-store");
    const html = await page.text();
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    // The nonce is base64 (its "+" and "/" are not to be read as a pattern): the version is read, the tag compared.
    const version = /\/member-center\/card\/app\.js\?v=([0-9a-f]{12})"/.exec(html)?.[1];
    expect(version).toBeTruthy();
    expect(html).toContain(`<script type="module" src="/member-center/card/app.js?v=${version}" nonce="${nonce}">`);
    expect(html).toContain('<link rel="manifest" href="/member-center/card/manifest.webmanifest">');
    expect(html).toContain(m.memberNumber);
    expect(html).toMatch(/餘額更新於 \d{4}/);
    // No React, no router: the page's only script is the card's.
    expect(html.match(/<script[^>]* src=/g)).toHaveLength(1);

    const script = await request(null, `/member-center/card/app.js?v=${/app\.js\?v=([0-9a-f]{12})/.exec(html)?.[1]}`);
    expect(script.headers.get("content-type")).toContain("text/javascript");
    expect(script.headers.get("cache-control")).toContain("immutable");
    expect((await script.text()).length).toBeGreaterThan(1000);

    const manifest = await request(null, "/member-center/card/manifest.webmanifest");
    expect(manifest.headers.get("content-type")).toContain("application/manifest+json");
    const body = (await manifest.json()) as {
      display: string;
      start_url: string;
      icons: { sizes: string; purpose: string }[];
    };
    expect(body).toMatchObject({ display: "standalone", start_url: "/member-center/card" });
    expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual([
      "192x192 any",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of [
      "/member-card/icon-192.png",
      "/member-card/icon-512.png",
      "/member-card/icon-maskable-512.png",
    ]) {
      const png = await request(null, icon);
      expect(png.status, icon).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
    }

    const worker = await request(null, "/member-center/card/sw.js");
    expect(worker.headers.get("service-worker-allowed")).toBe("/member-center/card");
    expect(worker.headers.get("cache-control")).toBe("no-cache");
    expect(await worker.text()).toMatch(/const CACHE = "member-card-[0-9a-f]{12}"/);
  });

  it("sends a visitor without a session to the login page, and refuses to hand out a secret", async () => {
    const page = await request(null, "/member-center/card");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toContain("/member-login");
    const answer = await request(null, "/member-center/card/device", { method: "POST", body: "{}" });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: { code: "not_logged_in" } });
  });

  it("refuses a body that is not an empty object, and a post from another site", async () => {
    const m = await member();
    for (const body of ['{"memberId":"x"}', "[]", "not json", '{"a":"\u0000"}']) {
      const answer = await request(m.jar, "/member-center/card/device", { method: "POST", body });
      expect(answer.status, body).toBe(400);
      expect(await answer.json()).toEqual({ error: { code: "invalid_input" } });
    }
    const cross = await request(m.jar, "/member-center/card/device", {
      method: "POST",
      body: "{}",
      headers: { origin: "https://evil.example" },
    });
    expect(cross.status).toBe(403);
  });

  it("the till accepts a device's code once; removing the device in security stops it at once", async () => {
    const m = await member();
    const device = await register(m.jar);
    expect(device.memberId).toBe(m.memberId);

    const first = await code(device);
    expect(await lookup(first)).toEqual({ status: 200, answer: m.memberNumber });
    expect(await lookup(first)).toEqual({ status: 409, answer: "card_token_replayed" });

    const security = await request(m.jar, "/member-center/security");
    const html = await security.text();
    expect(html).toContain("離線會員卡");
    expect(html).toContain("iPhone");

    // Another member cannot remove it; a malformed id is a 404 beside the list.
    const other = await member();
    const theirs = await request(other.jar, "/member-center/security", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "remove-card-device", id: device.deviceId }),
    });
    expect(theirs.status).toBe(404);
    const bad = await request(m.jar, "/member-center/security", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "remove-card-device", id: "\u0000" }),
    });
    expect(bad.status).toBe(404);

    const removed = await request(m.jar, "/member-center/security", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "remove-card-device", id: device.deviceId }),
    });
    expect(removed.status).toBe(302);
    expect(await lookup(await code(device, Date.now() + 30_000))).toEqual({
      status: 422,
      answer: "card_device_revoked",
    });
    // The replay and the removed device's code are failed security events in the audit log, naming the member.
    const refusals = await db
      .select({
        targetId: schema.auditLog.targetId,
        changes: schema.auditLog.changes,
        actorType: schema.auditLog.actorType,
      })
      .from(schema.auditLog)
      .where(eq(schema.auditLog.action, "member.card_refused"));
    const mine = refusals.filter((row) => row.targetId === m.memberId);
    expect(mine.map((row) => JSON.stringify(row.changes)).sort()).toEqual([
      expect.stringContaining("card_device_revoked"),
      expect.stringContaining("card_token_replayed"),
    ]);
    expect(mine.every((row) => row.actorType === "api_key")).toBe(true);
    // The card page no longer lists it: the phone registers again when next online.
    expect(await (await request(m.jar, "/member-center/card")).text()).not.toContain(device.deviceId);
  });

  it("ending the member's other logins in security stops the cards they registered, not this login's", async () => {
    const m = await member();
    const phone = await register(m.jar);
    // The same member logged in on a second device, which ends the other logins.
    const { setCookie } = (await hook("/sessions", { userId: m.userId })) as { setCookie: string[] };
    const laptop = new Jar();
    laptop.take(new Response(null, { headers: setCookie.map((c) => ["set-cookie", c] as [string, string]) }));
    const own = await register(laptop);
    const ended = await request(laptop, "/member-center/security", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "end-others" }),
    });
    expect(ended.status).toBe(302);
    expect(await lookup(await code(phone))).toEqual({ status: 422, answer: "card_device_revoked" });
    expect(await lookup(await code(own))).toEqual({ status: 200, answer: m.memberNumber });
  });

  it("refuses malformed codes, NUL bytes and a code signed for another member at the till with stable codes", async () => {
    const m = await member();
    const other = await member();
    const device = await register(m.jar);
    const moved = await cardCodeText(fromBase64url(device.secret), other.memberId, device.deviceId, Date.now());
    expect(await lookup(moved)).toEqual({ status: 422, answer: "card_token_forged" });
    expect(await lookup("HLD1.AAAA")).toEqual({ status: 422, answer: "card_token_malformed" });
    expect((await lookup(`HLD1.\u0000${"A".repeat(20)}`)).status).toBe(400);
    expect(await lookup(await code(device, Date.now() - 5 * 60_000))).toEqual({
      status: 422,
      answer: "card_token_expired",
    });
    expect(await lookup(await code(device, Date.now() + 5 * 60_000))).toEqual({
      status: 422,
      answer: "card_token_future",
    });
  });

  it("logging out revokes this login's cards and tells the browser to drop the card's storage", async () => {
    const m = await member();
    const device = await register(m.jar);
    const out = await request(m.jar, "/logout", { method: "POST" });
    expect(out.status).toBe(302);
    expect(out.headers.get("clear-site-data")).toBe('"storage"');
    const [row] = await db.select().from(schema.memberDevice).where(eq(schema.memberDevice.id, device.deviceId));
    expect(row?.revokedAt).toBeInstanceOf(Date);
    expect(await lookup(await code(device))).toEqual({ status: 422, answer: "card_device_revoked" });
  });
});
