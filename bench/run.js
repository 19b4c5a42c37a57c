// `npm run bench`: the performance figures of the issue, in one run.
//   1. requests/s of `/` (target >= 0.8), `/our-store` and `/material-detail/:id` (target >= 0.6) against a minimal
//      React Router page on the same Express stack (ratio)
//   2. client JS a browser downloads before interaction, per public and member page, as served to a browser's
//      Accept-Encoding (<= 120 kB each), beside the same files at gzip level 9
//   3. Lighthouse (mobile preset, Debian Chromium): performance and accessibility of `/`, `/our-store`, a store and a
//      material detail (target >= 95 each)
//   4. cold start on PostgreSQL: spawn of `node server.js` to the first 200 from /readyz (target <= 1.5 s)
//   5. issue 36: the logged-in member center against its own markup rendered from a static loader
//      (bench/serve-static-member.js; what the session, the data and the caches add <= 10 %) and against the minimal
//      page (>= 0.3), embedded database and PostgreSQL, all four servers in the same interleaved rounds
// Prints a table and writes bench/results/latest.json. PASS/FAIL never changes the exit code: it is 1 only when
// the bench itself broke (a server did not start, a build failed, a request errored).
//
// Options: --verbose (-v)  list every JS file with its raw and gzip size
//          --rounds N      load rounds per server (default 3)     --duration S   seconds per round (default 5)
//          --connections N (default 10)                          --warmup S     seconds of warm-up per server (default 2)
//          --build         rebuild build/ even when it exists     --only rps,static,js,lighthouse,cold   run only these
//                          sections (`member`: only the logged-in member center, embedded and PostgreSQL, of the rps
//                          section, and `static`; `static`: only section 5)
//          --app-dir DIR   measure the server.js and build/ of another checkout (a "before" build)
//          --log-level L   LOG_LEVEL for our server during the load rounds (default info, as in production)
//          --lighthouse-runs N  Lighthouse runs per page, the median run counts (default 3, as Lighthouse advises)
// Environment: BENCH_PG_URL  admin connection for the cold-start databases (default postgres://postgres@127.0.0.1:5432/postgres)
//              CHROMIUM_PATH  the browser Lighthouse drives (default /usr/bin/chromium)
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import postgres from "postgres";
import { benchMemberCookie, MEMBER_HISTORY, testHooks } from "./member.js";
import { freePort, processCpuMs } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const benchDir = path.join(root, "bench");
const resultsFile = path.join(benchDir, "results", "latest.json");

const { values: opts } = parseArgs({
  options: {
    verbose: { type: "boolean", short: "v", default: false },
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    build: { type: "boolean", default: false },
    only: { type: "string", default: "rps,static,js,lighthouse,cold" },
    "log-level": { type: "string", default: "info" },
    "lighthouse-runs": { type: "string", default: "3" },
    "app-dir": { type: "string" },
  },
});
/** The checkout whose `server.js` and `build/` are measured (--app-dir: another one, e.g. a "before" build). */
const appRoot = opts["app-dir"] ? path.resolve(opts["app-dir"]) : root;
const config = {
  rounds: positiveInt(opts.rounds, "--rounds"),
  durationSec: positiveInt(opts.duration, "--duration"),
  connections: positiveInt(opts.connections, "--connections"),
  warmupSec: Number(opts.warmup) >= 0 ? Number(opts.warmup) : 2,
  logLevel: opts["log-level"],
  lighthouseRuns: positiveInt(opts["lighthouse-runs"], "--lighthouse-runs"),
  sections: opts.only.split(",").map((s) => s.trim()),
};
const unknownSections = config.sections.filter(
  (s) => !["rps", "member", "static", "js", "lighthouse", "cold"].includes(s),
);
if (unknownSections.length > 0) {
  console.error(`--only takes rps, member, static, js, lighthouse and cold; unknown: ${unknownSections.join(", ")}`);
  process.exit(2);
}
const verbose = opts.verbose;

/** What Chromium sends over HTTPS (and to localhost). */
const BROWSER_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

const TARGETS = {
  rpsRatio: 0.8,
  rpsRatioCatalogue: 0.6,
  // Issue 17: the logged-in member center, embedded database and PostgreSQL.
  rpsRatioMember: 0.35,
  rpsRatioMemberPostgres: 0.5,
  // Issue 17: every public and member page (was 125 kB), as a browser downloads it.
  jsBytes: 120_000,
  liffGzipBytes: 25_000,
  coldStartMs: 1500,
  /** Issue 17: a restart on a database that is already migrated. */
  restartMs: 1000,
  lighthouse: 95,
  // Issue 17: the logged-in member center, performance (accessibility stays at `lighthouse`).
  lighthouseMember: 97,
  // Issue 17: a public page rendered on every request (the instance with RENDER_CACHE_MS=0) vs the minimal page.
  rpsRatioUncached: 0.35,
  // Issue 36: what the session, the data and the caches add to the member center's own markup rendered from a
  // static loader (time per request, from req/s: static ÷ real − 1), and the member center vs the minimal page.
  memberOverStatic: 0.1,
  rpsRatioMemberIssue36: 0.3,
};
/**
 * The logged-in page: /member-center for a member with a realistic history (200 ledger entries, 10
 * coupons), served by a second instance of our server with APP_ENV=test, whose test hooks create the
 * member, book the history through the loyalty engine and start a session (its cookie is sent with
 * every request). Same build, same embedded database kind, same settings otherwise.
 */
const MEMBER_PAGE = "/member-center";
/** The member's account pages, measured for client JS with the same member's cookie (same budget). */
const MEMBER_ACCOUNT_PAGES = [
  "/member-center/edit-info",
  "/member-center/security",
  "/member-center/privacy",
  "/member-center/delete-account",
  "/member-center/confirm-identity",
  "/member-center/change-phone",
  "/member-center/linked-logins",
  "/member-center/points",
];
/** Set once the member server is up: { server, headers: { cookie } }. */
let member = null;
/** The same on PostgreSQL (a fresh database on BENCH_PG_URL's server); null when PostgreSQL is not reachable. */
let memberPg = null;
/** The member center from a static loader (bench/serve-static-member.js): { server, headers: { cookie } }. */
let memberStatic = null;
/** The app with its render cache off: "rendered on every request" (set in the run below). */
let oursUncached = null;
const STORE_PAGE = "/store-detail/xinyi-flagship";
const MATERIAL_PAGE = "/material-detail/hualien-white-marble";
/** Pages whose requests/s are compared with the minimal page, each with its target ratio. */
const RPS_PAGES = [
  { path: "/", target: TARGETS.rpsRatio },
  { path: "/our-store", target: TARGETS.rpsRatioCatalogue },
  { path: MATERIAL_PAGE, target: TARGETS.rpsRatioCatalogue },
];
const JS_PAGES = [
  "/",
  "/our-store",
  STORE_PAGE,
  "/materials",
  MATERIAL_PAGE,
  "/member-login",
  "/signup/phone-verification",
];
/** Public pages measured again on the member server, where the store shows an uploaded 12 MP photo first. */
const UPLOADED_PHOTO_PAGES = ["/our-store", STORE_PAGE];
const UPLOADED = "(uploaded photo)";
const LIGHTHOUSE_PAGES = [
  "/",
  "/our-store",
  STORE_PAGE,
  MATERIAL_PAGE,
  MEMBER_PAGE,
  ...UPLOADED_PHOTO_PAGES.map((page) => `${page} ${UPLOADED}`),
];
const COLD_RUNS = 3;
const POLL_MS = 20;

