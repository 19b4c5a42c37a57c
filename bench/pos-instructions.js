// `node bench/pos-instructions.js`: the instructions PostgreSQL executes for one same-work purchase
// (bench/pos-same-work.js) and for one pgbench TPC-B transaction, counted by valgrind's callgrind on the backend that
// runs them. Unlike CPU time (bench/pos-cpu.js), an instruction count does not move when other sessions load the
// machine, so a change of a few percent can be seen on a shared machine. It counts instructions, not cycles: cache
// misses, lock waits and the WAL flush's wait are not in it (pos-cpu.js and bench:pos measure those).
//
// How: a private PostgreSQL cluster (initdb in a temporary directory, run as the `postgres` user, fsync off,
// autovacuum off) gets the app's migrations, bench:pos's seed (bench/pos-data.js) and pgbench's TPC-B tables; then it
// is restarted under `valgrind --tool=callgrind` (every backend the postmaster forks is counted into a file of its
// own) and pgbench runs each script on one connection for --transactions transactions (-M prepared, a new
// --random-seed each run). The backend's total instructions (callgrind's `totals`) ÷ transactions is the figure;
// the connection's start-up is in it, the same for every run (a few percent at 300 transactions).
//
// --profile-out FILE keeps the purchase run's callgrind file (callgrind_annotate --inclusive=yes FILE: where the
// instructions go, by function); --profile-variant-out PREFIX keeps each variant's last run as PREFIX<n>.cg (n from 1, in
// the order the variants run), to set beside it with callgrind_annotate. --variants (bench/pos-variants.js): each part of the purchase switched off in turn, runs alternating
// [the script as is, the variant] --rounds times; --only TEXT picks variants. Needs valgrind, pgbench and initdb
// (Debian's /usr/lib/postgresql/<version>/bin), and root (to run the cluster as `postgres`).
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
import { freePort } from "./process.js";

