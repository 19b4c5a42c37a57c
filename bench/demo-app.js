// Shared by the benches that drive the built app as its demo users do (bench:counter, bench:console-js): start
// `node server.js` in development mode on a fresh PostgreSQL database (the demo member, clerk and admin exist, see
// the README), log in over HTTP (the staff with password and the TOTP code computed from the demo secret), and
// measure the client JS a page loads before interaction.
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { gzipSync } from "node:zlib";
import postgres from "postgres";
import { freePort } from "./process.js";

const root = path.resolve(import.meta.dirname, "..");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";

/** The demo accounts' public credentials, read from their source (README lists them too). */
export function demoCredentials() {
  const member = readFileSync(path.join(root, "app/domain/demo/demo-member.ts"), "utf8");
  const staff = readFileSync(path.join(root, "app/domain/demo/demo-staff.ts"), "utf8");
  const field = (text, name) => new RegExp(`${name}: "([^"]+)"`).exec(text)?.[1];
  const account = (role) => {
    const text = staff.slice(staff.indexOf(`role: "${role}"`));
    return { email: field(text, "email"), password: field(text, "password"), totpSecret: field(text, "totpSecret") };
  };
  return {
    member: { phone: "0912-345-678", password: field(member, "password") },
    clerk: account("staff"),
    admin: account("admin"),
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
export function totp(secret, now = Date.now()) {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(now / 30_000)));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1] & 0xf;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/** Runs one statement on the PostgreSQL server as its admin (CREATE / DROP DATABASE). */
export async function adminSql(sql) {
  const client = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on ADMIN_URL's server and the built app on it (NODE_ENV=production, APP_ENV=development, the
 * demo content). `stop()` ends the app and drops the database.
 */
export async function startDemoApp(label) {
  if (!existsSync(path.join(root, "build", "server", "index.js"))) throw new Error("build/ is missing: npm run build");
  const dbName = `bench_${label}_${process.pid}`;
  await adminSql(`CREATE DATABASE "${dbName}"`);
  const dbUrl = new URL(ADMIN_URL);
  dbUrl.pathname = `/${dbName}`;
  const port = await freePort();
  const tmp = mkdtempSync(path.join(os.tmpdir(), `bench-${label}-`));
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
      DATABASE_URL: dbUrl.toString(),
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || "info",
    },
    stdio: ["ignore", fd, fd],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    rmSync(tmp, { recursive: true, force: true });
    await adminSql(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
  };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { url, child, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  const log = readFileSync(path.join(tmp, "server.log"), "utf8").slice(-3000);
  await stop();
  throw new Error(`the app did not become ready:\n${log}`);
}

export const cookieOf = (res, name) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !name || c.startsWith(`${name}=`))
    .join("; ");

export function post(url, pathname, fields, cookie) {
  return fetch(`${url}${pathname}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { origin: url, cookie },
    redirect: "manual",
  });
}

/** The demo member's session cookie (phone and password). */
export async function memberLogin(url) {
  const { member } = demoCredentials();
  const res = await post(url, "/member-login", { method: "phone", phone: member.phone, password: member.password }, "");
  if (res.status !== 302) throw new Error(`demo member login answered ${res.status}`);
  return cookieOf(res);
}

/** A demo staff member's console cookie ("clerk" or "admin"): password, then the authenticator code. */
export async function consoleLogin(url, who) {
  const account = demoCredentials()[who];
  const login = await post(url, "/admin/login", { identifier: account.email, password: account.password }, "");
  const cookie = cookieOf(login, "han_console");
  const verified = await post(url, "/admin/verify", { code: totp(account.totpSecret) }, cookie);
  if (verified.status !== 302 || !cookie) throw new Error(`demo ${who} login answered ${verified.status}`);
  return cookie;
}

/**
 * Script URLs a browser loads for a page before interaction, with their static imports: every <script src>,
 * modulepreload href and import of the inline module script, then each file's static imports (a dynamic
 * import() loads later), gzip level 9 each, summed (the method of bench/run.js).
 */
export async function pageScripts(url, page, cookie) {
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
    for (const m of body.toString("utf8").matchAll(/\bimport\s*(?:[\w*{}\s,$]+from\s*)?["']([^"']+)["']/g)) {
      // Only paths are files; a bare name is text that reads like an import (React Router's error message
      // quotes `import { RouterProvider } from "react-router/dom"`), and the server answers it with a page.
      if (/^(?:\.{0,2}\/|https?:)/.test(m[1])) queue.push(new URL(m[1], file).href);
    }
  }
  const list = [...files].map(([file, size]) => ({ file: new URL(file).pathname, ...size }));
  return { totalGzip: list.reduce((s, f) => s + f.gzip, 0), files: list };
}