const started = performance.now();
const tmpRoot = mkdtempSync(path.join(os.tmpdir(), "bench-"));
const children = new Set();
const cleanups = [];
let broke = false;

const results = {
  startedAt: new Date().toISOString(),
  node: process.version,
  machine: { cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model ?? "unknown", loadavg: os.loadavg() },
  git: gitInfo(),
  config,
  targets: TARGETS,
  build: null,
  rps: null,
  clientJs: null,
  lighthouse: null,
  coldStart: null,
  memberStatic: null,
};

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, async () => {
    console.error(`\n${signal}: stopping servers`);
    for (const child of children) child.kill("SIGKILL");
    await runCleanups();
    process.exit(130);
  });
}

try {
  results.build = appRoot === root ? ensureAppBuild() : { built: false, stale: false, appDir: appRoot };
  let baseline = null;
  let ours = null;
  try {
    if (wants("rps") || wants("member") || wants("static") || wants("js") || wants("lighthouse")) {
      const minimalBuild = buildMinimal();
      baseline = await startServer({
        name: "minimal",
        args: [path.join(benchDir, "serve-minimal.js"), minimalBuild],
        env: { NODE_ENV: "production" },
        readyPath: "/",
      });
      if (wants("rps") || wants("js") || wants("lighthouse")) {
        ours = await startServer({
          name: "ours",
          args: [path.join(appRoot, "server.js")],
          env: {
            NODE_ENV: "production",
            DATA_DIR: mkdtempSync(path.join(tmpRoot, "data-")),
            LOG_LEVEL: config.logLevel,
          },
          readyPath: "/readyz",
        });
        // The bench's own switch for "rendered on every request": an instance with the render cache off
        // (RENDER_CACHE_MS=0). A client's Cache-Control: no-cache no longer bypasses the cache (issue 17).
        oursUncached = await startServer({
          name: "ours-uncached",
          args: [path.join(appRoot, "server.js")],
          env: {
            NODE_ENV: "production",
            DATA_DIR: mkdtempSync(path.join(tmpRoot, "data-")),
            LOG_LEVEL: config.logLevel,
            RENDER_CACHE_MS: "0",
          },
          readyPath: "/readyz",
        });
      }
      member = await startMemberServer();
      if (wants("rps") || wants("member") || wants("static")) memberPg = await startMemberServerOnPostgres();
      if (wants("member") || wants("static")) memberStatic = await startMemberServer(undefined, { static: true });
    }
    if (wants("rps") || wants("member")) results.rps = await section("requests/s", () => benchRps(baseline, ours));
    if (wants("member") || wants("static"))
      results.memberStatic = await section("member center vs static markup", () => benchMemberStatic(baseline));
    if (wants("js")) results.clientJs = await section("client JS", () => benchClientJs(baseline, ours));
    if (wants("lighthouse")) results.lighthouse = await section("lighthouse", () => benchLighthouse(ours));
  } finally {
    await stopServer(baseline);
    await stopServer(ours);
    await stopServer(oursUncached);
    await stopServer(member?.server);
    await stopServer(memberPg?.server);
    await stopServer(memberStatic?.server);
  }
  if (wants("cold")) results.coldStart = await section("cold start", benchColdStart);
} catch (error) {
  broke = true;
  console.error(`\nbench broke: ${error?.stack ?? error}`);
} finally {
  await runCleanups();
}

