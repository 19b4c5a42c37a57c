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
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import postgres from "postgres";

const root = path.resolve(import.meta.dirname, "..");
const { values: opts } = parseArgs({ options: { rounds: { type: "string", default: "60" } } });
const ROUNDS = Number(opts.rounds);
const WARMUP = 10;
const TARGETS = { scanToSummaryMs: 50, counterJsGzipBytes: 160_000 };
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const DB_NAME = `bench_counter_${process.pid}`;
const log = (...args) => console.error("[bench:counter]", ...args);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The demo accounts' public credentials, read from their source (README lists them too). */
function demoCredentials() {
  const member = readFileSync(path.join(root, "app/domain/demo/demo-member.ts"), "utf8");
  const staff = readFileSync(path.join(root, "app/domain/demo/demo-staff.ts"), "utf8");
  const clerk = staff.slice(staff.indexOf('role: "staff"'));
  const field = (text, name) => new RegExp(`${name}: "([^"]+)"`).exec(text)?.[1];
  return {
    member: { phone: "0912-345-678", password: field(member, "password") },
    clerk: { email: field(clerk, "email"), password: field(clerk, "password"), totpSecret: field(clerk, "totpSecret") },
  };
}

function base32Decode(text) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const c of text.replace(/[\s=]/g, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0");
  const bytes = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(Number.parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}

/** RFC 6238 (HMAC-SHA1, 30 s, 6 digits), as an authenticator app computes it. */
function totp(secret, now = Date.now()) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function admin(sql) {
  const client = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(sql);
  } finally {
    await client.end();
  }
}

async function startApp(databaseUrl) {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) throw new Error("build/ is missing: npm run build");
  const port = await freePort();
  const tmp = mkdtempSync(path.join(os.tmpdir(), "bench-counter-"));
  const fd = openSync(path.join(tmp, "server.log"), "w");
  const child = spawn(process.execPath, [path.join(root, "server.js")], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      APP_ENV: "development",
      SEED_DEMO_CONTENT: "true",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: tmp,
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "info",
    },
    stdio: ["ignore", fd, fd],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, child, tmp };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill("SIGTERM");
  throw new Error(`the app did not become ready:\n${readFileSync(path.join(tmp, "server.log"), "utf8").slice(-3000)}`);
}

const cookieOf = (res, name) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !name || c.startsWith(`${name}=`))
    .join("; ");

function post(url, pathname, fields, cookie) {
  return fetch(`${url}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: url, cookie },
    redirect: "manual",
  });
}

async function logins(url) {
  const { member, clerk } = demoCredentials();
  const memberLogin = await post(
    url,
    "/member-login",
    { method: "phone", phone: member.phone, password: member.password },
    "",
  );
  if (memberLogin.status !== 302) throw new Error(`demo member login answered ${memberLogin.status}`);
  const memberCookie = cookieOf(memberLogin);
  const consoleLogin = await post(url, "/admin/login", { identifier: clerk.email, password: clerk.password }, "");
  const consoleCookie = cookieOf(consoleLogin, "han_console");
  const verified = await post(url, "/admin/verify", { code: totp(clerk.totpSecret) }, consoleCookie);
  if (verified.status !== 302 || !consoleCookie) throw new Error(`demo clerk login answered ${verified.status}`);
  return { memberCookie, consoleCookie };
}

/** Script URLs a browser loads for a page before interaction, with their static imports (bench/run.js's method). */
async function pageScripts(url, page, cookie) {
  const res = await fetch(`${url}${page}`, { headers: { cookie }, redirect: "manual" });
  if (res.status !== 200) throw new Error(`GET ${page} answered ${res.status}`);
  const html = await res.text();
  const listed = new Set();
  for (const m of html.matchAll(/<script\b[^>]*?\bsrc\s*=\s*["']([^"']+)["']/gi)) listed.add(m[1]);
  for (const m of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = /\brel\s*=\s*["']([^"']+)["']/i.exec(m[0])?.[1] ?? "";
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(m[0])?.[1];
    if (href && rel.split(/\s+/).includes("modulepreload")) listed.add(href);
  }
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!/\btype\s*=\s*["']module["']/i.test(m[1])) continue;
    for (const spec of m[2].matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?\(?\s*["']([^"']+)["']/g)) listed.add(spec[1]);
  }
  const queue = [...listed].map((href) => new URL(href, `${url}${page}`).href);
  const files = new Map();
  while (queue.length > 0) {
    const file = queue.shift();
    if (files.has(file)) continue;
    const body = Buffer.from(await (await fetch(file)).arrayBuffer());
    files.set(file, { raw: body.length, gzip: gzipSync(body, { level: 9 }).length });
    // Static imports only (`import … from "x"`, `import "x"`): a dynamic import() loads later.
    for (const m of body.toString("utf8").matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      queue.push(new URL(m[1], file).href);
    }
  }
  const list = [...files].map(([file, size]) => ({ file: new URL(file).pathname, ...size }));
  return { totalGzip: list.reduce((s, f) => s + f.gzip, 0), files: list };
}

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
  await admin(`CREATE DATABASE "${DB_NAME}"`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${DB_NAME}`;
  app = await startApp(dbUrl.toString());
  const cookies = await logins(app.url);
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
  if (app) {
    app.child.kill("SIGTERM");
    await new Promise((resolve) => app.child.once("exit", resolve));
    rmSync(app.tmp, { recursive: true, force: true });
  }
  await admin(`DROP DATABASE IF EXISTS "${DB_NAME}" WITH (FORCE)`).catch(() => {});
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