const { values: opts } = parseArgs({
  options: {
    transactions: { type: "string", default: "300" },
    rounds: { type: "string", default: "2" },
    variants: { type: "boolean", default: false },
    only: { type: "string" },
    bin: { type: "string", default: "/usr/lib/postgresql/15/bin" },
    "profile-out": { type: "string" },
    "profile-variant-out": { type: "string" },
  },
});
const N = Number(opts.transactions);
const log = (...args) => console.error("[bench:pos-instructions]", ...args);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const asPostgres = (cmd, args, options = {}) => spawn("runuser", ["-u", "postgres", "--", cmd, ...args], options);
const asPostgresSync = (cmd, args) => {
  const r = spawnSync("runuser", ["-u", "postgres", "--", cmd, ...args], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${cmd} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "bench-pos-instr-"));
  chmodSync(dir, 0o777);
  const data = path.join(dir, "data");
  const port = await freePort();
  const url = (db) => `postgres://postgres@127.0.0.1:${port}/${db}`;
  let server = null;
  const start = async (underValgrind) => {
    const args = [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "fsync=off",
      "-c",
      "autovacuum=off",
      "-c",
      "max_connections=20",
    ];
    server = underValgrind
      ? asPostgres("valgrind", [
          "--tool=callgrind",
          `--callgrind-out-file=${dir}/cg.%p`,
          "--dump-instr=no",
          "--collect-jumps=no",
          path.join(opts.bin, "postgres"),
          ...args,
        ])
      : asPostgres(path.join(opts.bin, "postgres"), args);
    let out = "";
    server.stderr.on("data", (d) => (out += d));
    for (let i = 0; i < 600; i++) {
      const ready = spawnSync(path.join(opts.bin, "pg_isready"), ["-h", "127.0.0.1", "-p", String(port)]);
      if (ready.status === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`the private cluster did not start:\n${out}`);
  };
  const stop = async () => {
    if (!server) return;
    const exited = new Promise((resolve) => server.on("exit", resolve));
    asPostgresSync(path.join(opts.bin, "pg_ctl"), ["-D", data, "-m", "fast", "-t", "300", "stop"]);
    await exited;
    server = null;
  };
  try {
    log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}; cluster in ${dir}`,
    );
    asPostgresSync(path.join(opts.bin, "initdb"), ["-D", data, "-U", "postgres", "-A", "trust", "--no-sync"]);
    await start(false);
    const admin = postgres(url("postgres"), { max: 1, onnotice: () => {} });
    await admin`create database app`;
    await admin`create database tpcb`;
    await admin.end();
    const app = postgres(url("app"), { max: 1, onnotice: () => {} });
    await migrate(drizzle(app), { migrationsFolder: migrations });
    await app.end();
    await seedPos(url("app"));
    const [, file] = await writeSameWorkScripts(url("app"), dir);
    const script = readFileSync(file, "utf8");
    spawnSync("pgbench", ["-i", "-q", "-s", "1", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "tpcb"]);
    // A warm-up outside valgrind: the purchase's tables get their first rows.
    spawnSync("pgbench", [
      "-n",
      "-M",
      "prepared",
      "-t",
      "200",
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-U",
      "postgres",
      "-f",
      file,
      "app",
    ]);
    await stop();
    await start(true);
    let seed = 1;
    let lastFile = null;
    /** Instructions per transaction of one pgbench run on one connection. */
    const counted = async (db, args) => {
      const before = new Set(readdirSync(dir).filter((f) => f.startsWith("cg.")));
      const run = spawnSync(
        "pgbench",
        ["-n", "-M", "prepared", "-c", "1", "-t", String(N), `--random-seed=${seed++}`, ...args],
        {
          env: { ...process.env, PGHOST: "127.0.0.1", PGPORT: String(port), PGUSER: "postgres", PGDATABASE: db },
          encoding: "utf8",
        },
      );
      if (run.status !== 0 || /failed transactions: [1-9]/.test(run.stdout)) {
        throw new Error(`pgbench failed:\n${run.stdout}\n${run.stderr}`);
      }
      // The backends' files are written when they exit, just after pgbench disconnects: pgbench's first
      // connection (no transactions) and the run's; the largest is the run's.
      let seen = -1;
      for (let i = 0; i < 300; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const files = readdirSync(dir).filter(
          (f) => f.startsWith("cg.") && !before.has(f) && /^totals: \d+/m.test(readFileSync(path.join(dir, f), "utf8")),
        );
        const totals = files.map((f) => Number(/^totals: (\d+)/m.exec(readFileSync(path.join(dir, f), "utf8"))?.[1]));
        if (totals.length > 0 && totals.length === seen) {
          const largest = Math.max(...totals);
          lastFile = path.join(dir, files[totals.indexOf(largest)]);
          return largest / N;
        }
        seen = totals.length;
      }
      throw new Error("no callgrind file for the run");
    };
    const sqlOn = async (text) => {
      const c = postgres(url("app"), { max: 1, onnotice: () => {} });
      try {
        await c.unsafe(text);
      } finally {
        await c.end();
      }
    };
    const tpcb = await counted("tpcb", []);
    const base = await counted("app", ["-f", file]);
    // --profile-out FILE: the purchase run's callgrind file, for callgrind_annotate --inclusive=yes.
    if (opts["profile-out"]) copyFileSync(lastFile, opts["profile-out"]);
    log(
      `purchase ${(base / 1e6).toFixed(2)} M instructions, TPC-B ${(tpcb / 1e6).toFixed(2)} M: ×${(base / tpcb).toFixed(2)}`,
    );
    // The updates of the warm-up and the run: how many were HOT (no new index entries) per table a purchase updates.
    const stats = postgres(url("app"), { max: 1, onnotice: () => {} });
    const hot = await stats`select relname as table, n_tup_upd::int as updates, n_tup_hot_upd::int as hot
      from pg_stat_user_tables where n_tup_upd > 0 order by n_tup_upd desc`;
    await stats.end();
    log(`updates (HOT / all): ${hot.map((t) => `${t.table} ${t.hot}/${t.updates}`).join(", ")}`);
    const rows = [{ name: "(none)", purchase: base, tpcb, ratio: base / tpcb, hot }];
    if (opts.variants) {
      let variantNumber = 0;
      for (const [name, off, on, altered] of variants(script).filter(([n]) => !opts.only || n.includes(opts.only))) {
        let variantFile = file;
        if (altered) {
          variantFile = path.join(dir, "variant.sql");
          writeFileSync(variantFile, altered);
        }
        const as = [];
        const vs = [];
        for (let round = 0; round < Number(opts.rounds); round++) {
          as.push(await counted("app", ["-f", file]));
          if (off) await sqlOn(off);
          try {
            vs.push(await counted("app", ["-f", variantFile]));
          } finally {
            if (on) await sqlOn(on);
          }
        }
        variantNumber++;
        if (opts["profile-variant-out"]) copyFileSync(lastFile, `${opts["profile-variant-out"]}${variantNumber}.cg`);
        const saved = median(as.map((a, i) => a - vs[i]));
        rows.push({ name, purchase: median(as), variant: median(vs), saved, savedShare: saved / median(as) });
        log(
          `${name}: ${(median(vs) / 1e6).toFixed(2)} M against ${(median(as) / 1e6).toFixed(2)} M ` +
            `(${as.map((a, i) => `${(a / 1e6).toFixed(2)}/${(vs[i] / 1e6).toFixed(2)}`).join(", ")}); ` +
            `saves ${(saved / 1e6).toFixed(2)} M (${((100 * saved) / median(as)).toFixed(1)} %)`,
        );
      }
    }
    console.log(JSON.stringify(rows, null, 2));
  } finally {
    await stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
