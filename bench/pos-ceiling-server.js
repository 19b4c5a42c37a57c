// The yardsticks of `npm run bench:pos -- --ceiling`: a bare HTTP server (node:http, no framework, no checks) that
// takes the same POST /api/v1/purchases bodies as the app and answers 201 with a small JSON body, doing either
//   CEILING_MODE=http  nothing else: what HTTP and the load generator alone leave of the machine, or
//   CEILING_MODE=tpcb  pgbench's own TPC-B-like transaction on the pgbench database (DATABASE_URL), statement for
//                      statement as `pgbench -b tpcb-like` sends it (BEGIN, 3 updates, a select, an insert, END),
//                      each prepared, through postgres.js with 10 connections like the app's pool.
// So the bench can say what share of pgbench's rate a purchase could reach at best on this machine: a purchase does
// everything the tpcb mode does (more statements, not fewer) plus the key, the limit, validation, the idempotency
// record and the audit row.
import http from "node:http";
import process from "node:process";
import postgres from "postgres";

const mode = process.env.CEILING_MODE;
if (mode !== "http" && mode !== "tpcb") throw new Error("CEILING_MODE: http or tpcb");
const sql = mode === "tpcb" ? postgres(process.env.DATABASE_URL, { max: 10, onnotice: () => {} }) : null;
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
      const balance = mode === "tpcb" ? await tpcb() : 0;
      const answer = JSON.stringify({ receiptNumber: body.receiptNumber ?? null, balance });
      res.writeHead(201, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) });
      res.end(answer);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
    }
  });
});
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  sql?.end({ timeout: 1 });
});
