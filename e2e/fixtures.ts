import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, test as base, expect, type Locator, type Page, type Response } from "@playwright/test";
import axe, { type AxeResults } from "axe-core";
import postgres from "postgres";
import { startTestSmtpServer, type TestSmtpServer } from "../platform/testing/smtp";

/** The WCAG levels every page must pass. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

export type AppServer = {
  /** http://127.0.0.1:PORT */
  url: string;
  /** "pglite" (fresh DATA_DIR) or "postgres" (fresh database from TEST_DATABASE_URL). */
  driver: "pglite" | "postgres";
  /** Everything the server printed, for failure messages. */
  output(): string;
};

type WorkerFixtures = {
  /**
   * Which app server (and database) the worker's tests share. A spec that changes what every later test in the
   * worker would see — the programme rules in force today, say — names its own with `test.use({ serverGroup: … })`:
   * Playwright runs it in a worker of its own, with a server and a database of its own.
   */
  serverGroup: string;
  appServer: AppServer;
  /** Set up once per worker: see DRAW_SCREENSHOTS. */
  screenshotsForPeople: undefined;
};

const ROOT = path.resolve(import.meta.dirname, "..");
// Generous: a loaded 2-core machine has taken over a minute to migrate and seed a fresh database.
const SERVER_START_TIMEOUT_MS = 150_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => (port ? resolve(port) : reject(new Error("no free port"))));
    });
  });
}