results.elapsedSec = round((performance.now() - started) / 1000, 1);
results.machine.loadavgAtEnd = os.loadavg();
mkdirSync(path.dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
printTable();
console.log(`\nwrote ${path.relative(process.cwd(), resultsFile)} in ${results.elapsedSec} s`);
process.exit(broke ? 1 : 0);

// ---------------------------------------------------------------------------------------------------------------
// 1. Requests per second against the minimal baseline
// ---------------------------------------------------------------------------------------------------------------

async function benchRps(baseline, ours) {
  const pages = {};
  if (wants("rps")) {
    for (const { path: pagePath, target } of RPS_PAGES) {
      pages[pagePath] = await benchRpsPage(baseline, ours, pagePath, target);
    }
  }
  pages[`${MEMBER_PAGE} (logged in, embedded)`] = await benchRpsPage(
    baseline,
    member.server,
    MEMBER_PAGE,
    TARGETS.rpsRatioMember,
    member.headers,
  );
  if (memberPg) {
    pages[`${MEMBER_PAGE} (logged in, PostgreSQL)`] = await benchRpsPage(
      baseline,
      memberPg.server,
      MEMBER_PAGE,
      TARGETS.rpsRatioMemberPostgres,
      memberPg.headers,
    );
  }
  const first = Object.values(pages)[0];
  return {
    method: `autocannon, ${config.connections} connections, ${config.durationSec} s per round, ${config.rounds} rounds per server alternating, accept-encoding: gzip; the minimal server always answers its one page /`,
    ourLogLevel: config.logLevel,
    pages,
    // The figures of `/`, kept at the top level as before.
    ratio: first.ratio,
    pass: Object.values(pages).every((p) => p.pass),
  };
}

async function benchRpsPage(baseline, ours, pagePath, target, oursHeaders = {}) {
  const servers = { baseline, ours };
  const paths = { baseline: "/", ours: pagePath };
  const headers = { baseline: {}, ours: oursHeaders };
  const html = {};
  for (const [key, server] of Object.entries(servers)) {
    const res = await rawGet(`${server.url}${paths[key]}`, { "accept-encoding": "gzip", ...headers[key] });
    if (res.status !== 200)
      throw new Error(`${server.name}: GET ${paths[key]} answered ${res.status}\n${server.logTail()}`);
    if (res.headers["content-encoding"] !== "gzip") {
      throw new Error(
        `${server.name}: GET ${paths[key]} is not gzipped (content-encoding: ${res.headers["content-encoding"]})`,
      );
    }
    html[key] = { gzipBytes: res.body.length };
  }

  log(`${pagePath}: warming up ${config.warmupSec} s each…`);
  if (config.warmupSec > 0) {
    for (const [key, server] of Object.entries(servers)) await load(server, config.warmupSec, paths[key], headers[key]);
  }

  const rounds = [];
  for (let i = 0; i < config.rounds; i++) {
    // Alternate which server goes first so a drift in machine load hits both sides alike.
    const order = i % 2 === 0 ? ["baseline", "ours"] : ["ours", "baseline"];
    const round = { round: i + 1, order: order.join(" then ") };
    for (const key of order) {
      const r = await load(servers[key], config.durationSec, paths[key], headers[key]);
      round[key] = r;
    }
    round.ratio = round.ours.rps / round.baseline.rps;
    rounds.push(round);
    log(
      `${pagePath} round ${i + 1}/${config.rounds}: minimal ${fmt(round.baseline.rps, 0)} req/s, ours ${fmt(round.ours.rps, 0)} req/s, ratio ${fmt(round.ratio, 3)}`,
    );
  }

  const ratio = median(rounds.map((r) => r.ratio));
  const cpuKnown = rounds.every((r) => r.ours.cpuMsPerRequest && r.baseline.cpuMsPerRequest);
  // For reference: every request rendered (the render cache bypassed, as on a hard reload).
  // Logged-in pages are never render-cached; public ones are measured on the instance without the cache.
  const loggedIn = ours === member?.server || ours === memberPg?.server;
  const uncachedServer = loggedIn ? ours : (oursUncached ?? ours);
  // The instance without the render cache is warmed up on the page too (it was measured cold before
  // 2026-11-27, which cost the first page a round of JIT compilation), and measured in as many rounds,
  // alternating with the minimal page; the medians count.
  if (uncachedServer !== ours && config.warmupSec > 0)
    await load(uncachedServer, config.warmupSec, pagePath, oursHeaders);
  // A logged-in page is never render-cached: its rounds above are already "rendered every time".
  const uncachedRounds = loggedIn ? rounds : [];
  for (let i = 0; !loggedIn && i < config.rounds; i++) {
    const order = i % 2 === 0 ? ["baseline", "ours"] : ["ours", "baseline"];
    const round = {};
    for (const key of order) {
      round[key] =
        key === "ours"
          ? await load(uncachedServer, config.durationSec, pagePath, oursHeaders)
          : await load(baseline, config.durationSec, "/");
    }
    round.ratio = round.ours.rps / round.baseline.rps;
    uncachedRounds.push(round);
    log(
      `${pagePath} rendered every time (render cache off: RENDER_CACHE_MS=0) round ${i + 1}/${config.rounds}: ${fmt(round.ours.rps, 0)} req/s (${fmt(round.ours.cpuMsPerRequest, 2)} ms CPU/req) vs minimal ${fmt(round.baseline.rps, 0)}, ratio ${fmt(round.ratio, 3)}`,
    );
  }
  const uncached = {
    rps: median(uncachedRounds.map((r) => r.ours.rps)),
    cpuMsPerRequest: uncachedRounds.every((r) => r.ours.cpuMsPerRequest)
      ? median(uncachedRounds.map((r) => r.ours.cpuMsPerRequest))
      : null,
  };
  const uncachedRatio = median(uncachedRounds.map((r) => r.ratio));
  return {
    path: pagePath,
    renderedEveryTime: {
      rps: uncached.rps,
      baselineRps: median(uncachedRounds.map((r) => r.baseline.rps)),
      ratio: uncachedRatio,
      rounds: uncachedRounds.map((r) => ({ ours: r.ours, baseline: r.baseline, ratio: r.ratio })),
      // A target for public pages only (a logged-in page is always rendered; its figure is the one above).
      target: ours === member?.server ? null : TARGETS.rpsRatioUncached,
      cpuMsPerRequest: uncached.cpuMsPerRequest,
    },
    htmlGzipBytes: { baseline: html.baseline.gzipBytes, ours: html.ours.gzipBytes },
    rounds,
    baselineMedianRps: median(rounds.map((r) => r.baseline.rps)),
    oursMedianRps: median(rounds.map((r) => r.ours.rps)),
    cpuMsPerRequest: cpuKnown
      ? {
          baseline: median(rounds.map((r) => r.baseline.cpuMsPerRequest)),
          ours: median(rounds.map((r) => r.ours.cpuMsPerRequest)),
          // What the req/s ratio tends to on an idle machine, where both servers are CPU-bound.
          ratio: median(rounds.map((r) => r.baseline.cpuMsPerRequest / r.ours.cpuMsPerRequest)),
        }
      : null,
    ratio,
    target,
    pass: ratio >= target,
  };
}

async function load(server, durationSec, pagePath = "/", extraHeaders = {}) {
  const cpuBefore = processCpuMs(server.child.pid);
  const r = await autocannon({
    url: `${server.url}${pagePath}`,
    connections: config.connections,
    duration: durationSec,
    headers: { "accept-encoding": "gzip", ...extraHeaders },
  });
  const failed = r.errors + r.timeouts + r.non2xx;
  if (failed > 0) {
    throw new Error(
      `${server.name}: ${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx answers under load\n${server.logTail()}`,
    );
  }
  const cpuAfter = processCpuMs(server.child.pid);
  return {
    rps: r.requests.total / r.duration,
    requests: r.requests.total,
    seconds: r.duration,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99 },
    // Server CPU time per request: unlike req/s it barely moves when other processes compete for the cores.
    cpuMsPerRequest: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / r.requests.total,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 5. Issue 36: the member center against its own markup from a static loader, and against the minimal page
// ---------------------------------------------------------------------------------------------------------------

/**
 * Four servers in the same rounds, each round in a rotated order so a drift in the machine's load hits all alike:
 * the minimal page, the member center from a static loader (bench/serve-static-member.js), and the real member
 * center on the embedded database and on PostgreSQL, all with the member's cookie. Per round: the real page's time
 * per request over the static one's (static req/s ÷ real req/s − 1: what the session, the data and the caches
 * add), the same from the server's CPU per request (the Node process only: PostgreSQL's own work is not in it), and
 * the real page's req/s over the minimal page's. Medians of the rounds count.
 */
async function benchMemberStatic(baseline) {
  const servers = [
    { key: "minimal", server: baseline, path: "/", headers: {} },
    { key: "static", server: memberStatic.server, path: MEMBER_PAGE, headers: memberStatic.headers },
    { key: "embedded", server: member.server, path: MEMBER_PAGE, headers: member.headers },
    ...(memberPg ? [{ key: "postgres", server: memberPg.server, path: MEMBER_PAGE, headers: memberPg.headers }] : []),
  ];
  const htmlGzipBytes = {};
  for (const s of servers) {
    const res = await rawGet(`${s.server.url}${s.path}`, { "accept-encoding": "gzip", ...s.headers });
    if (res.status !== 200) throw new Error(`${s.server.name}: GET ${s.path} answered ${res.status}`);
    htmlGzipBytes[s.key] = res.body.length;
  }
  log(`member center vs its static markup: warming up ${config.warmupSec} s each…`);
  if (config.warmupSec > 0) for (const s of servers) await load(s.server, config.warmupSec, s.path, s.headers);
  const reals = servers.filter((s) => s.key === "embedded" || s.key === "postgres").map((s) => s.key);
  const rounds = [];
  for (let i = 0; i < config.rounds; i++) {
    const order = servers.map((_, j) => servers[(i + j) % servers.length]);
    const round = { round: i + 1, order: order.map((s) => s.key).join(" then ") };
    for (const s of order) round[s.key] = await load(s.server, config.durationSec, s.path, s.headers);
    for (const key of reals) {
      round[`${key}Overhead`] = round.static.rps / round[key].rps - 1;
      round[`${key}CpuOverhead`] =
        round[key].cpuMsPerRequest && round.static.cpuMsPerRequest
          ? round[key].cpuMsPerRequest / round.static.cpuMsPerRequest - 1
          : null;
      round[`${key}VsMinimal`] = round[key].rps / round.minimal.rps;
    }
    round.staticVsMinimal = round.static.rps / round.minimal.rps;
    rounds.push(round);
    log(
      `member center vs static round ${i + 1}/${config.rounds}: ${servers.map((s) => `${s.key} ${fmt(round[s.key].rps, 0)} req/s`).join(", ")}`,
    );
  }
  const figures = {};
  for (const key of reals) {
    const overhead = median(rounds.map((r) => r[`${key}Overhead`]));
    const cpu = rounds.map((r) => r[`${key}CpuOverhead`]);
    const vsMinimal = median(rounds.map((r) => r[`${key}VsMinimal`]));
    figures[key] = {
      overhead,
      overheadTarget: TARGETS.memberOverStatic,
      overheadPass: overhead <= TARGETS.memberOverStatic,
      cpuOverhead: cpu.every((x) => x !== null) ? median(cpu) : null,
      rps: median(rounds.map((r) => r[key].rps)),
      cpuMsPerRequest: median(rounds.map((r) => r[key].cpuMsPerRequest ?? 0)),
      vsMinimal,
      vsMinimalTarget: TARGETS.rpsRatioMemberIssue36,
      vsMinimalPass: vsMinimal >= TARGETS.rpsRatioMemberIssue36,
    };
  }
  const side = (key) => ({
    rps: median(rounds.map((r) => r[key].rps)),
    cpuMsPerRequest: median(rounds.map((r) => r[key].cpuMsPerRequest ?? 0)),
  });
  return {
    method: `autocannon, ${config.connections} connections, ${config.durationSec} s per round, ${config.rounds} rounds, the four servers in a rotated order each round, accept-encoding: gzip, the member's cookie on every member-center request; overhead = static req/s ÷ real req/s − 1 (time per request), median of the rounds`,
    htmlGzipBytes,
    minimal: side("minimal"),
    static: { ...side("static"), vsMinimal: median(rounds.map((r) => r.staticVsMinimal)) },
    figures,
    rounds,
    pass: Object.values(figures).every((f) => f.overheadPass && f.vsMinimalPass),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Client JS downloaded before interaction
// ---------------------------------------------------------------------------------------------------------------

async function benchClientJs(baseline, ours) {
  const pages = {};
  for (const page of JS_PAGES) {
    const js = await pageScripts(ours, page);
    pages[page] = { ...js, target: TARGETS.jsBytes, pass: js.totalServed <= TARGETS.jsBytes };
  }
  const memberJs = await pageScripts(member.server, MEMBER_PAGE, member.headers);
  pages[`${MEMBER_PAGE} (logged in)`] = {
    ...memberJs,
    target: TARGETS.jsBytes,
    pass: memberJs.totalServed <= TARGETS.jsBytes,
  };
  for (const page of UPLOADED_PHOTO_PAGES) {
    const js = await pageScripts(member.server, page);
    pages[`${page} ${UPLOADED}`] = { ...js, target: TARGETS.jsBytes, pass: js.totalServed <= TARGETS.jsBytes };
  }
  for (const page of MEMBER_ACCOUNT_PAGES) {
    const js = await pageScripts(member.server, page, member.headers);
    pages[`${page} (logged in)`] = { ...js, target: TARGETS.jsBytes, pass: js.totalServed <= TARGETS.jsBytes };
  }
  // For reference only: what React + React Router alone cost on the same toolchain.
  const floor = await pageScripts(baseline, "/");
  return {
    method: `script src + modulepreload href + imports of inline module scripts, then their static imports; each file's bytes as served with a browser's "accept-encoding: ${BROWSER_ACCEPT_ENCODING}" (the budget), and at gzip level 9 (for comparison with earlier runs), summed`,
    pages,
    liff: await liffChunk(ours, "/member-login"),
    minimalBaseline: { totalRaw: floor.totalRaw, totalGzip: floor.totalGzip, files: floor.files },
  };
}

async function pageScripts(server, page, headers = {}) {
  const origin = server.url;
  const res = await fetch(`${origin}${page}`, { headers, redirect: "manual", signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`${server.name}: GET ${page} answered ${res.status}\n${server.logTail()}`);
  const html = await res.text();
  const pageUrl = new URL(page, origin);

  const listed = new Set();
  for (const m of html.matchAll(/<script\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi)) listed.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const rel = /\brel\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1] ?? "";
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (href && rel.split(/\s+/).includes("modulepreload")) listed.add(href);
  }
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!/\btype\s*=\s*["']module["']/i.test(m[1])) continue;
    // React Router's inline module script imports the route modules and then import()s the entry: all of it runs
    // at load, so every specifier in it counts.
    for (const spec of moduleSpecifiers(m[2], { dynamic: true })) listed.add(spec);
  }

  const stylesheets = [];
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const tag = m[0];
    const rel = /\brel\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1] ?? "";
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (href && rel.split(/\s+/).includes("stylesheet")) stylesheets.push(new URL(href, pageUrl).href);
  }

  // Fetch each file and follow its static imports: a browser downloads those before the module runs, so a
  // file reached only that way (missing from the modulepreload list) still counts, and is flagged.
  const queue = [...listed].map((href) => ({ url: new URL(href, pageUrl).href, via: "html" }));
  const seen = new Map();
  while (queue.length > 0) {
    const { url, via } = queue.shift();
    if (seen.has(url)) continue;
    const body = await fetchBytes(url);
    const served = await servedSize(url);
    const file = {
      path: new URL(url).pathname,
      via,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
      served: served.bytes,
      encoding: served.encoding,
    };
    seen.set(url, file);
    for (const spec of moduleSpecifiers(body.toString("utf8"), { dynamic: false })) {
      const next = new URL(spec, url).href;
      if (!seen.has(next)) queue.push({ url: next, via: `import from ${file.path}` });
    }
  }
  const files = [...seen.values()].sort((a, b) => b.gzip - a.gzip);

  const css = [];
  for (const url of stylesheets) {
    const body = await fetchBytes(url);
    css.push({ path: new URL(url).pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
  }

  return {
    totalRaw: sum(files.map((f) => f.raw)),
    totalGzip: sum(files.map((f) => f.gzip)),
    totalServed: sum(files.map((f) => f.served)),
    encodings: [...new Set(files.map((f) => f.encoding))],
    fileCount: files.length,
    notPreloaded: files.filter((f) => f.via !== "html").map((f) => f.path),
    files,
    cssGzip: sum(css.map((c) => c.gzip)),
    css,
  };
}

/**
 * Inside the LINE app, entry.client import()s the LIFF chunk (app/adapters/liff.client.ts) before hydrating: what that
 * adds to a page (the chunk and its static imports the page does not already load), and a check that the page's own
 * JS holds no LIFF code (visitors outside LINE download none).
 */
async function liffChunk(server, page) {
  const js = await pageScripts(server, page);
  const pageUrl = new URL(page, server.url);
  const loaded = new Set(js.files.map((f) => f.path));
  const entry = js.files.find((f) => /entry\.client/.test(f.path));
  if (!entry) throw new Error(`${page}: no entry.client chunk found`);
  const entryUrl = new URL(entry.path, pageUrl).href;
  const entryBody = (await fetchBytes(entryUrl)).toString("utf8");
  // The bundler writes this import() with a template literal.
  const spec = /import\(\s*[`"']([^`"']*liff\.client[^`"']*)[`"']\s*\)/.exec(entryBody)?.[1];
  if (!spec) throw new Error("entry.client has no dynamic import of the LIFF chunk");
  const liffUrl = new URL(spec, entryUrl).href;
  const { files, bodies } = await staticClosure(liffUrl, loaded);
  const totalGzip = sum(files.map((f) => f.gzip));
  const liffInPage = js.files.some((f) => /liff/i.test(f.path));
  // LINE's features (share, home-screen shortcut, send; ADR 035): a chunk the LIFF chunk import()s only on the
  // pages that offer one (store, material, member center), after the page is up. Reported, not budgeted.
  const featuresSpec = /import\(\s*[`"']([^`"']*liff-features[^`"']*)[`"']\s*\)/.exec(bodies.get(liffUrl) ?? "")?.[1];
  const features = featuresSpec
    ? await staticClosure(new URL(featuresSpec, liffUrl).href, new Set([...loaded, ...files.map((f) => f.path)]))
    : null;
  return {
    page,
    method: "the import()ed liff.client chunk plus its static imports not already loaded by the page; gzip level 9",
    totalGzip,
    totalRaw: sum(files.map((f) => f.raw)),
    files,
    target: TARGETS.liffGzipBytes,
    pageLoadsLiff: liffInPage,
    pass: totalGzip <= TARGETS.liffGzipBytes && !liffInPage,
    features: features && { totalGzip: sum(features.files.map((f) => f.gzip)), files: features.files },
  };
}

/** A module and its static imports, minus the paths in `loaded`: each file's size raw and gzipped (level 9). */
async function staticClosure(start, loaded) {
  const queue = [start];
  const files = [];
  const bodies = new Map();
  const seen = new Set();
  while (queue.length > 0) {
    const url = queue.shift();
    const path = new URL(url).pathname;
    if (seen.has(url) || loaded.has(path)) continue;
    seen.add(url);
    const body = await fetchBytes(url);
    bodies.set(url, body.toString("utf8"));
    files.push({ path, raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    for (const next of moduleSpecifiers(body.toString("utf8"), { dynamic: false })) queue.push(new URL(next, url).href);
  }
  return { files, bodies };
}

/** Import specifiers of an ES module: static `import … from "x"`, `import "x"`, `export … from "x"`, and optionally `import("x")`. */
function moduleSpecifiers(code, { dynamic }) {
  const specs = [];
  const staticRe = /(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w$*{},\s]+?\s*from\s*)?["']([^"'\n]+)["']/g;
  for (const m of code.matchAll(staticRe)) specs.push(m[1]);
  if (dynamic) for (const m of code.matchAll(/\bimport\(\s*["']([^"'\n]+)["']\s*\)/g)) specs.push(m[1]);
  return specs.filter((s) => s.startsWith("/") || s.startsWith("./") || s.startsWith("../") || /^https?:/.test(s));
}

/** The bytes a browser receives for `url` (the body as sent, before any decoding) and their Content-Encoding. */
async function servedSize(url) {
  const res = await rawGet(url, { "accept-encoding": BROWSER_ACCEPT_ENCODING });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return { bytes: res.body.length, encoding: res.headers["content-encoding"] ?? "identity" };
}

async function fetchBytes(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Lighthouse (mobile preset) on Debian's Chromium
// ---------------------------------------------------------------------------------------------------------------

async function benchLighthouse(ours) {
  const executablePath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!existsSync(executablePath)) {
    const reason = `no Chromium at ${executablePath} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
    log(`lighthouse skipped: ${reason}`);
    return { skipped: true, reason };
  }
  const { default: lighthouse } = await import("lighthouse");
  const chromeLauncher = await import("chrome-launcher");
  const chrome = await chromeLauncher.launch({
    chromePath: executablePath,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    logLevel: "silent",
  });
  cleanups.push(() => chrome.kill());
  const pages = {};
  // Mobile is Lighthouse's default preset: a mid-range phone, simulated slow 4G and 4x CPU slowdown.
  const lighthouseRun = async (url, extraHeaders) => {
    const result = await lighthouse(url, {
      port: chrome.port,
      ...(extraHeaders ? { extraHeaders } : {}),
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
    });
    if (!result?.lhr) throw new Error(`lighthouse returned nothing for ${url}`);
    return result.lhr;
  };
  try {
    // A first run in a fresh browser is the one most likely to miss its trace: run one and discard it.
    await lighthouseRun(`${ours.url}/`);
    for (const page of LIGHTHOUSE_PAGES) {
      const logged = page === MEMBER_PAGE;
      const uploaded = page.endsWith(UPLOADED);
      const url = `${logged || uploaded ? member.server.url : ours.url}${uploaded ? page.slice(0, -UPLOADED.length - 1) : page}`;
      const runs = [];
      const errors = [];
      // A run can fail to record its trace (NO_NAVSTART, NO_FCP) on a busy machine: such a run is
      // retried, up to twice as many attempts as runs wanted.
      for (let attempt = 0; runs.length < config.lighthouseRuns && attempt < config.lighthouseRuns * 2; attempt++) {
        const lhr = await lighthouseRun(url, logged ? member.headers : undefined);
        // BENCH_LIGHTHOUSE_DUMP=dir: every run's report, to see what an audit found.
        if (process.env.BENCH_LIGHTHOUSE_DUMP) {
          mkdirSync(process.env.BENCH_LIGHTHOUSE_DUMP, { recursive: true });
          const file = `${page.replace(/[^a-z0-9]+/gi, "_")}-${attempt}.json`;
          writeFileSync(path.join(process.env.BENCH_LIGHTHOUSE_DUMP, file), JSON.stringify(lhr));
        }
        if (lhr.runtimeError) errors.push(lhr.runtimeError.code);
        else runs.push(lhr);
      }
      if (runs.length === 0) {
        pages[page] = { error: `no usable run (${errors.join(", ")})`, pass: false };
        log(`lighthouse ${page}: no usable run (${errors.join(", ")})`);
        continue;
      }
      // The run with the median performance score (Lighthouse's own advice for variable machines).
      const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const sorted = [...runs].sort((a, b) => score(a, "performance") - score(b, "performance"));
      const lhr = sorted[Math.floor(sorted.length / 2)];
      const metric = (id) => lhr.audits[id]?.numericValue ?? null;
      const failing = Object.values(lhr.audits)
        .filter(
          (a) =>
            a.score !== null &&
            a.score < 0.9 &&
            a.scoreDisplayMode !== "informative" &&
            a.scoreDisplayMode !== "notApplicable",
        )
        .map((a) => a.id);
      pages[page] = {
        performance: score(lhr, "performance"),
        accessibility: score(lhr, "accessibility"),
        runs: runs.map((r) => ({ performance: score(r, "performance"), accessibility: score(r, "accessibility") })),
        failedRuns: errors,
        metricsMs: {
          fcp: round(metric("first-contentful-paint"), 0),
          lcp: round(metric("largest-contentful-paint"), 0),
          tbt: round(metric("total-blocking-time"), 0),
          cls: round(metric("cumulative-layout-shift") ?? 0, 3),
        },
        belowPar: failing,
        target: logged ? TARGETS.lighthouseMember : TARGETS.lighthouse,
        pass:
          score(lhr, "performance") >= (logged ? TARGETS.lighthouseMember : TARGETS.lighthouse) &&
          score(lhr, "accessibility") >= TARGETS.lighthouse,
      };
      log(`lighthouse ${page}: performance ${pages[page].performance}, accessibility ${pages[page].accessibility}`);
    }
  } finally {
    await chrome.kill();
  }
  return {
    method: `lighthouse ${lighthouseVersion()} (default mobile preset: simulated throttling), Chromium at ${executablePath}, ${config.lighthouseRuns} runs per page, the median run reported`,
    pages,
    target: TARGETS.lighthouse,
    pass: Object.values(pages).every((p) => p.pass),
  };
}

function lighthouseVersion() {
  try {
    return JSON.parse(readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8")).version;
  } catch {
    return "?";
  }
}

// ---------------------------------------------------------------------------------------------------------------
// 4. Cold start on PostgreSQL
// ---------------------------------------------------------------------------------------------------------------

async function benchColdStart() {
  const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 3, onnotice: () => {}, idle_timeout: 5 });
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end({ timeout: 1 }).catch(() => {});
    const reason = `PostgreSQL not reachable at ${redact(adminUrl)}: ${error?.message ?? error}`;
    log(`cold start skipped: ${reason}`);
    return { skipped: true, reason };
  }
  cleanups.push(() => admin.end({ timeout: 2 }));

  const runs = [];
  const restarts = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const dbName = `bench_cold_${process.pid}_${i + 1}`;
    await admin.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE "${dbName}"`);
    const drop = () => admin.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    cleanups.push(drop);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${dbName}`;
      const ms = await timeToReady(url.href, `cold ${i + 1}`);
      runs.push(ms);
      log(`cold start ${i + 1}/${COLD_RUNS} (fresh database, migrations included): ${fmt(ms, 0)} ms`);
      // The same start again, now on the migrated database.
      const restartMs = await timeToReady(url.href, `restart ${i + 1}`);
      restarts.push(restartMs);
      log(`restart ${i + 1}/${COLD_RUNS} on the migrated database: ${fmt(restartMs, 0)} ms`);
    } finally {
      await drop();
      cleanups.splice(cleanups.indexOf(drop), 1);
    }
  }
  const medianMs = median(runs);
  return {
    method: `spawn of node server.js (NODE_ENV=production, DATABASE_URL to a fresh database) until GET /readyz answers 200, polled every ${POLL_MS} ms`,
    runsMs: runs.map((ms) => round(ms, 1)),
    medianMs: round(medianMs, 1),
    restartRunsMs: restarts.map((ms) => round(ms, 1)),
    restartMedianMs: round(median(restarts), 1),
    target: TARGETS.coldStartMs,
    pass: medianMs <= TARGETS.coldStartMs,
    restartTarget: TARGETS.restartMs,
    restartPass: median(restarts) <= TARGETS.restartMs,
  };
}

async function timeToReady(databaseUrl, label) {
  const port = await freePort();
  const logFile = path.join(tmpRoot, `${label.replace(/\W+/g, "-")}.log`);
  const fd = openSync(logFile, "w");
  const env = cleanEnv({
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: mkdtempSync(path.join(tmpRoot, "data-")),
    DATABASE_URL: databaseUrl,
  });
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(root, "server.js")], { cwd: root, env, stdio: ["ignore", fd, fd] });
  children.add(child);
  let exited = null;
  child.on("exit", (code, signal) => {
    exited = { code, signal };
    children.delete(child);
  });
  const server = { name: label, child, logTail: () => tail(logFile) };
  try {
    const deadline = t0 + 30_000;
    while (performance.now() < deadline) {
      const attempt = performance.now();
      if (exited) throw new Error(`${label}: server exited early (${JSON.stringify(exited)})\n${tail(logFile)}`);
      const status = await statusOf(`http://127.0.0.1:${port}/readyz`);
      if (status === 200) return performance.now() - t0;
      await sleep(Math.max(0, POLL_MS - (performance.now() - attempt)));
    }
    throw new Error(`${label}: /readyz did not answer 200 within 30 s\n${tail(logFile)}`);
  } finally {
    await stopServer(server);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Builds and servers
// ---------------------------------------------------------------------------------------------------------------

function ensureAppBuild() {
  const builtFile = path.join(root, "build/server/index.js");
  const missing = !existsSync(builtFile);
  if (missing || opts.build) {
    log(missing ? "build/ is missing: building the app…" : "building the app (--build)…");
    runBuild([], "app");
    return { built: true, stale: false };
  }
  // Same freshness rule as scripts/start.js, but only a warning: build/ may be in use by other runs.
  const sources = ["app", "server", "platform", "drizzle"].map((d) => path.join(root, d));
  const newest = Math.max(
    ...sources.filter(existsSync).map(newestMtime),
    statSync(path.join(root, "package.json")).mtimeMs,
  );
  const stale = newest > statSync(builtFile).mtimeMs;
  if (stale) {
    console.warn(
      "warning: build/ is older than app/, server/, platform/, drizzle/ or package.json; figures are for that build (pass --build)",
    );
  }
  return { built: false, stale };
}

function buildMinimal() {
  const outDir = path.join(root, "node_modules/.cache", `bench-minimal-${process.pid}`);
  rmSync(outDir, { recursive: true, force: true });
  cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
  log("building the minimal baseline (bench/minimal)…");
  runBuild(["bench/minimal"], "minimal baseline", { BENCH_MINIMAL_BUILD_DIR: outDir });
  return outDir;
}

function runBuild(extraArgs, label, env = {}) {
  const t0 = performance.now();
  const result = spawnSync("npx", ["react-router", "build", ...extraArgs], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    throw new Error(`${label} build failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  log(`${label} built in ${fmt((performance.now() - t0) / 1000, 1)} s`);
}

async function startServer({ name, args, env, readyPath }) {
  const port = await freePort();
  const logFile = path.join(tmpRoot, `${name}.log`);
  const fd = openSync(logFile, "w");
  const child = spawn(process.execPath, args, {
    cwd: args[0]?.startsWith(appRoot) ? appRoot : root,
    env: cleanEnv({ ...env, PORT: String(port), HOST: "127.0.0.1" }),
    stdio: ["ignore", fd, fd],
  });
  children.add(child);
  let exited = null;
  child.on("exit", (code, signal) => {
    exited = { code, signal };
    children.delete(child);
  });
  const server = { name, child, url: `http://127.0.0.1:${port}`, logTail: () => tail(logFile) };
  const deadline = performance.now() + 180_000; // a loaded machine starts slowly
  while (performance.now() < deadline) {
    if (exited) throw new Error(`${name} server exited early (${JSON.stringify(exited)})\n${tail(logFile)}`);
    if ((await statusOf(`${server.url}${readyPath}`)) === 200) {
      log(`${name} server ready on ${server.url}`);
      return server;
    }
    await sleep(100);
  }
  await stopServer(server);
  throw new Error(`${name} server did not answer 200 on ${readyPath} within 180 s\n${tail(logFile)}`);
}

/**
 * The member server on PostgreSQL: a fresh database on BENCH_PG_URL's server (dropped at the end), so the
 * figure includes the network round trips and the LISTEN connection of the caches (ADR 026).
 */
async function startMemberServerOnPostgres() {
  const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 3, onnotice: () => {}, idle_timeout: 5 });
  try {
    await admin`select 1`;
  } catch (error) {
    await admin.end({ timeout: 1 }).catch(() => {});
    log(`member center on PostgreSQL skipped: not reachable at ${redact(adminUrl)}: ${error?.message ?? error}`);
    return null;
  }
  const dbName = `bench_member_${process.pid}`;
  await admin.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${dbName}"`);
  // Runs after the servers are stopped (runCleanups comes last).
  cleanups.push(async () => {
    await admin.unsafe(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
    await admin.end({ timeout: 2 });
  });
  const url = new URL(adminUrl);
  url.pathname = `/${dbName}`;
  return startMemberServer(url.href);
}

/**
 * Our server with APP_ENV=test, a member with a realistic history and a session cookie for it. With `static`: the
 * same app served by bench/serve-static-member.js, whose member-center loaders are static once its first page is
 * answered (the check below), embedded database.
 */
async function startMemberServer(databaseUrl, { static: isStatic = false } = {}) {
  const hooksSecret = randomBytes(32).toString("base64url");
  const server = await startServer({
    name: isStatic ? "member-static" : databaseUrl ? "member-pg" : "member",
    args: isStatic ? [path.join(benchDir, "serve-static-member.js"), appRoot] : [path.join(appRoot, "server.js")],
    env: {
      NODE_ENV: "production",
      APP_ENV: "test",
      TEST_HOOKS_SECRET: hooksSecret,
      DATA_DIR: mkdtempSync(path.join(tmpRoot, "data-")),
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: config.logLevel,
      SEED_DEMO_CONTENT: "true",
    },
    readyPath: "/readyz",
  });
  const post = testHooks(server.url, hooksSecret);
  const t0 = performance.now();
  const cookie = await benchMemberCookie(post);
  log(
    `member with ${MEMBER_HISTORY.entries} ledger entries and ${MEMBER_HISTORY.coupons} coupons booked in ${fmt((performance.now() - t0) / 1000, 1)} s`,
  );
  const check = await rawGet(`${server.url}${MEMBER_PAGE}`, { cookie });
  if (check.status !== 200) throw new Error(`GET ${MEMBER_PAGE} with the member's cookie answered ${check.status}`);
  if (isStatic) {
    // Static from now on: the page answers without any session (the real one sends a visitor to the login).
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      await sleep(50);
      status = (await rawGet(`${server.url}${MEMBER_PAGE}`, {})).status;
    }
    if (status !== 200) throw new Error(`${server.name}: ${MEMBER_PAGE} did not become static\n${server.logTail()}`);
  }
  if (!isStatic && !databaseUrl && (wants("js") || wants("lighthouse"))) {
    // Issue 14: the public pages keep their budgets with uploaded photos. A 12 MP phone photo goes through the
    // upload pipeline and is published as the first photo of the store the bench opens.
    const t1 = performance.now();
    await post(`/stores/${STORE_PAGE.split("/").pop()}/uploaded-photo`, { width: 4000, height: 3000 });
    log(`a 4000 × 3000 photo uploaded and published on ${STORE_PAGE} in ${fmt((performance.now() - t1) / 1000, 1)} s`);
  }
  return { server, headers: { cookie } };
}

async function stopServer(server) {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** The parent's environment less the app's own settings, so a developer's .env-style exports do not leak in. */
function cleanEnv(overrides) {
  const env = { ...process.env };
  for (const key of [
    "APP_ENV",
    "DATABASE_URL",
    "DATA_DIR",
    "SESSION_SECRET",
    "PUBLIC_BASE_URL",
    "LOG_LEVEL",
    "PORT",
    "HOST",
  ]) {
    delete env[key];
  }
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) env[key] = value;
  return env;
}

// ---------------------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------------------

function printTable() {
  const rows = [];
  const status = (pass) => (pass ? "PASS" : "FAIL");
  if (results.rps?.error)
    rows.push(["Requests/s vs minimal page", "error", `>= ${TARGETS.rpsRatioCatalogue}`, "ERROR"]);
  else if (results.rps) {
    for (const [page, r] of Object.entries(results.rps.pages)) {
      rows.push([
        `Requests/s of ${page} vs minimal page (ratio)`,
        `${fmt(r.ratio, 2)}  (${fmt(r.oursMedianRps, 0)} vs ${fmt(r.baselineMedianRps, 0)} req/s; CPU ${r.cpuMsPerRequest ? `${fmt(r.cpuMsPerRequest.ours, 2)} vs ${fmt(r.cpuMsPerRequest.baseline, 2)}` : "n/a"} ms/req)`,
        `>= ${r.target}`,
        status(r.pass),
      ]);
    }
    for (const [page, r] of Object.entries(results.rps.pages)) {
      const u = r.renderedEveryTime;
      if (!u?.target) continue;
      rows.push([
        `Requests/s of ${page} rendered on every request vs minimal (ratio)`,
        `${fmt(u.ratio, 2)}  (${fmt(u.rps, 0)} vs ${fmt(u.baselineRps, 0)} req/s${u.cpuMsPerRequest ? `, ${fmt(u.cpuMsPerRequest, 1)} ms CPU` : ""})`,
        `>= ${u.target}`,
        status(u.ratio >= u.target),
      ]);
    }
  }
  const ms = results.memberStatic;
  if (ms?.error)
    rows.push(["Member center vs its static markup", "error", `<= ${pct(TARGETS.memberOverStatic)}`, "ERROR"]);
  else if (ms) {
    const label = { embedded: "embedded", postgres: "PostgreSQL" };
    for (const [key, f] of Object.entries(ms.figures)) {
      rows.push([
        `${MEMBER_PAGE} (${label[key]}) over its markup from a static loader (time/request)`,
        `${f.overhead >= 0 ? "+" : ""}${pct(f.overhead)}  (${fmt(ms.static.rps, 0)} vs ${fmt(f.rps, 0)} req/s; CPU ${f.cpuOverhead === null ? "n/a" : `${f.cpuOverhead >= 0 ? "+" : ""}${pct(f.cpuOverhead)}`}: ${fmt(f.cpuMsPerRequest, 2)} vs ${fmt(ms.static.cpuMsPerRequest, 2)} ms/req)`,
        `<= ${pct(f.overheadTarget)}`,
        status(f.overheadPass),
      ]);
      rows.push([
        `${MEMBER_PAGE} (${label[key]}) vs minimal page, same rounds (ratio)`,
        `${fmt(f.vsMinimal, 2)}  (${fmt(f.rps, 0)} vs ${fmt(ms.minimal.rps, 0)} req/s)`,
        `>= ${f.vsMinimalTarget}`,
        status(f.vsMinimalPass),
      ]);
    }
  }
  if (results.clientJs?.error) rows.push(["Client JS", "error", `<= ${kB(TARGETS.jsBytes)}`, "ERROR"]);
  else if (results.clientJs) {
    for (const [page, p] of Object.entries(results.clientJs.pages)) {
      rows.push([
        `Client JS before interaction, ${page} (as served: ${p.encodings.join(", ")})`,
        `${kB(p.totalServed)}  (gzip 9: ${kB(p.totalGzip)}; ${p.fileCount} files, ${kB(p.totalRaw)} raw)`,
        `<= ${kB(TARGETS.jsBytes)}`,
        status(p.pass),
      ]);
    }
    const liff = results.clientJs.liff;
    if (liff) {
      rows.push([
        `LIFF chunk added inside LINE, ${liff.page} (gzip)`,
        `${kB(liff.totalGzip)}  (${liff.files.length} files${liff.pageLoadsLiff ? "; LIFF code in the page itself!" : ""})`,
        `<= ${kB(TARGETS.liffGzipBytes)}`,
        status(liff.pass),
      ]);
      if (liff.features) {
        rows.push([
          "LINE features chunk, on demand (store, material, member center in LINE; gzip)",
          `${kB(liff.features.totalGzip)}  (${liff.features.files.length} files)`,
          "reported",
          "INFO",
        ]);
      }
    }
  }
  const lh = results.lighthouse;
  if (lh?.error) rows.push(["Lighthouse (mobile)", "error", `>= ${TARGETS.lighthouse}`, "ERROR"]);
  else if (lh?.skipped) rows.push(["Lighthouse (mobile)", "skipped", `>= ${TARGETS.lighthouse}`, "SKIP"]);
  else if (lh) {
    for (const [page, p] of Object.entries(lh.pages)) {
      rows.push([
        `Lighthouse mobile ${page}: performance / accessibility`,
        p.error ? p.error : `${p.performance} / ${p.accessibility}`,
        p.target && p.target !== TARGETS.lighthouse
          ? `>= ${p.target} / ${TARGETS.lighthouse}`
          : `>= ${TARGETS.lighthouse} each`,
        status(p.pass),
      ]);
    }
  }
  const c = results.coldStart;
  if (c?.error) rows.push(["Cold start to /readyz 200 (PostgreSQL)", "error", `<= ${TARGETS.coldStartMs} ms`, "ERROR"]);
  else if (c?.skipped)
    rows.push(["Cold start to /readyz 200 (PostgreSQL)", "skipped", `<= ${TARGETS.coldStartMs} ms`, "SKIP"]);
  else if (c) {
    rows.push([
      "Cold start to /readyz 200 (PostgreSQL, median)",
      `${fmt(c.medianMs, 0)} ms  (runs: ${c.runsMs.map((ms) => fmt(ms, 0)).join(", ")} ms)`,
      `<= ${TARGETS.coldStartMs} ms`,
      status(c.pass),
    ]);
    rows.push([
      "Restart on a migrated database (PostgreSQL, median)",
      `${fmt(c.restartMedianMs, 0)} ms  (runs: ${c.restartRunsMs.map((ms) => fmt(ms, 0)).join(", ")} ms)`,
      `<= ${TARGETS.restartMs} ms`,
      status(c.restartPass),
    ]);
  }

  console.log("");
  const load = (l) => l.map((x) => x.toFixed(2)).join(" ");
  console.log(
    `Bench: node ${results.node}, ${results.machine.cpus} cpus, load average ${load(results.machine.loadavg)} at start, ${load(results.machine.loadavgAtEnd)} at end; commit ${results.git.commit}${results.git.dirty ? " (dirty)" : ""}${results.build?.stale ? "; build/ STALE" : ""}`,
  );
  const header = ["Figure", "Measured", "Target", "Result"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((cell, i) => cell.padEnd(widths[i])).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));

  if (results.rps && !results.rps.error) {
    console.log(`\nrequests/s: ${results.rps.method}; our LOG_LEVEL=${results.rps.ourLogLevel}`);
    for (const [page, r] of Object.entries(results.rps.pages)) {
      console.log(
        `  ${page}: HTML as served (gzip) ours ${kB(r.htmlGzipBytes.ours)}, minimal ${kB(r.htmlGzipBytes.baseline)}`,
      );
      for (const round of r.rounds) {
        const cpu = (x) => (x.cpuMsPerRequest === null ? "" : `, ${fmt(x.cpuMsPerRequest, 2)} ms CPU/req`);
        console.log(
          `    round ${round.round} (${round.order.replace("baseline", "minimal")}): minimal ${fmt(round.baseline.rps, 0)} req/s (p99 ${round.baseline.latencyMs.p99} ms${cpu(round.baseline)}), ours ${fmt(round.ours.rps, 0)} req/s (p99 ${round.ours.latencyMs.p99} ms${cpu(round.ours)}), ratio ${fmt(round.ratio, 3)}`,
        );
      }
      if (r.cpuMsPerRequest) {
        const c = r.cpuMsPerRequest;
        console.log(
          `    server CPU per request (median): ours ${fmt(c.ours, 2)} ms, minimal ${fmt(c.baseline, 2)} ms; CPU ratio ${fmt(c.ratio, 2)} (less sensitive to a busy machine than req/s)`,
        );
      }
      if (r.renderedEveryTime) {
        const u = r.renderedEveryTime;
        console.log(
          `    rendered on every request (median of the rounds; public pages on an instance with RENDER_CACHE_MS=0): ${fmt(u.rps, 0)} req/s vs minimal ${fmt(u.baselineRps, 0)}, ratio ${fmt(u.ratio, 2)}${u.cpuMsPerRequest ? `, ${fmt(u.cpuMsPerRequest, 2)} ms CPU/req` : ""}`,
        );
      }
    }
  }
  if (ms && !ms.error) {
    console.log(`\nmember center vs its static markup (issue 36): ${ms.method}`);
    console.log(
      `  HTML as served (gzip): ${Object.entries(ms.htmlGzipBytes)
        .map(([k, b]) => `${k} ${kB(b)}`)
        .join(", ")}; static markup vs minimal ${fmt(ms.static.vsMinimal, 2)}`,
    );
    for (const r of ms.rounds) {
      const keys = r.order.split(" then ");
      console.log(
        `    round ${r.round} (${r.order}): ${keys.map((k) => `${k} ${fmt(r[k].rps, 0)} req/s, ${r[k].cpuMsPerRequest === null ? "?" : fmt(r[k].cpuMsPerRequest, 2)} ms CPU`).join("; ")}`,
      );
    }
  }
  if (results.clientJs && !results.clientJs.error) {
    const j = results.clientJs;
    console.log(
      `\nclient JS: ${j.method}; kB = 1000 bytes. For reference, the minimal React Router page ships ${kB(j.minimalBaseline.totalGzip)} gzip.`,
    );
    for (const [page, p] of Object.entries(j.pages)) {
      console.log(
        `  ${page}: ${kB(p.totalServed)} JS as served (${p.encodings.join(", ")}), ${kB(p.totalGzip)} at gzip 9, plus ${kB(p.cssGzip)} CSS gzip`,
      );
      if (p.notPreloaded.length > 0) console.log(`    not in the modulepreload list: ${p.notPreloaded.join(", ")}`);
      if (verbose) {
        for (const f of p.files) {
          console.log(
            `    ${kB(f.served).padStart(9)} ${f.encoding.padEnd(8)} ${kB(f.gzip).padStart(9)} gzip ${kB(f.raw).padStart(9)} raw  ${f.path}${f.via === "html" ? "" : `  (${f.via})`}`,
          );
        }
      } else {
        const top = p.files.slice(0, 3).map((f) => `${f.path.replace(/^\/assets\//, "")} ${kB(f.gzip)}`);
        console.log(`    largest: ${top.join(", ")}  (--verbose lists every file)`);
      }
    }
  }
  if (lh && !lh.error && !lh.skipped) {
    console.log(`\nlighthouse: ${lh.method}`);
    for (const [page, p] of Object.entries(lh.pages)) {
      if (p.error) continue;
      const m = p.metricsMs;
      console.log(
        `  ${page}: runs ${p.runs.map((r) => r.performance).join(", ")}; median run FCP ${m.fcp} ms, LCP ${m.lcp} ms, TBT ${m.tbt} ms, CLS ${m.cls}${p.belowPar.length ? `; audits below 0.9: ${p.belowPar.join(", ")}` : ""}`,
      );
    }
  } else if (lh?.skipped) {
    console.log(`\nlighthouse skipped: ${lh.reason}`);
  }
  if (c && !c.error && !c.skipped) {
    console.log(
      `\ncold start: ${c.method}; each run on a fresh database, so each includes the migrations, then a restart on it once migrated.`,
    );
  } else if (c?.skipped) {
    console.log(`\ncold start skipped: ${c.reason}`);
  }
  for (const key of ["rps", "memberStatic", "clientJs", "lighthouse", "coldStart"]) {
    if (results[key]?.error) console.log(`\n${key} broke: ${results[key].error}`);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------------

async function section(name, fn) {
  try {
    return await fn();
  } catch (error) {
    broke = true;
    console.error(`${name} broke: ${error?.stack ?? error}`);
    return { error: String(error?.message ?? error) };
  }
}

function wants(name) {
  return config.sections.includes(name);
}

async function runCleanups() {
  for (const child of children) child.kill("SIGKILL");
  while (cleanups.length > 0) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (error) {
      console.error(`cleanup: ${error?.message ?? error}`);
    }
  }
  rmSync(tmpRoot, { recursive: true, force: true });
}

/** Status code of a GET, or 0 when nothing answers (connection refused, reset, timeout). */
function statusOf(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { agent: false, timeout: 2000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
      res.on("error", () => resolve(0));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
  });
}

/** A GET whose body is kept as sent (no decoding), to see the encoding and the bytes on the wire. */
function rawGet(url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, headers, timeout: 10_000 }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out`)));
    req.on("error", reject);
  });
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function gitInfo() {
  const rev = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  const st = spawnSync("git", ["status", "--porcelain"], { cwd: root, encoding: "utf8" });
  return {
    commit: rev.status === 0 ? rev.stdout.trim() : "unknown",
    dirty: st.status === 0 && st.stdout.trim() !== "",
  };
}

function tail(file, lines = 20) {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

function redact(url) {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.href;
  } catch {
    return url;
  }
}

function positiveInt(value, name) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`${name} must be a positive integer`);
    process.exit(2);
  }
  return n;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function sum(xs) {
  return xs.reduce((a, b) => a + b, 0);
}

function round(x, digits) {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function fmt(x, digits) {
  return Number(x).toFixed(digits);
}

function pct(x) {
  return `${(x * 100).toFixed(1)} %`;
}

function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function log(message) {
  console.log(`[${((performance.now() - started) / 1000).toFixed(1).padStart(5)} s] ${message}`);
}
