// The offline member card's speed (issue 36 item 4, ADR 043): `npm run bench:card`.
//   1. client JS of /member-center/card: every <script src> and modulepreload href, each file's bytes at gzip
//      level 9 (the budget, <= 60 kB) and as our server sends them to Chromium's Accept-Encoding (the
//      method of `npm run bench`, bench/run.js "client JS");
//   2. opening the card offline: Debian's Chromium with Lighthouse's mobile emulation (412×823 at 1.75×, 4× CPU
//      slowdown), the page visited once online (the service worker keeps it), then the network off and the page
//      reloaded N times: the time from navigation to the first QR code on screen (the page's `card-qr` mark).
// Uses build/ (npm run build) and the embedded database in a temporary DATA_DIR.
// Options: --runs N (default 7).
import { randomBytes } from "node:crypto";
import http from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { chromium } from "@playwright/test";
import { cookieHeader, testHooks } from "./member.js";
import { startBuiltServer } from "./process.js";

const { values: opts } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const RUNS = Number(opts.runs);
const BUDGET = { jsGzipBytes: 60_000, openMs: 1000 };
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

/** The bytes as sent on the wire (fetch would decode them). */
function rawGet(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "accept-encoding": BROWSER_ACCEPT_ENCODING } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk) => {
          bytes += chunk.length;
        });
        res.on("end", () => resolve({ bytes, encoding: res.headers["content-encoding"] ?? "identity" }));
      })
      .on("error", reject);
  });
}

const hooksSecret = randomBytes(24).toString("base64url");
const server = await startBuiltServer({ label: "card", env: { APP_ENV: "test", TEST_HOOKS_SECRET: hooksSecret } });
let browser;
try {
  const post = testHooks(server.url, hooksSecret);
  const { userId } = await post("/members", { phoneNumber: "+886955123457", name: "林雅婷" });
  const { setCookie } = await post("/sessions", { userId });
  const cookie = cookieHeader(setCookie);

  // 1. Client JS.
  const html = await (await fetch(`${server.url}/member-center/card`, { headers: { cookie } })).text();
  const srcs = [...html.matchAll(/<(?:script[^>]* src|link rel="modulepreload" href)="([^"]+)"/g)].map((m) => m[1]);
  const files = [];
  for (const src of new Set(srcs)) {
    const raw = Buffer.from(await (await fetch(`${server.url}${src}`)).arrayBuffer());
    const served = await rawGet(`${server.url}${src}`);
    files.push({
      src,
      raw: raw.length,
      gzip9: gzipSync(raw, { level: 9 }).length,
      served: served.bytes,
      encoding: served.encoding,
    });
  }
  const gzipTotal = files.reduce((sum, f) => sum + f.gzip9, 0);

  // 2. Opening offline.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
  });
  const url = new URL(server.url);
  await context.addCookies(
    setCookie.map((header) => {
      const [pair] = header.split(";");
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: url.hostname, path: "/" };
    }),
  );
  const page = await context.newPage();
  await page.goto(`${server.url}/member-center/card`);
  await page.waitForSelector("#card-qr[data-code]");
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller));
  await page.waitForSelector("#card-qr[data-code]");

  // No network at all: the server stops (the service worker's own fetches fail too), and the page's session says
  // offline (navigator.onLine false). Playwright's context.setOffline is not used: a CDP session attached for the
  // CPU slowdown turns its emulation off.
  server.child.kill("SIGTERM");
  await new Promise((resolve) => server.child.once("exit", resolve));
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: true,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const times = [];
  for (let i = 0; i < RUNS + 1; i++) {
    await page.reload({ waitUntil: "commit" });
    await page.waitForSelector("#card-qr[data-code] svg", { timeout: 30_000 });
    const ms = await page.evaluate(() => performance.getEntriesByName("card-qr")[0]?.startTime ?? Number.NaN);
    const fromCache = await page.evaluate(() => document.getElementById("card-status")?.textContent ?? "");
    const online = await page.evaluate(() => navigator.onLine);
    if (online || !fromCache)
      throw new Error(`the page did not open as offline (onLine ${online}, status "${fromCache}")`);
    if (i > 0) times.push(ms); // the first reload warms the throttled renderer
  }
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const load = os.loadavg().map((l) => l.toFixed(2));

  console.log("\nThe offline member card (/member-center/card)");
  console.log("client JS:");
  for (const f of files) {
    console.log(`  ${f.src}: ${f.raw} B raw, ${f.gzip9} B gzip 9, ${f.served} B served (${f.encoding})`);
  }
  console.log(
    `  total ${(gzipTotal / 1000).toFixed(1)} kB gzip (budget ${BUDGET.jsGzipBytes / 1000} kB): ${gzipTotal <= BUDGET.jsGzipBytes ? "PASS" : "FAIL"}`,
  );
  console.log(
    `opening offline, 4× CPU slowdown, mobile emulation, ${RUNS} runs: navigation → QR on screen median ${median.toFixed(0)} ms (min ${times[0].toFixed(0)}, max ${times[times.length - 1].toFixed(0)}; budget ${BUDGET.openMs} ms): ${median <= BUDGET.openMs ? "PASS" : "FAIL"}`,
  );
  console.log(`load average ${load.join(" ")} (${os.availableParallelism()} cores)`);
} finally {
  await browser?.close();
  server.child.kill("SIGTERM");
}
