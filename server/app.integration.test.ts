import http from "node:http";
import { diagnosticProbe } from "@platform/db/schema";
import { waitFor } from "@platform/testing/wait";
import type { ServerBuild } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type * as AppModule from "./app";
import { type AppInstance, type DevServer, type Running, startDevServer } from "./testing/dev-app";

/**
 * The real Express app from createApp(), served through a Vite dev server in middleware mode exactly
 * as server.js does in development. createApp and loadConfig are loaded through Vite too, so the app
 * and the route modules share one copy of app/adapters/context.server.ts (the router context is looked up
 * by identity). One Vite server and one app per file; the database is PGlite in memory, or a fresh
 * PostgreSQL database when TEST_DATABASE_URL is set (server/testing/dev-app.ts).
 */
let dev: DevServer;

function startApp(env: Record<string, string>): Promise<AppInstance> {
  return dev.serve(env, { label: "app" });
}

beforeAll(async () => {
  dev = await startDevServer();
});

afterAll(() => dev?.close());

/** The `name=value` pair of a Set-Cookie header, as the browser sends it back. */
function cookieFrom(response: Response, name: string): string {
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!setCookie) throw new Error(`no ${name} cookie in ${JSON.stringify(response.headers.getSetCookie())}`);
  return setCookie.split(";")[0] ?? "";
}

function scriptTags(html: string): string[] {
  return html.match(/<script\b[^>]*>/g) ?? [];
}

/** A raw HTTP request, for headers fetch will not let us set (Content-Length without the body). */
function rawRequest(
  base: string,
  options: http.RequestOptions,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base);
    const req = http.request({ host: url.hostname, port: url.port, ...options }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.flushHeaders();
  });
}

