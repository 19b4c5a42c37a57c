// `node bench/pos-cpu.js`: PostgreSQL's CPU per purchase (the `--same-work` script of bench/pos-same-work.js) and per
// pgbench TPC-B transaction, counted on the benches' own backends only, so the figure moves little when other
// sessions load the machine (a requests/s ratio moves with every other process; the CPU one purchase costs does not).
//
// How: pgbench runs (-c 10 -j 2 -T --duration, -M prepared); while it runs, its backends are found in
// pg_stat_activity (by database and application_name) and their utime+stime read from /proc/<pid>/stat every 50 ms;
// the last reading of each backend is its total (connection start included: a few ms of 10 backends' whole life).
// Divided by pgbench's processed transactions. Background processes (WAL writer, checkpointer, autovacuum) are not
// counted, for either script.
//
// --variants: the same-work script again with parts of the purchase switched off one at a time (a trigger disabled,
// a statement left out), to see what each costs: each variant's rounds alternate with the script as is.
// --only TEXT: only the variants whose name contains TEXT (e.g. --only 0054: the summary triggers of migration 0054
// against the ones before, what ADR 039's "Later (2026-12-07)" measured).
//
// Needs pgbench and a local PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import process from "node:process";
import { parseArgs } from "node:util";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { seedPos } from "./pos-data.js";
import { writeSameWorkScripts } from "./pos-same-work.js";
import { migrations, variants } from "./pos-variants.js";
import { databaseUrl } from "./process.js";

const { values: opts } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "10" },
    variants: { type: "boolean", default: false },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    "db-prefix": { type: "string", default: `bench_poscpu_${process.pid}` },
  },
});
const PREFIX = opts["db-prefix"];
if (!/^[a-z0-9_]+$/.test(PREFIX)) throw new Error("--db-prefix: lower-case letters, digits and underscores");
const ADMIN_URL = process.env.BENCH_PG_URL || "postgres://postgres@127.0.0.1:5432/postgres";
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;
const log = (...args) => console.error("[bench:pos-cpu]", ...args);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dbUrl = (name) => databaseUrl(name, ADMIN_URL);

function ticksOf(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return null;
  }
}

/** Runs pgbench on `database` with `args`; returns tps, transactions and its backends' CPU ms per transaction. */
async function measured(database, args, watcher) {
  const url = new URL(dbUrl(database));
  const env = {
    ...process.env,
    PGHOST: url.hostname,
    PGPORT: url.port || "5432",
    PGUSER: "postgres",
    PGDATABASE: database,
  };
  const child = spawn(
    "pgbench",
    ["-n", "-M", "prepared", "-c", opts.connections, "-j", "2", "-T", opts.duration, ...args],
    { env },
  );
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  const last = new Map();
  let done = false;
  const finished = new Promise((resolve) => child.on("close", resolve));
  finished.then(() => (done = true));
  while (!done) {
    const pids =
      await watcher`select pid from pg_stat_activity where datname = ${database} and application_name = 'pgbench'`;
    for (const { pid } of pids) {
      const ticks = ticksOf(pid);
      if (ticks !== null) last.set(pid, ticks);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const status = await finished;
  if (status !== 0) throw new Error(`pgbench failed:\n${out}`);
  const processed = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1]);
  const failed = Number(/number of failed transactions: (\d+)/.exec(out)?.[1] ?? 0);
  if (failed > 0) throw new Error(`pgbench: failed transactions\n${out}`);
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1]);
  const ticks = [...last.values()].reduce((a, b) => a + b, 0);
  return { tps, processed, cpuMs: (ticks * 1000) / CLOCK_TICKS / processed };
}

async function main() {
  const admin = postgres(ADMIN_URL, { max: 2, onnotice: () => {} });
  const appDb = `${PREFIX}_app`;
  const tpcbDb = `${PREFIX}_pgbench`;
  await admin.unsafe(`create database "${appDb}"`);
  await admin.unsafe(`create database "${tpcbDb}"`);
  const app = postgres(dbUrl(appDb), { max: 1, onnotice: () => {} });
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-pos-cpu-"));
  try {
    log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    await migrate(drizzle(app), { migrationsFolder: migrations });
    await seedPos(dbUrl(appDb));
    const [, file] = await writeSameWorkScripts(dbUrl(appDb), dir);
    const script = readFileSync(file, "utf8");
    spawnSync("pgbench", ["-i", "-q", "-s", "1"], {
      env: { ...process.env, PGHOST: "127.0.0.1", PGUSER: "postgres", PGDATABASE: tpcbDb },
    });
    // Warm-up: the purchase's tables get their first rows, plans and caches.
    await measured(appDb, ["-f", file], admin);
    await measured(tpcbDb, [], admin);
    const rows = [];
    // Each variant runs in rounds of [TPC-B, the script as is, the variant], so the tables' growth over the run
    // (every purchase adds rows the next ones read) and the machine's moods fall on both sides of a difference.
    const runs = opts.variants
      ? variants(script).filter(([name]) => !opts.only || name.includes(opts.only))
      : [["(none)", null, null, null]];
    for (const [name, off, on, altered] of runs) {
      let variantFile = file;
      if (altered) {
        variantFile = path.join(dir, "variant.sql");
        writeFileSync(variantFile, altered);
      }
      const base = [];
      const variant = [];
      const tpcb = [];
      for (let round = 0; round < Number(opts.rounds); round++) {
        tpcb.push(await measured(tpcbDb, [], admin));
        base.push(await measured(appDb, ["-f", file], admin));
        if (!opts.variants) continue;
        if (off) await app.unsafe(off);
        try {
          variant.push(await measured(appDb, ["-f", variantFile], admin));
        } finally {
          if (on) await app.unsafe(on);
        }
      }
      const row = {
        name,
        purchaseCpuMs: median(base.map((r) => r.cpuMs)),
        tpcbCpuMs: median(tpcb.map((r) => r.cpuMs)),
        purchaseTps: median(base.map((r) => r.tps)),
        tpcbTps: median(tpcb.map((r) => r.tps)),
        ...(opts.variants
          ? {
              variantCpuMs: median(variant.map((r) => r.cpuMs)),
              savedCpuMs: median(base.map((r, i) => r.cpuMs - variant[i].cpuMs)),
            }
          : {}),
      };
      row.cpuRatio = row.purchaseCpuMs / row.tpcbCpuMs;
      rows.push(row);
      log(
        `purchase ${row.purchaseCpuMs.toFixed(3)} ms CPU (${base.map((r) => r.cpuMs.toFixed(3)).join(", ")}), ` +
          `TPC-B ${row.tpcbCpuMs.toFixed(3)} ms (${tpcb.map((r) => r.cpuMs.toFixed(3)).join(", ")}): ` +
          `×${row.cpuRatio.toFixed(2)}; tps ${row.purchaseTps.toFixed(0)} / ${row.tpcbTps.toFixed(0)}` +
          (opts.variants
            ? `\n  ${name}: ${row.variantCpuMs.toFixed(3)} ms (${variant.map((r) => r.cpuMs.toFixed(3)).join(", ")}); ` +
              `saves ${row.savedCpuMs.toFixed(3)} ms (median of the rounds' differences)`
            : ""),
      );
    }
    console.log(JSON.stringify(rows, null, 2));
  } finally {
    await app.end();
    if (opts.keep) log(`kept ${appDb}, ${tpcbDb}; script in ${dir}`);
    else {
      await admin.unsafe(`drop database if exists "${appDb}" with (force)`);
      await admin.unsafe(`drop database if exists "${tpcbDb}" with (force)`);
      rmSync(dir, { recursive: true, force: true });
    }
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
