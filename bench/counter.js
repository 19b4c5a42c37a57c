// `npm run bench:counter`: the staff counter's two figures (issue 13, ADR 022), on PostgreSQL.
//
//   1. scan-to-summary: a scanned member-card token posted to /admin/counter (the lookup) and the member summary it
//      redirects to, as the clerk's browser does it: the two requests' time, measured at the client on the same
//      machine (so it is server time plus loopback), median and p95 over --rounds scans with a fresh token each.
//      Target: median <= 50 ms. For scale, the console home /admin (the same middleware, session and shell, no
//      member work) is measured interleaved in the same run; the ratio is printed beside it.
//   2. client JS of /admin/counter before the camera starts, for the logged-in demo clerk: every <script src>,
//      modulepreload href and import of the inline module script, plus their static imports, gzip level 9 each,
//      summed (the method of bench/run.js). Target: <= 160 kB. The scanner library (loaded by import() when the
//      camera opens) must not be among them.
//
//   - PostgreSQL: BENCH_PG_URL, an admin connection URL (default postgres://postgres@127.0.0.1:5432/postgres). A
//     fresh database is created there and dropped.
//   - The app: `node server.js` (build/ must exist: `npm run build`), NODE_ENV=production, APP_ENV=development, so
//     the demo member (a year of history) and the demo clerk of 信義旗艦店 exist (README); the bench logs in as
//     both over HTTP (the clerk with password and the TOTP code computed from the demo secret) and takes each
//     fresh card token from /member-center/card-token, as the member's phone does.
//
// Prints a table and writes bench/results/counter.json. Exit code 1 only when the bench itself broke.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { consoleLogin, memberLogin, pageScripts, post, startDemoApp } from "./demo-app.js";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({ options: { rounds: { type: "string", default: "60" } } });
const ROUNDS = Number(opts.rounds);
const WARMUP = 10;
const TARGETS = { scanToSummaryMs: 50, counterJsGzipBytes: 160_000 };
const log = (...args) => console.error("[bench:counter]", ...args);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

async function timed(run) {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

async function scanToSummary(url, { memberCookie, consoleCookie }) {
  const scans = [];
  const homes = [];
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    const tokenRes = await fetch(`${url}/member-center/card-token`, { headers: { cookie: memberCookie } });
    const { token } = await tokenRes.json();
    const scan = await timed(async () => {
      const lookup = await post(url, "/admin/counter?index", { cardToken: token }, consoleCookie);
      const location = lookup.headers.get("location");
      if (lookup.status !== 302 || !location?.startsWith("/admin/counter/member/")) {
        throw new Error(`the lookup answered ${lookup.status} ${location}`);
      }
      const summary = await fetch(`${url}${location}`, { headers: { cookie: consoleCookie } });
      if (summary.status !== 200) throw new Error(`the summary answered ${summary.status}`);
      await summary.text();
    });
    const home = await timed(async () => {
      const res = await fetch(`${url}/admin`, { headers: { cookie: consoleCookie } });
      if (res.status !== 200) throw new Error(`/admin answered ${res.status}`);
      await res.text();
    });
    if (i >= WARMUP) {
      scans.push(scan);
      homes.push(home);
    }
  }
  return {
    rounds: ROUNDS,
    medianMs: median(scans),
    p95Ms: p95(scans),
    consoleHomeMedianMs: median(homes),
    ratioToConsoleHome: median(scans) / median(homes),
  };
}

let app = null;
let broke = false;
const results = { startedAt: new Date().toISOString(), loadavg: os.loadavg(), targets: TARGETS };
try {
  app = await startDemoApp("counter");
  const cookies = { memberCookie: await memberLogin(app.url), consoleCookie: await consoleLogin(app.url, "clerk") };
  log("measuring /admin/counter client JS…");
  const js = await pageScripts(app.url, "/admin/counter", cookies.consoleCookie);
  results.counterJs = {
    ...js,
    scannerLoaded: js.files.some((f) => /qr-scanner/.test(f.file)),
    pass: js.totalGzip <= TARGETS.counterJsGzipBytes && !js.files.some((f) => /qr-scanner/.test(f.file)),
  };
  log(`measuring scan-to-summary, ${ROUNDS} scans…`);
  results.scanToSummary = await scanToSummary(app.url, cookies);
  results.scanToSummary.pass = results.scanToSummary.medianMs <= TARGETS.scanToSummaryMs;
} catch (error) {
  broke = true;
  console.error(`bench:counter broke: ${error?.stack ?? error}`);
} finally {
  await app?.stop();
}
results.loadavgAtEnd = os.loadavg();
mkdirSync(path.join(root, "bench", "results"), { recursive: true });
writeFileSync(path.join(root, "bench", "results", "counter.json"), `${JSON.stringify(results, null, 2)}\n`);
const row = (name, value, target, pass) =>
  console.log(`${name.padEnd(44)} ${value.padStart(14)}  ${target.padStart(10)}  ${pass ? "PASS" : "FAIL"}`);
console.log(
  `\nload average ${os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}`,
);
if (results.counterJs) {
  row(
    "/admin/counter JS before the camera (gzip)",
    `${(results.counterJs.totalGzip / 1000).toFixed(1)} kB`,
    "<= 160 kB",
    results.counterJs.pass,
  );
}
if (results.scanToSummary) {
  const s = results.scanToSummary;
  row("scan-to-summary (median)", `${s.medianMs.toFixed(1)} ms`, "<= 50 ms", s.pass);
  console.log(
    `  p95 ${s.p95Ms.toFixed(1)} ms; console home /admin median ${s.consoleHomeMedianMs.toFixed(1)} ms (ratio ${s.ratioToConsoleHome.toFixed(2)})`,
  );
}
process.exit(broke ? 1 : 0);
