// The yardsticks of `npm run bench:pos -- --ceiling`: a bare HTTP server (node:http, no framework, no checks) that
// takes the same POST /api/v1/purchases bodies as the app and answers 201 with a small JSON body, doing either
//   CEILING_MODE=http  nothing else: what HTTP and the load generator alone leave of the machine, or
//   CEILING_MODE=tpcb  pgbench's own TPC-B-like transaction on the pgbench database (DATABASE_URL), statement for
//                      statement as `pgbench -b tpcb-like` sends it (BEGIN, 3 updates, a select, an insert, END),
//                      each prepared, through postgres.js with 10 connections like the app's pool.
//   CEILING_MODE=purchase  the purchase's own statements (bench/pos-same-work.js's pgbench script, with
//                      `--same-work`) on the app's database: the same statements with the same values, in the same
//                      pipelines (\startpipeline … \endpipeline become statements sent together on one reserved
//                      connection, as the app's held connection sends them), prepared, 10 connections. What any
//                      Node server sending a purchase's SQL through postgres.js could reach, with nothing of the app
//                      around it: no framework, validation, key, limit, log line or answer's JSON beyond a small one.
// So the bench can say what share of pgbench's rate a purchase could reach at best on this machine: a purchase does
// everything the tpcb mode does (more statements, not fewer) plus the key, the limit, validation, the idempotency
// record and the audit row.
import http from "node:http";
import process from "node:process";
import postgres from "postgres";
import { purchaseScript } from "./pos-same-work.js";

const mode = process.env.CEILING_MODE;
if (mode !== "http" && mode !== "tpcb" && mode !== "purchase") throw new Error("CEILING_MODE: http, tpcb or purchase");
const sql = mode === "http" ? null : postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} });
/** pgbench -s 1: 100,000 accounts, 10 tellers, 1 branch. */
const SCALE = 1;
const random = (from, to) => from + Math.floor(Math.random() * (to - from + 1));

async function tpcb() {
  const aid = random(1, 100_000 * SCALE);
  const bid = random(1, SCALE);
  const tid = random(1, 10 * SCALE);
  const delta = random(-5000, 5000);
  return sql.begin(async (tx) => {
    await tx`UPDATE pgbench_accounts SET abalance = abalance + ${delta} WHERE aid = ${aid}`;
    const [row] = await tx`SELECT abalance FROM pgbench_accounts WHERE aid = ${aid}`;
    await tx`UPDATE pgbench_tellers SET tbalance = tbalance + ${delta} WHERE tid = ${tid}`;
    await tx`UPDATE pgbench_branches SET bbalance = bbalance + ${delta} WHERE bid = ${bid}`;
    await tx`INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (${tid}, ${bid}, ${aid}, ${delta}, CURRENT_TIMESTAMP)`;
    return row.abalance;
  });
}

/**
 * The same-work script as steps a request runs: `set` (pgbench's \set, the two forms the script uses), `one` (a
 * statement alone, its first row's columns kept as variables when it ends in \gset) and `pipeline` (statements sent
 * together). `:name` becomes a numbered parameter (pgbench substitutes the value as text; here it goes prepared).
 */
function compile(script) {
  const steps = [];
  let pipeline = null;
  const statement = (line) => {
    const gset = line.endsWith("\\gset");
    const text = gset ? line.slice(0, -"\\gset".length).trim() : line;
    const names = [];
    // One parameter per occurrence: pgbench pastes the value as text, so `:points` may be an integer in one place
    // and `:points::text` in another, which one parameter cannot be.
    const parameterised = text.replace(/(?<!:):([a-z_]+)/g, (_, name) => `$${names.push(name)}`);
    return { text: parameterised.replace(/;$/, ""), names, gset };
  };
  for (const line of script.split("\n").filter(Boolean)) {
    if (line.startsWith("\\set ")) {
      const [, name, expr] = /^\\set (\w+) (.*)$/.exec(line);
      const range = /^random\((-?\d+), (-?\d+)\)$/.exec(expr);
      const divided = /^:(\w+) \/ (\d+)$/.exec(expr);
      if (range) steps.push({ set: name, value: () => random(Number(range[1]), Number(range[2])) });
      else if (divided) steps.push({ set: name, value: (vars) => Math.trunc(vars[divided[1]] / Number(divided[2])) });
      else throw new Error(`pos-ceiling-server: \\set ${expr} is not understood`);
    } else if (line === "\\startpipeline") pipeline = [];
    else if (line === "\\endpipeline") {
      steps.push({ pipeline });
      pipeline = null;
    } else if (pipeline) pipeline.push(statement(line));
    else steps.push({ one: statement(line) });
  }
  return steps;
}

let steps = null;
let clients = 0;
async function purchase() {
  steps ??= compile(purchaseScript(Number((await sql`select count(*)::int as n from bench_key`)[0].n)));
  const vars = { client_id: clients++ % 10 };
  const connection = await sql.reserve();
  const run = async ({ text, names, gset }) => {
    const rows = await connection.unsafe(
      text,
      names.map((n) => vars[n]),
      { prepare: true },
    );
    if (gset) Object.assign(vars, rows[0]);
  };
  try {
    for (const step of steps) {
      if (step.set) vars[step.set] = step.value(vars);
      else if (step.one) await run(step.one);
      else await Promise.all(step.pipeline.map(run));
    }
  } catch (error) {
    await connection.unsafe("rollback").catch(() => undefined);
    throw error;
  } finally {
    connection.release();
  }
  return 0;
}

/** The first failure goes to stderr (the bench's), so a broken ceiling says why. */
let reported = false;
const server = http.createServer((req, res) => {
  if (req.url === "/readyz") {
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    return;
  }
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const balance = mode === "tpcb" ? await tpcb() : mode === "purchase" ? await purchase() : 0;
      const answer = JSON.stringify({ receiptNumber: body.receiptNumber ?? null, balance });
      res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
      res.end(answer);
    } catch (error) {
      if (!reported) {
        reported = true;
        console.error("pos-ceiling-server:", mode, error);
      }
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  sql?.end({ timeout: 1 });
});
