// `npm run bench:console-js`: the client JS of every console page before interaction (issue 14: ≤ 180 kB gzip
// each; the editors' and the uploader's code load lazily). The built app in development mode on a fresh
// PostgreSQL database (BENCH_PG_URL, an admin URL; default the local server), the demo admin and clerk logged in
// over HTTP; each page's scripts are counted as a browser fetches them before any interaction: every
// <script src>, modulepreload and inline module import plus their static imports, gzip level 9 each
// (bench/demo-app.js, the method of bench/run.js). Detail pages use the first row of their list.
//
// Prints a table; writes bench/results/console-js.json. Exit code 1 only when the bench itself broke.
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { consoleLogin, pageScripts, startDemoApp } from "./demo-app.js";

const root = path.resolve(import.meta.dirname, "..");
const BUDGET = 180_000;
const log = (...args) => console.error("[bench:console-js]", ...args);

/** Every console page a person opens (lists, editors, forms), by who opens it. */
const ADMIN_PAGES = [
  "/admin",
  "/admin/members",
  "/admin/members/:first",
  "/admin/stores",
  "/admin/stores/new",
  "/admin/stores/:first",
  "/admin/stores/:first/preview",
  "/admin/materials",
  "/admin/materials/new",
  "/admin/materials/:first",
  "/admin/categories",
  "/admin/categories/new",
  "/admin/categories/:first",
  "/admin/rewards",
  "/admin/rewards/new",
  "/admin/rewards/:first",
  "/admin/rules",
  "/admin/images",
  "/admin/staff",
  "/admin/staff/invite",
  "/admin/staff/:first",
  "/admin/api-keys",
  "/admin/audit",
  "/admin/approvals",
  "/admin/settings",
  "/admin/messages",
  "/admin/messages/campaigns/new",
  "/admin/messages/automatic/welcome",
];
// (`/admin/store` is the store switch's action: its GET sends the clerk to the console home.)
const CLERK_PAGES = ["/admin/counter", "/admin/counter/refund", "/admin/counter/coupon"];

/** The first detail link of a list page (`/admin/stores` → `/admin/stores/banqiao`). */
async function firstDetail(url, list, cookie) {
  const html = await (await fetch(`${url}${list}`, { headers: { cookie } })).text();
  const pattern = new RegExp(`href="(${list}/(?!new\\b|invite\\b|export\\b)[^"/?#]+)"`);
  const found = pattern.exec(html)?.[1];
  if (!found) throw new Error(`no detail link on ${list}`);
  return found;
}

let app = null;
let broke = false;
const results = { startedAt: new Date().toISOString(), loadavg: os.loadavg(), budget: BUDGET, pages: [] };
try {
  app = await startDemoApp("console_js");
  const admin = await consoleLogin(app.url, "admin");
  const clerk = await consoleLogin(app.url, "clerk");
  const plan = [
    ...ADMIN_PAGES.map((page) => ({ page, cookie: admin, who: "admin" })),
    ...CLERK_PAGES.map((page) => ({ page, cookie: clerk, who: "clerk" })),
  ];
  for (const { page, cookie, who } of plan) {
    let resolved = page;
    if (page.includes(":first")) {
      const list = page.slice(0, page.indexOf("/:first"));
      resolved = (await firstDetail(app.url, list, cookie)) + page.slice(page.indexOf(":first") + ":first".length);
    }
    const js = await pageScripts(app.url, resolved, cookie);
    results.pages.push({ page: resolved, who, totalGzip: js.totalGzip, files: js.files, pass: js.totalGzip <= BUDGET });
    log(`${resolved}: ${(js.totalGzip / 1000).toFixed(1)} kB`);
  }
} catch (error) {
  broke = true;
  console.error(`bench:console-js broke: ${error?.stack ?? error}`);
} finally {
  await app?.stop();
}
results.loadavgAtEnd = os.loadavg();
mkdirSync(path.join(root, "bench", "results"), { recursive: true });
writeFileSync(path.join(root, "bench", "results", "console-js.json"), `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nclient JS before interaction, gzip (budget ${BUDGET / 1000} kB each)`);
for (const p of results.pages) {
  console.log(
    `${p.page.padEnd(44)} ${p.who.padEnd(6)} ${`${(p.totalGzip / 1000).toFixed(1)} kB`.padStart(10)}  ${p.pass ? "PASS" : "FAIL"}`,
  );
}
const largest = results.pages.reduce((a, b) => (b.totalGzip > (a?.totalGzip ?? 0) ? b : a), null);
if (largest) console.log(`largest: ${largest.page} ${(largest.totalGzip / 1000).toFixed(1)} kB`);
process.exit(broke ? 1 : 0);