describe("the app in development", () => {
  let running: Running;
  let base: string;
  const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
    method: "POST",
    body: new URLSearchParams(fields),
    // Browsers send Origin with every POST; React Router refuses cross-origin actions.
    headers: { origin: base, ...headers },
    redirect: "manual",
  });

  beforeAll(async () => {
    ({ running, base } = await startApp({ APP_ENV: "development" }));
  });

  it("answers /healthz", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("serves only the allowlisted better-auth endpoints (ADR 019)", async () => {
    expect((await fetch(`${base}/api/auth/change-password`, form({ newPassword: "password" }))).status).toBe(404);
    expect((await fetch(`${base}/api/auth/list-sessions`)).status).toBe(404);
    expect((await fetch(`${base}/api/auth/passkey/generate-authenticate-options`)).status).toBe(200);
  });

  it("is ready once migrations are up to date", async () => {
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; database: string; migrations: { upToDate: boolean } };
    expect(body).toMatchObject({ status: "ready", database: "reachable", migrations: { upToDate: true } });
    expect(body.migrations).toEqual(await running.database.migrationStatus());
  });

  it("echoes a valid X-Request-Id and replaces an invalid one", async () => {
    const valid = "req-1234.abcd_EF";
    const echoed = await fetch(`${base}/healthz`, { headers: { "x-request-id": valid } });
    expect(echoed.headers.get("x-request-id")).toBe(valid);

    for (const invalid of ["short", "has spaces in it", "x".repeat(129), "<script>alert(1)</script>"]) {
      const response = await fetch(`${base}/healthz`, { headers: { "x-request-id": invalid } });
      const generated = response.headers.get("x-request-id");
      expect(generated).not.toBe(invalid);
      expect(generated).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }

    const a = (await fetch(`${base}/healthz`)).headers.get("x-request-id");
    const b = (await fetch(`${base}/healthz`)).headers.get("x-request-id");
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it("keeps invitation tokens out of the request log", async () => {
    const info = vi.spyOn(running.logger, "info");
    try {
      const token = "invitation-token-for-the-log-test";
      for (const pathname of [`/admin/invitation/${token}`, `/admin/invitation/${token}.data`])
        await (await fetch(`${base}${pathname}`)).text();
      const logged = await waitFor(
        async () => info.mock.calls.filter(([fields, msg]) => msg === "request" && typeof fields === "object"),
        (calls) => calls.length >= 2,
        10_000,
        50,
      );
      const urls = logged.map(([fields]) => (fields as { url?: string }).url);
      expect(urls).toEqual(
        expect.arrayContaining(["/admin/invitation/[redacted]", "/admin/invitation/[redacted].data"]),
      );
      expect(JSON.stringify(info.mock.calls)).not.toContain(token);
    } finally {
      info.mockRestore();
    }
  });

  it("sends security headers with a fresh CSP nonce that the page's scripts carry", async () => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${base}/`);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(response.headers.get("x-frame-options")).toBe("DENY");
      // Development: no HSTS, no upgrade-insecure-requests.
      expect(response.headers.get("strict-transport-security")).toBeNull();
      const csp = response.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("'strict-dynamic'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("upgrade-insecure-requests");
      const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      nonces.push(nonce ?? "");

      const html = await response.text();
      const scripts = scriptTags(html);
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  it("renders zh-TW by default", async () => {
    const html = await (await fetch(`${base}/`)).text();
    expect(html).toMatch(/<html[^>]* lang="zh-Hant-TW"/);
  });

  it("switches to English through POST /resources/locale", async () => {
    const response = await fetch(`${base}/resources/locale`, form({ locale: "en", redirectTo: "/materials" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/materials");
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith("locale="));
    expect(setCookie).toMatch(/^locale=en; Path=\/; Max-Age=31536000; SameSite=Lax$/);

    const html = await (await fetch(`${base}/`, { headers: { cookie: cookieFrom(response, "locale") } })).text();
    expect(html).toMatch(/<html[^>]* lang="en"/);
  });

  it("refuses to redirect off-site after switching the locale", async () => {
    for (const redirectTo of ["//evil.example/", "https://evil.example/", "/\t/evil.example", "/\\evil.example"]) {
      const response = await fetch(`${base}/resources/locale`, form({ locale: "en", redirectTo }));
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
    }
  });

  it("refuses a cross-site form post", async () => {
    const response = await fetch(
      `${base}/resources/locale`,
      form({ locale: "en", redirectTo: "/" }, { origin: "https://evil.example" }),
    );
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: "forbidden_origin" } });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("ignores an unknown locale", async () => {
    const response = await fetch(`${base}/resources/locale`, form({ locale: "fr", redirectTo: "/materials" }));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/materials");
    expect(response.headers.getSetCookie().filter((c) => c.startsWith("locale="))).toEqual([]);
  });

  it("shows the 404 page for an unknown path", async () => {
    const response = await fetch(`${base}/that/path`);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toContain("Page not found: /that/path");
    expect(html).toContain('data-testid="not-found"');
  });

  it("shows the 404 page for a malformed store id", async () => {
    const response = await fetch(`${base}/store-detail/BAD%20ID`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found: /store-detail/BAD%20ID");
  });

  it("refuses a body over 1 MiB with 413 before reading it", async () => {
    const { BODY_LIMIT_BYTES } = (await dev.vite.ssrLoadModule("/server/app.ts")) as typeof AppModule;
    expect(BODY_LIMIT_BYTES).toBe(1024 * 1024);
    const response = await rawRequest(base, {
      method: "POST",
      path: "/test-crud",
      headers: { "content-type": "application/x-www-form-urlencoded", "content-length": BODY_LIMIT_BYTES + 1 },
    });
    expect(response.status).toBe(413);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: "payload_too_large" } });
  });

  it("accepts a body of exactly 1 MiB", async () => {
    const body = `intent=none&pad=${"x".repeat(1024 * 1024 - "intent=none&pad=".length)}`;
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    const response = await fetch(`${base}/test-crud`, {
      ...form({}),
      body,
      headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
    });
    // The test-crud action answers an unknown intent with 400: the body got through to it.
    expect(response.status).toBe(400);
  });

  it("requires a length for chunked uploads (411)", async () => {
    const response = await rawRequest(base, {
      method: "POST",
      path: "/test-crud",
      headers: { "transfer-encoding": "chunked" },
    });
    expect(response.status).toBe(411);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: "length_required" } });
  });

  it("answers unknown POS API paths with a JSON 404", async () => {
    for (const [method, url] of [
      ["GET", "/api/v1/anything"],
      ["POST", "/api/v1/members/123/points"],
    ] as const) {
      const response = await fetch(`${base}${url}`, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ error: { code: "not_found", message: "Unknown API endpoint" } });
    }
  });

  it("serves a page's message catalogs as files cached for a year, named in the page, not inside it", async () => {
    const html = await (await fetch(`${base}/our-store`, { headers: { cookie: "locale=en" } })).text();
    const path = html.match(
      /<link rel="preload" href="(\/i18n\/en\.[^"]+\.json)" as="fetch" crossorigin="anonymous"/,
    )?.[1];
    expect(path).toBeDefined();
    // The messages are no longer in the page's data (their keys were): the shell's, and the page's own.
    expect(html).not.toContain("footer.copyright");
    expect(html).not.toContain("catalog.weekday.0");
    expect(html).toContain("Main navigation");
    const own = html.match(/<link rel="preload" href="(\/i18n\/en\/[^"]+\.json)" as="fetch"/)?.[1] ?? "";
    const ownMessages = (await (await fetch(`${base}${own}`)).json()) as Record<string, string>;
    expect(ownMessages["catalog.weekday.0"]).toBe("Sunday");
    expect(Object.keys(ownMessages).every((key) => key.startsWith("catalog."))).toBe(true);
    const response = await fetch(`${base}${path}`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const messages = (await response.json()) as Record<string, string>;
    expect(messages["nav.label"]).toBe("Main navigation");
    expect(Object.keys(messages).some((key) => key.startsWith("email."))).toBe(false);

    // Another build's (or a made-up) name is a 404 the browser must not cache.
    for (const other of [
      "/i18n/en.AAAAAAAAAAAA.json",
      "/i18n/%2e%2e%2fpackage.json",
      "/i18n/",
      own.replace(/\.[^.]+\.json$/, ".AAAAAAAAAAAA.json"),
      "/i18n/en/email.AAAAAAAAAAAA.json",
    ]) {
      const missing = await fetch(`${base}${other}`);
      expect(missing.status, other).toBe(404);
      expect(missing.headers.get("cache-control") ?? "", other).not.toMatch(/immutable/);
    }
  });

  it("tells the client which build is live", async () => {
    const response = await fetch(`${base}/api/version`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { version } = (await response.json()) as { version: unknown };
    expect(typeof version).toBe("string");
    expect(version).not.toBe("");
    const build = (await dev.vite.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
    expect(version).toBe(build.assets.version);
  });

  it("serves /test-crud in development", async () => {
    const response = await fetch(`${base}/test-crud`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`>${running.database.driver}<`);
  });

  it("runs the CRUD round trip from the test-crud form, every step ok", async () => {
    const response = await fetch(`${base}/test-crud`, form({ intent: "crud" }));
    expect(response.status).toBe(200);
    const html = await response.text();
    const table = /<table[^>]*data-testid="crud-steps"[^>]*>([\s\S]*?)<\/table>/.exec(html)?.[1] ?? "";
    const rows = [...table.matchAll(/<td class="([^"]*)font-mono">([^<]+)<\/td><td class="([^"]+)">/g)].map((m) => [
      m[2],
      m[3]?.includes("text-success-700") ? "ok" : "failed",
    ]);
    expect(rows).toEqual([
      ["create", "ok"],
      ["read", "ok"],
      ["update", "ok"],
      ["delete", "ok"],
      ["verify-deleted", "ok"],
    ]);
    expect(await running.database.db.select().from(diagnosticProbe)).toEqual([]);
  });

  it("carries a toast through the redirect into the next page's root data, once", async () => {
    const response = await fetch(`${base}/test-crud`, form({ intent: "toast-positive" }));
    expect([302, 303]).toContain(response.status);
    expect(response.headers.get("location")).toBe("/test-crud");
    const toastCookie = cookieFrom(response, "toast");

    // The cookie is signed, not encrypted: its payload names the toast's id.
    const payload = decodeURIComponent(toastCookie.slice("toast=".length)).split(".")[0] ?? "";
    const flashed = Object.values(JSON.parse(Buffer.from(payload, "base64").toString("utf8")) as object)[0] as {
      id: string;
      type: string;
    };
    expect(flashed.type).toBe("success");

    const next = await fetch(`${base}/test-crud`, { headers: { cookie: toastCookie } });
    expect(next.status).toBe(200);
    const html = await next.text();
    // The root loader's data (streamed into the page) holds the toast, and the no-JS fallback shows it.
    expect(html).toContain(flashed.id);
    expect(html).toContain("這是一則測試通知");
    // ... and the response clears the cookie so it shows only once.
    const cleared = next.headers.getSetCookie().find((c) => c.startsWith("toast="));
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);

    const after = await (
      await fetch(`${base}/test-crud`, { headers: { cookie: cleared?.split(";")[0] ?? "" } })
    ).text();
    expect(after).not.toContain(flashed.id);
  });

  it("queues a test text message from /test-crud and shows it in /dev/outbox", async () => {
    const response = await fetch(`${base}/test-crud`, form({ intent: "send-sms", recipient: "0912 345 678" }));
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('data-testid="message-queued"');
    expect(html).toContain('href="/dev/outbox?to=0912+345+678&amp;channel=sms"');

    const outbox = await waitFor(
      async () => (await fetch(`${base}/dev/outbox?to=0912345678&channel=sms`)).text(),
      (page) => page.includes('data-testid="outbox-message"'),
    );
    expect(outbox).toContain("【漢生活】這是開發診斷頁面寄出的測試簡訊，無需回覆。");
    expect(outbox).toContain("+886912345678");
    expect(outbox).toMatch(/<meta name="robots" content="noindex"\/>/);
  });

  it("queues a test e-mail and previews its HTML in a sandboxed frame, no scripts", async () => {
    const response = await fetch(`${base}/test-crud`, form({ intent: "send-email", recipient: "Dev@Example.com" }));
    expect(response.status).toBe(200);
    const outbox = await waitFor(
      async () => (await fetch(`${base}/dev/outbox?to=dev%40example.com`)).text(),
      (page) => page.includes('data-testid="outbox-html"'),
    );
    const iframe = /<iframe[^>]*data-testid="outbox-html"[^>]*>/.exec(outbox)?.[0] ?? "";
    expect(iframe).toContain('sandbox=""');
    expect(iframe).toMatch(/srcDoc="&lt;!DOCTYPE html&gt;/i);
    expect(iframe).toContain("是您的漢生活電子郵件驗證碼");
    // Every script on the page still carries the nonce; the e-mail brings none.
    const nonce = /'nonce-([^']+)'/.exec(
      (await fetch(`${base}/dev/outbox`)).headers.get("content-security-policy") ?? "",
    )?.[1];
    expect(nonce).toBeTruthy();
    expect(iframe).not.toMatch(/&lt;script/i);
  });

  it("refuses a malformed recipient next to the field", async () => {
    const response = await fetch(`${base}/test-crud`, form({ intent: "send-sms", recipient: "12345" }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("請輸入正確的手機號碼（09xxxxxxxx 或 +國碼）。");
    const email = await fetch(`${base}/test-crud`, form({ intent: "send-email", recipient: "not-an-address" }));
    expect(email.status).toBe(400);
    expect(await email.text()).toContain("請輸入正確的電子郵件地址。");
  });

  it("filters /dev/outbox and explains a filter it cannot read", async () => {
    const response = await fetch(`${base}/dev/outbox?to=12345`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("請輸入手機號碼（09 開頭）或電子郵件地址。");
    const empty = await (await fetch(`${base}/dev/outbox?to=0987654321`)).text();
    expect(empty).toContain('data-testid="outbox-empty"');
  });

  it("answers 503 on /readyz once shutdown has begun, while /healthz stays up", async () => {
    // Last test of this block: beginShutdown() cannot be undone.
    running.beginShutdown();
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "draining" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe("the app with APP_ENV=production", () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await startApp({
      APP_ENV: "production",
      // Required by loadConfig in production; the database itself is the test database.
      DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
      SESSION_SECRET: "a-production-secret-for-the-tests-0123456789",
      AUDIT_ANCHOR_KEY: "an-audit-anchor-key-for-the-tests-0123456789",
      PUBLIC_BASE_URL: "https://member.example.com",
      // Production refuses the outbox unless it is asked for by name.
      SMS_PROVIDER: "outbox",
      EMAIL_PROVIDER: "outbox",
    }));
  });

  it("hides /test-crud behind a 404", async () => {
    const response = await fetch(`${base}/test-crud`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found: /test-crud");

    const post = await fetch(`${base}/test-crud`, {
      method: "POST",
      body: new URLSearchParams({ intent: "crud" }),
      headers: { origin: base },
    });
    expect(post.status).toBe(404);
  });

  it("hides /dev/outbox behind a 404, even with the outbox configured", async () => {
    const response = await fetch(`${base}/dev/outbox`);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found: /dev/outbox");
  });

  it("adds HSTS and upgrade-insecure-requests", async () => {
    const response = await fetch(`${base}/healthz`);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(response.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
  });
});

describe("the app with APP_ENV=production and ENABLE_TEST_CRUD=true", () => {
  let base: string;

  beforeAll(async () => {
    ({ base } = await startApp({
      APP_ENV: "production",
      DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
      SESSION_SECRET: "a-production-secret-for-the-tests-0123456789",
      AUDIT_ANCHOR_KEY: "an-audit-anchor-key-for-the-tests-0123456789",
      PUBLIC_BASE_URL: "https://member.example.com",
      SMS_PROVIDER: "outbox",
      EMAIL_PROVIDER: "outbox",
      ENABLE_TEST_CRUD: "true",
    }));
  });

  it("shows the diagnostics without the message test, and refuses to send", async () => {
    const page = await fetch(`${base}/test-crud`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="driver"');
    expect(html).not.toContain('value="send-sms"');

    const post = await fetch(`${base}/test-crud`, {
      method: "POST",
      body: new URLSearchParams({ intent: "send-sms", recipient: "0912345678" }),
      headers: { origin: base },
    });
    expect(post.status).toBe(404);
  });
});

describe("the public catalogue over HTTP (APP_ENV=test, demo content seeded)", () => {
  let base: string;
  let devBase: string;
  const WEDNESDAY_MORNING = "2026-11-25T10:15:00+08:00";
  const SUNDAY_NIGHT = "2026-11-29T21:15:00+08:00";
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
  const HOOKS_SECRET = "per-run-test-hooks-secret-0123456789abcdef";
  const pinned = (iso: string) => ({ "x-test-now": iso, "x-test-hooks-secret": HOOKS_SECRET });
  const storeIds = (html: string) => [...html.matchAll(/data-store-id="([^"]+)"/g)].map((m) => m[1]);

  beforeAll(async () => {
    ({ base } = await startApp({
      APP_ENV: "test",
      TEST_HOOKS_SECRET: HOOKS_SECRET,
      PUBLIC_BASE_URL: "https://member.example.com",
    }));
    ({ base: devBase } = await startApp({ APP_ENV: "development" }));
  });

  it("serves every public page with canonical URL, Open Graph and a CDN cache policy", async () => {
    for (const path of [
      "/",
      "/our-store",
      "/store-detail/xinyi-flagship",
      "/materials",
      "/material-detail/kyoto-mist-porcelain",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toMatch(/^public, max-age=0, s-maxage=\d+/);
      expect(response.headers.get("vary"), path).toMatch(/Cookie/);
      expect(response.headers.get("etag"), path).toMatch(/^"[\w-]+"$/);
      const html = await response.text();
      expect(html, path).toContain(`<link rel="canonical" href="https://member.example.com${path}"/>`);
      expect(html, path).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
      expect(html, path).toMatch(/<meta name="description" content="[^"]+"\/>/);
    }
  });

  it("puts schema.org JSON-LD in a script that carries the CSP nonce", async () => {
    for (const [path, type] of [
      ["/store-detail/xinyi-flagship", "Store"],
      ["/material-detail/hualien-white-marble", "Product"],
    ] as const) {
      const response = await get(path);
      const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
      const html = await response.text();
      const script = /<script type="application\/ld\+json" nonce="([^"]+)">([\s\S]*?)<\/script>/.exec(html);
      expect(script?.[1]).toBe(nonce);
      const json = JSON.parse(script?.[2] ?? "{}") as { "@type": string; name: string };
      expect(json["@type"]).toBe(type);
      expect(json.name).toBeTruthy();
    }
  });

  it("answers 304 to a matching If-None-Match, without a new CSP, although every body has its own nonce", async () => {
    const first = await get("/materials");
    const second = await get("/materials");
    const etag = first.headers.get("etag") ?? "";
    expect(second.headers.get("etag")).toBe(etag);
    expect(first.headers.get("content-security-policy")).not.toBe(second.headers.get("content-security-policy"));
    const revalidated = await get("/materials", { "if-none-match": etag });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get("content-security-policy")).toBeNull();
    expect(await revalidated.text()).toBe("");
    expect((await get("/materials", { "if-none-match": '"something-else"' })).status).toBe(200);
  });

  it("reuses a rendered public page briefly, with each response's own nonce, per locale", async () => {
    const first = await get("/our-store?city=tainan");
    const second = await get("/our-store?city=tainan");
    expect(second.headers.get("x-render-cache")).toBe("hit");
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const nonce = /'nonce-([^']+)'/.exec(second.headers.get("content-security-policy") ?? "")?.[1] ?? "";
    const html = await second.text();
    for (const tag of scriptTags(html)) expect(tag).toContain(`nonce="${nonce}"`);
    await first.text();
    // Another locale is another page.
    const english = await get("/our-store?city=tainan", { cookie: "locale=en" });
    expect(english.headers.get("x-render-cache")).toBeNull();
    expect(await english.text()).toContain("Tainan Showroom");
    // A client's no-cache does not bypass the cache (anyone could force a render per request: issue 17).
    for (const headers of <Record<string, string>[]>[{ "cache-control": "no-cache" }, { pragma: "no-cache" }]) {
      const response = await get("/our-store?city=tainan", headers);
      expect(response.headers.get("x-render-cache"), JSON.stringify(headers)).toBe("hit");
      await response.text();
    }
    // A pinned clock (APP_ENV=test only) and a session always render.
    for (const headers of <Record<string, string>[]>[
      pinned(WEDNESDAY_MORNING),
      { cookie: "better-auth.session_token=abc" },
    ]) {
      const response = await get("/our-store?city=tainan", headers);
      expect(response.headers.get("x-render-cache"), JSON.stringify(headers)).toBeNull();
      await response.text();
    }
  });

  it("never lets a shared cache keep a page requested with a session cookie", async () => {
    for (const cookie of ["better-auth.session_token=abc.def", "__Secure-better-auth.session_token=abc.def"]) {
      for (const path of ["/", "/our-store", "/material-detail/kyoto-mist-porcelain", "/our-store.data"]) {
        const response = await get(path, { cookie: `locale=zh-TW; ${cookie}` });
        expect(response.status, path).toBe(200);
        expect(response.headers.get("cache-control"), path).toBe("private, no-store");
        expect(response.headers.get("etag"), path).toBeNull();
      }
    }
    // The home page then offers the member center instead of sign-up.
    const home = await (await get("/", { cookie: "better-auth.session_token=x" })).text();
    expect(home).toContain('href="/member-center"');
    expect(await (await get("/")).text()).toContain('href="/signup/phone-verification"');
  });

  it("takes 'now' from X-Test-Now under APP_ENV=test with the run's secret: open now on a weekday morning and a Sunday night", async () => {
    const morning = await (await get("/our-store?open=1", pinned(WEDNESDAY_MORNING))).text();
    expect(storeIds(morning).sort()).toEqual(["luodong", "neihu-design-center", "zhubei"]);
    const night = await (await get("/our-store?open=1", pinned(SUNDAY_NIGHT))).text();
    expect(storeIds(night).sort()).toEqual(["kaohsiung-art-museum", "xinyi-flagship"]);
    const taipeiMorning = await (await get("/our-store?city=taipei&open=1", pinned(WEDNESDAY_MORNING))).text();
    expect(storeIds(taipeiMorning)).toEqual(["neihu-design-center"]);
  });

  it("ignores X-Test-Now outside APP_ENV=test, and without the run's secret", async () => {
    const dev = await fetch(`${devBase}/our-store`, { headers: pinned(SUNDAY_NIGHT) });
    expect(await dev.text()).not.toContain("臺北時間 21:15");
    // Nor does the header bypass the render cache there (it would force a render per request).
    await (await fetch(`${devBase}/our-store?city=hualien`)).text();
    const again = await fetch(`${devBase}/our-store?city=hualien`, { headers: pinned(SUNDAY_NIGHT) });
    expect(again.headers.get("x-render-cache")).toBe("hit");
    await again.text();
    for (const secret of [undefined, "wrong-secret-wrong-secret-wrong-secret-00"]) {
      const headers: Record<string, string> = { "x-test-now": SUNDAY_NIGHT, "cache-control": "no-cache" };
      if (secret) headers["x-test-hooks-secret"] = secret;
      expect(await (await get("/our-store", headers)).text()).not.toContain("臺北時間 21:15");
    }
    expect(await (await get("/our-store", pinned(SUNDAY_NIGHT))).text()).toContain("臺北時間 21:15");
  });

  it("opens the /__test hooks only to requests with the run's secret, and never outside APP_ENV=test", async () => {
    const createMember = (url: string, headers: Record<string, string>) =>
      fetch(`${url}/__test/members`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ phoneNumber: "+886912000111" }),
      });
    expect((await createMember(base, {})).status).toBe(404);
    expect((await createMember(base, { "x-test-hooks-secret": `${HOOKS_SECRET}x` })).status).toBe(404);
    expect((await createMember(devBase, { "x-test-hooks-secret": HOOKS_SECRET })).status).toBe(404);
    const created = await createMember(base, { "x-test-hooks-secret": HOOKS_SECRET });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ userId: expect.any(String) });
  });

  it("ignores bogus filter values and still lists every showroom", async () => {
    const all = storeIds(await (await get("/our-store")).text());
    expect(all.length).toBeGreaterThanOrEqual(8);
    const bogus = await get("/our-store?city=atlantis&open=yes-please&near=here&page=-1");
    expect(bogus.status).toBe(200);
    expect(storeIds(await bogus.text())).toEqual(all);
    const materials = await get("/materials?category=%3Cb%3E&q=");
    expect(materials.status).toBe(200);
    expect((await materials.text()).match(/data-testid="material-card"/g)?.length).toBeGreaterThanOrEqual(40);
  });

  it("treats SQL and HTML in the search as plain text", async () => {
    const q = `<script>alert(1)</script>' OR '1'='1`;
    for (const path of ["/our-store", "/materials"]) {
      const response = await get(`${path}?q=${encodeURIComponent(q)}`);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    }
    expect(storeIds(await (await get("/our-store?q=%25")).text())).toEqual([]);
  });

  it("answers 404 for unknown, malformed and unpublished ids", async () => {
    for (const path of [
      "/store-detail/no-such-store",
      "/store-detail/Xinyi",
      "/store-detail/dadaocheng-concept",
      "/material-detail/no-such-material",
      "/material-detail/a%27%3B--",
      "/material-detail/discontinued-glass-mosaic",
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("cache-control") ?? "", path).not.toMatch(/public/);
      expect(await response.text(), path).toContain(`Page not found: ${path}`);
    }
  });

  it("lists published pages in sitemap.xml and announces it in robots.txt", async () => {
    const sitemap = await get("/sitemap.xml");
    expect(sitemap.headers.get("content-type")).toMatch(/^application\/xml/);
    const xml = await sitemap.text();
    expect(xml).toContain("<loc>https://member.example.com/store-detail/xinyi-flagship</loc>");
    expect(xml).toContain("<loc>https://member.example.com/material-detail/kyoto-mist-porcelain</loc>");
    expect(xml).not.toContain("dadaocheng-concept");
    expect(xml).not.toContain("discontinued-glass-mosaic");
    const robots = await (await get("/robots.txt")).text();
    expect(robots).toContain("Sitemap: https://member.example.com/sitemap.xml");
    expect(robots).toContain("Disallow: /member-center");
  });

  it("draws the demo pictures as SVG and refuses anything else", async () => {
    const svg = await get("/media/marble/eeeae4-8f877c/3.svg");
    expect(svg.status).toBe(200);
    expect(svg.headers.get("content-type")).toMatch(/^image\/svg\+xml/);
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    for (const bad of ["/media/marble/zzzzzz/3.svg", "/media/nope/eeeae4/3.svg", "/media/marble/eeeae4/3.png"]) {
      expect((await get(bad)).status, bad).toBe(404);
    }
  });
});