/** A fresh, uniquely named database on the PostgreSQL that TEST_DATABASE_URL (an admin URL) points at. */
async function createDatabase(adminUrl: string, workerIndex: number) {
  const name = `e2e_w${workerIndex}_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const sql = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}

async function waitForReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  let exited: string | null = null;
  child.once("exit", (code, signal) => {
    exited = `exited with ${signal ?? code}`;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`App server ${exited} before it was ready:\n${output()}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`App server not ready after ${SERVER_START_TIMEOUT_MS} ms:\n${output()}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const killTimer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(killTimer);
}

/** Starts the built app (server.js) on a free port with a fresh database; stops it afterwards. */
async function runAppServer(
  workerIndex: number,
  extraEnv: Record<string, string>,
  use: (server: AppServer) => Promise<void>,
): Promise<void> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `e2e-data-w${workerIndex}-`));
  const adminUrl = process.env.TEST_DATABASE_URL;
  const database = adminUrl ? await createDatabase(adminUrl, workerIndex) : null;

  let log = "";
  const child = spawn(process.execPath, ["server.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_ENV: "test",
      // Set by playwright.config.ts for the run; the tests send it with every request.
      TEST_HOOKS_SECRET: process.env.TEST_HOOKS_SECRET ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      SHUTDOWN_TIMEOUT_MS: "2000",
      DATABASE_URL: database?.url ?? "",
      // The demo catalogue, on PostgreSQL too (the embedded default loads it anyway).
      SEED_DEMO_CONTENT: "true",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);

  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForReady(url, child, () => log);
    await use({ url, driver: database ? "postgres" : "pglite", output: () => log });
  } finally {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
    await database?.drop();
  }
}

/**
 * Whether the screenshots taken for people to look at are drawn: `E2E_SCREENSHOTS=on|off`, on unless CI is set (CI
 * throws them away, and drawing full pages in software was a large share of the browser phase's CPU, ADR 036). Off,
 * a `screenshot({ path })` of a page writes and draws nothing; everything the tests check around it (axe at each
 * size, no sideways scrolling, headings) still runs. Screenshots without a path (read back by a test, e.g. the
 * carrier barcode) and Playwright's own screenshot of a failed test are always drawn.
 */
export const DRAW_SCREENSHOTS = (process.env.E2E_SCREENSHOTS ?? (process.env.CI ? "off" : "on")) !== "off";

const PLAYWRIGHT_OWN_SCREENSHOT = /test-(failed|finished)-\d+\.png$/;

/** Makes every page of this worker skip drawing screenshots saved for people (see DRAW_SCREENSHOTS). */
async function skipScreenshotsForPeople(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  const proto = Object.getPrototypeOf(await context.newPage()) as { screenshot: Page["screenshot"] };
  await context.close();
  if (Object.hasOwn(proto, SKIPPING)) return;
  const draw = proto.screenshot;
  proto.screenshot = async function (this: Page, options) {
    if (options?.path && !PLAYWRIGHT_OWN_SCREENSHOT.test(options.path)) return Buffer.alloc(0);
    return draw.call(this, options);
  };
  Object.defineProperty(proto, SKIPPING, { value: true });
}
const SKIPPING = Symbol("skipping screenshots for people");

export const test = base.extend<Record<never, never>, WorkerFixtures>({
  screenshotsForPeople: [
    async ({ browser }, use) => {
      if (!DRAW_SCREENSHOTS) await skipScreenshotsForPeople(browser);
      await use(undefined);
    },
    { scope: "worker", auto: true },
  ],
  serverGroup: ["shared", { scope: "worker", option: true }],
  appServer: [
    async ({ serverGroup: _ }, use, workerInfo) => runAppServer(workerInfo.workerIndex, {}, use),
    { scope: "worker", timeout: SERVER_START_TIMEOUT_MS + 30_000 },
  ],

  baseURL: async ({ appServer }, use) => {
    await use(appServer.url);
  },
});

type MailWorkerFixtures = { smtp: TestSmtpServer; mailAppServer: AppServer };

/**
 * Tests that read e-mail: the app sends through a real SMTP server (smtp-server) started for the
 * worker, instead of the development outbox; `smtp.received` holds what arrived.
 */
export const mailTest = test.extend<Record<never, never>, MailWorkerFixtures>({
  smtp: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring pattern
    async ({}, use) => {
      const smtp = await startTestSmtpServer();
      try {
        await use(smtp);
      } finally {
        await smtp.close();
      }
    },
    { scope: "worker" },
  ],
  mailAppServer: [
    async ({ smtp }, use, workerInfo) =>
      runAppServer(workerInfo.workerIndex, { SMTP_URL: smtp.url, MAIL_FROM: "漢生活 <no-reply@hanliving.test>" }, use),
    { scope: "worker", timeout: SERVER_START_TIMEOUT_MS + 30_000 },
  ],
  baseURL: async ({ mailAppServer }, use) => {
    await use(mailAppServer.url);
  },
});

/** The newest 6-digit code in an e-mail that arrived for `to` (waits for the queue to send it). */
export async function latestMailCode(smtp: TestSmtpServer, to: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        const mail = smtp.received
          .filter((m) => m.to.includes(to.toLowerCase()))
          .slice(after)
          .at(-1);
        code = /\b(\d{6})\b/.exec(mail?.parsed.text ?? "")?.[1];
        return code ?? null;
      },
      { timeout: 20_000 },
    )
    .not.toBeNull();
  return code as string;
}

export { expect };

/**
 * Frames whose sandbox forbids scripts: axe cannot run inside them (it waits for ever), so they are
 * left out here and their documents are checked on their own (e.g. the e-mail preview of /dev/outbox).
 */
export const UNSCRIPTABLE_FRAMES = 'iframe[sandbox]:not([sandbox~="allow-scripts"])';

/** Runs axe (WCAG 2.0/2.1 A and AA, WCAG 2.2 AA) on the page as it is now; any violation fails the test. */
export async function expectAccessible(page: Page): Promise<void> {
  await settleAnimations(page);
  let results = await runAxe(page);
  // A toast mounted while axe ran (sonner is lazy-loaded, so a page's toast may arrive after the settling above) is
  // read mid-fade, its colours blended with the page (CI, 2026-12-07: 1.36:1 on a fading 申請已送出). Settle again
  // and check once more: a toast that really lacks contrast fails the second run too.
  if (await violationsInToasts(page, results.violations)) {
    await settleAnimations(page);
    results = await runAxe(page);
  }
  const summary = results.violations.map(
    (v) =>
      `${v.id} (${v.impact ?? "?"}): ${v.help}\n` +
      v.nodes.map((n) => `    ${n.target.join(" ")}: ${n.failureSummary?.replace(/\s+/g, " ") ?? ""}`).join("\n"),
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/**
 * What this worker has checked already, by the page's fingerprints (see `fingerprintNow`):
 * - `documents`: the exact document at that viewport (markup, typed values, focus, hover) passed every rule, so the
 *   same document again has nothing new for axe;
 * - `appearances`: a document of that look passed color-contrast (the costliest rule: 60–75 % of a check's time on
 *   the pages measured, ADR 036). A document that differs from it in text and in attributes that do not style
 *   (links, ids, labels' targets, alternative texts) is checked with every other rule.
 * Both are per worker process and only ever hold documents that passed.
 */
const checked = { documents: new Set<string>(), appearances: new Set<string>() };

/**
 * axe's results for the page as it is now.
 *
 * A page of one frame (nearly all of them) is checked with `axe.run` in that frame. axe is injected once per
 * document, so a check after a client-side navigation reuses it. AxeBuilder does more on every call:
 * - it injects axe's 1.3 MB of source again;
 * - it runs `axe.runPartial`;
 * - it opens a blank page to finish the run there, and injects axe into that page too.
 * That was 750–800 ms a check against 270 ms here, with the same results. A page with frames goes through
 * AxeBuilder, which checks each frame, leaving out the ones that forbid scripts.
 *
 * A document this worker has checked before is not checked again, and color-contrast runs once per appearance
 * (see `checked`); every other rule runs on every document that differs.
 */
async function runAxe(page: Page): Promise<AxeResults> {
  if (page.frames().length > 1) {
    return new AxeBuilder({ page }).exclude(UNSCRIPTABLE_FRAMES).withTags(AXE_TAGS).analyze();
  }
  type WithAxe = { axe?: typeof axe };
  const { document: documentKey, appearance } = await page.evaluate(fingerprintNow);
  if (checked.documents.has(documentKey)) return { violations: [] } as unknown as AxeResults;
  const contrast = !checked.appearances.has(appearance);
  if (!(await page.evaluate(() => typeof (window as WithAxe).axe?.run === "function"))) {
    await page.evaluate(axe.source);
  }
  const results = await page.evaluate(
    ([tags, withContrast]) =>
      (window as WithAxe).axe?.run(document, {
        runOnly: { type: "tag", values: tags },
        rules: withContrast ? {} : { "color-contrast": { enabled: false } },
      }) as Promise<AxeResults>,
    [AXE_TAGS, contrast] as const,
  );
  if (results.violations.length === 0) {
    checked.documents.add(documentKey);
    checked.appearances.add(appearance);
  }
  return results;
}

/**
 * Runs in the page: two fingerprints of the document as it is now, each with the viewport, the focused and hovered
 * elements and the form controls' state (typed values, checked, disabled, invalid).
 * - `document`: the whole markup, text included.
 * - `appearance`: the element tree with every attribute that can style an element (class, style, data-*, aria-*,
 *   state attributes, the stylesheets' links and <style> text), and where text is, but not what it says; the
 *   values of `href`, `src`, `srcset`, `action`, `id`, `for`, `name`, `alt`, `title`, `aria-label`,
 *   `aria-labelledby`, `aria-describedby`, `aria-controls` and `datetime` are left out (they differ from test to
 *   test: ids, members' names). Same appearance, same colours: color-contrast would find the same.
 */
function fingerprintNow(): { document: string; appearance: string } {
  // cyrb53: a 53-bit string hash, enough for the few hundred documents a worker checks.
  const hash = (text: string) => {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 2654435761);
      h2 = Math.imul(h2 ^ c, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return `${(h2 >>> 0).toString(36)}${(h1 >>> 0).toString(36)}:${text.length}`;
  };
  const unstyled = new Set([
    "href",
    "src",
    "srcset",
    "action",
    "id",
    "for",
    "name",
    "alt",
    "title",
    "aria-label",
    "aria-labelledby",
    "aria-describedby",
    "aria-controls",
    "datetime",
  ]);
  const hovered = Array.from(document.querySelectorAll(":hover")).at(-1);
  const state: string[] = [`${window.innerWidth}x${window.innerHeight}`];
  const look: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.parentElement?.tagName === "STYLE") look.push(`{${node.textContent}}`);
      else if (node.textContent?.trim()) look.push("#");
      return;
    }
    if (!(node instanceof Element)) return;
    let entry = `<${node.tagName}`;
    for (const attr of Array.from(node.attributes)) {
      // A stylesheet's link styles: its href stays.
      const styles = !unstyled.has(attr.name) || node.tagName === "LINK";
      entry += styles ? ` ${attr.name}=${attr.value}` : ` ${attr.name}`;
    }
    if (node === document.activeElement) entry += " :focus";
    if (node === hovered) entry += " :hover";
    if (node instanceof HTMLInputElement || node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement) {
      const checkedNow = node instanceof HTMLInputElement && node.checked;
      entry += ` :${node.value === "" ? "empty" : "filled"}:${checkedNow}:${node.disabled}:${node.validity.valid}`;
      state.push(`${node.value}:${checkedNow}:${node.validity.valid}`);
    }
    look.push(`${entry}>`);
    for (const child of Array.from(node.childNodes)) walk(child);
    look.push("</>");
  };
  walk(document.documentElement);
  const appearance = `${state[0]}|${look.join("")}`;
  return {
    appearance: hash(appearance),
    document: hash(`${state.join("|")}|${appearance}|${document.documentElement.outerHTML}`),
  };
}

/**
 * Waits for toasts to finish appearing and for every finite CSS animation or transition to end:
 * axe measures colours as they are at that instant, and a toast caught half faded in fails
 * contrast. sonner loads lazily, so the toast a page shows (it names it: data-toast-expected) may not
 * be in the DOM yet: wait until it has been seen, fully opaque.
 */
/** Whether any violation's element is in a toast (axe names each element by a selector of the page). */
async function violationsInToasts(page: Page, violations: { nodes: { target: unknown[] }[] }[]): Promise<boolean> {
  const selectors = violations.flatMap((v) => v.nodes.map((n) => n.target)).filter((t) => t.length === 1);
  if (selectors.length === 0) return false;
  return page.evaluate(
    (list) => list.some((selector) => document.querySelector(String(selector))?.closest("[data-sonner-toast]")),
    selectors.map((t) => String(t[0])),
  );
}

async function settleAnimations(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const toasts = Array.from(document.querySelectorAll("[data-sonner-toast]")).filter(
      (toast) => toast.getAttribute("data-visible") !== "false" && toast.getAttribute("data-removed") !== "true",
    );
    // The page names the toast it shows (after a client navigation there is no <noscript> twin): wait
    // until sonner has mounted that one (it may have been dismissed again since: remember it was seen).
    const w = window as { __toastsSeen?: Set<string> };
    w.__toastsSeen ??= new Set();
    for (const toast of toasts) w.__toastsSeen.add(toast.getAttribute("data-testid") ?? "");
    const expected = Array.from(document.querySelectorAll<HTMLElement>("[data-toast-expected]")).map(
      (marker) => `toast-${marker.dataset.toastExpected}`,
    );
    // Without JavaScript the <noscript> twin is the toast: nothing to wait for.
    const scripting = !document.querySelector("noscript [role=status]");
    if (scripting && !expected.every((id) => w.__toastsSeen?.has(id))) return false;
    return toasts.every(
      (toast) => toast.getAttribute("data-mounted") === "true" && getComputedStyle(toast).opacity === "1",
    );
  });
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) =>
          Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Number.POSITIVE_INFINITY),
        )
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // A smooth scroll (the form's first error is scrolled to the centre) is not a Web Animation: wait until the page
  // has not moved for two frames, or axe measures targets half under the sticky header mid-scroll.
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = Number.NaN;
        let still = 0;
        let frames = 0;
        const tick = () => {
          const y = window.scrollY;
          still = y === last ? still + 1 : 0;
          last = y;
          frames += 1;
          // At most about two seconds: a page that keeps scrolling is axe's to judge as it stands.
          if (still >= 2 || frames > 120) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

/**
 * Waits until React has hydrated the document, so clicks go through the client router
 * (before that, a link click is an ordinary full page load).
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(hydratedNow);
}

/**
 * Waits until React owns this element: a section loaded after hydration (`afterHydration`, e.g. the member center's
 * coupon wallet) stays the server's HTML until its chunk arrives. React replays a click made before that, but on a
 * loaded machine the click then waited on the chunk and the lazy overlay behind it together (one CI flake: the
 * coupon's full screen not seen within 15 s); a test that is not about that path clicks once the section is live.
 */
export async function waitForHydratedElement(locator: Locator): Promise<void> {
  await expect
    .poll(() => locator.evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactProps$"))), {
      timeout: 15_000,
    })
    .toBe(true);
}

/** Whether React has hydrated the document now (no waiting): a page left as the server sent it is not. */
export function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(hydratedNow);
}

/** Runs in the page: the router is up and React owns the page's main element. */
function hydratedNow(): boolean {
  const router = (window as { __reactRouterDataRouter?: { state: { initialized: boolean } } }).__reactRouterDataRouter;
  const main = document.querySelector("main");
  return Boolean(router?.state.initialized && main && Object.keys(main).some((k) => k.startsWith("__reactProps$")));
}

/**
 * Opens a path, checks the HTTP status, waits for hydration and checks the page with axe.
 * Every test opens pages through this (or calls expectAccessible after a client-side navigation).
 */
export async function gotoAndCheck(page: Page, urlPath: string, { status = 200 } = {}): Promise<Response> {
  const response = await page.goto(urlPath);
  expect(response, `no response for ${urlPath}`).not.toBeNull();
  const res = response as Response;
  expect(res.status(), `status of ${urlPath}`).toBe(status);
  await waitForHydration(page);
  await expectAccessible(page);
  return res;
}

export type OutboxEntry = { to: string; subject: string | null; body: string };

/**
 * The newest message the development outbox (/dev/outbox) holds for a recipient, waiting until the
 * job queue has delivered it. Tests read one-time codes from here, as a member reads their phone.
 */
export async function latestOutboxMessage(
  page: Page,
  filter: { to: string; channel: "sms" | "email" },
  { timeout = 30_000 } = {},
): Promise<OutboxEntry> {
  const query = new URLSearchParams(filter).toString();
  const newest = page.getByTestId("outbox-message").first();
  await expect(async () => {
    await page.goto(`/dev/outbox?${query}`);
    await expect(newest).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout });
  const subject = newest.getByTestId("outbox-subject");
  return {
    to: (await newest.getByTestId("outbox-to").textContent()) ?? "",
    subject: (await subject.count()) ? await subject.textContent() : null,
    body: (await newest.getByTestId("outbox-body").textContent()) ?? "",
  };
}

/**
 * Pins "now" for the page and the server: the browser's clock (page.clock) and, through the
 * X-Test-Now header that only APP_ENV=test honours (app/lib/clock.server.ts), the server's.
 * `iso` is an instant with its offset, e.g. "2026-11-25T10:15:00+08:00" (Taipei).
 */
export async function pinClock(page: Page, iso: string): Promise<void> {
  await page.clock.setFixedTime(new Date(iso));
  await page.setExtraHTTPHeaders({ "x-test-now": iso });
}
