import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, rowsOf } from "@platform/db/client";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runImportCsv, runImportFirebase } from "../app/domain/imports/cli.server";

// `npm run import:csv` and `npm run import:firebase` (ADR 038) on a database of their own: the commands open the
// embedded database from DATA_DIR as the scripts do, so PGlite is opened only between commands.
let dataDir: string;
let testDb: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "import-cli-"));
  testDb = await createTestDatabase({ label: "import-cli", pgliteDataDir: path.join(dataDir, "pglite") });
  env = { DATA_DIR: dataDir, DATABASE_URL: testDb.url ?? "" };
  const database = await openDatabase(testDb.config);
  await database.migrate();
  await database.close();
});

afterAll(async () => {
  await testDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs a command, collecting what it prints. */
async function run(
  command: typeof runImportCsv,
  argv: string[],
): Promise<{ code: number; out: string[]; err: string[]; all: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(
    argv,
    env,
    { log: (l) => out.push(l), error: (l) => err.push(l) },
    { progressEveryMs: 50, batchSize: 2 },
  );
  return { code, out, err, all: [...out, ...err].join("\n") };
}

async function query<T>(statement: ReturnType<typeof sql>): Promise<T[]> {
  const database = await openDatabase(testDb.config);
  try {
    return rowsOf<T>(await database.db.execute(statement));
  } finally {
    await database.close();
  }
}

const file = (name: string, content: string | Buffer) => {
  const target = path.join(dataDir, name);
  writeFileSync(target, content);
  return target;
};

describe("import commands", { timeout: 180_000 }, () => {
  it("refuse bad arguments and unreadable files in one line, exit 2, before opening the database", async () => {
    const usage = await run(runImportCsv, ["--file", "x.csv"]);
    expect(usage.code).toBe(2);
    expect(usage.err.join("\n")).toMatch(/^--source is required.*\nusage: npm run import:csv/s);
    const unknown = await run(runImportFirebase, ["--auth", "u.json", "--members", "m.json", "--hash", "h.json"]);
    expect(unknown).toMatchObject({ code: 2 });
    expect(unknown.err[0]).toMatch(/Unknown option '--hash'/);
    const missing = await run(runImportCsv, ["--file", path.join(dataDir, "nope.csv"), "--source", "shopline"]);
    expect(missing).toMatchObject({ code: 2, out: [] });
    expect(missing.err).toEqual([`--file ${path.join(dataDir, "nope.csv")}: no such file`]);
    const folder = await run(runImportCsv, ["--file", dataDir, "--source", "shopline"]);
    expect(folder.err).toEqual([`--file ${dataDir}: not a file`]);
  });

  it("refuse a file that is not CSV, or truncated JSON, in one line (exit 2), staging nothing", async () => {
    const binary = file("photo.csv", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0xff, 0xfe]));
    const notCsv = await run(runImportCsv, ["--file", binary, "--source", "shopline"]);
    expect(notCsv.code).toBe(2);
    expect(notCsv.err).toHaveLength(1);
    expect(notCsv.err[0]).toMatch(/^refused: /);
    expect(notCsv.all).not.toMatch(/\n\s+at /);

    const users = file("users.json", JSON.stringify({ users: [] }));
    const truncated = file(
      "members-truncated.json",
      '[{"documentId":"a","phoneNumber":"0912345678"},{"documentId":"b"',
    );
    const cut = await run(runImportFirebase, ["--auth", users, "--members", truncated]);
    expect(cut.code).toBe(2);
    expect(cut.err).toHaveLength(1);
    expect(cut.err[0]).toMatch(/^refused: /);

    const badHash = file("hash.json", '{"rounds": "eight"}');
    const hash = await run(runImportFirebase, ["--auth", users, "--members", truncated, "--hash-config", badHash]);
    expect(hash.code).toBe(2);
    expect(hash.err[0]).toMatch(/^--hash-config .*: not Firebase's password hash parameters/);
    const [staged] = await query<{ runs: number }>(sql`select count(*)::int as runs from import_run`);
    expect(staged?.runs).toBe(0);
  });

  const csv = [
    "會員編號,手機,姓名,點數,點數到期日,備註",
    "A001,0912-000-001,王小明,120,2030-12-31,常客",
    "A002,0912000002,陳美玲,30,,",
    "A003,02-2345-6789,林志豪,50,,市話",
    "A004,0912000004,黃淑芬,-5,,負點",
    "A005,0912000002,張家豪,10,,同手機",
    'A006,=1+2,"=HYPERLINK(""x"")",30,,',
  ].join("\r\n");
  const map = "會員編號=externalId,手機=phoneNumber,姓名=nameZh,點數=points,點數到期日=pointsLastDay";

  it("import:csv: dry run reports by plan and problem in words and writes the rejected rows beside the file", async () => {
    const input = file("shopline.csv", `${csv}\r\n`);
    const dry = await run(runImportCsv, ["--file", input, "--source", "shopline", "--map", map, "--dry-run"]);
    expect(dry.err).toEqual([]);
    expect(dry.code).toBe(0);
    expect(dry.all).toMatch(/^staged: 6 rows from shopline\.csv/m);
    expect(dry.all).toMatch(
      /^mapping: 會員編號=externalId,手機=phoneNumber,姓名=nameZh,點數=points,點數到期日=pointsLastDay,備註=ignore$/m,
    );
    expect(dry.all).toMatch(
      /^dry run: 6 rows in [\d.]+ s — create 2, merge 0, unchanged: 0, reject 4; opening balances 150 points$/m,
    );
    expect(dry.all).toMatch(/phone_invalid +2 {2}the phone is not a Taiwan mobile number/);
    expect(dry.all).toMatch(/points_invalid +1/);
    expect(dry.all).toMatch(/duplicate_in_file +1/);
    expect(dry.all).toMatch(/^dry run only: no member was written/m);
    const rejected = readFileSync(`${input}.rejected.csv`, "utf8");
    expect(rejected).toMatch(/A003/);
    expect(rejected).toMatch(/points_invalid/);
    const [written] = await query<{ members: number }>(sql`select count(*)::int as members from member`);
    expect(written?.members).toBe(0);
  });

  it("import:csv applies (the staged run, with progress lines), and a rerun of the same file is unchanged", async () => {
    const input = path.join(dataDir, "shopline.csv");
    rmSync(`${input}.rejected.csv`);
    const applied = await run(runImportCsv, ["--file", input, "--source", "shopline", "--map", map]);
    expect(applied.err).toEqual([]);
    expect(applied.code).toBe(0);
    expect(applied.all).toMatch(/^staged before: run [0-9a-f-]{36}/m);
    expect(applied.all).toMatch(/^applying: 6 rows$/m);
    expect(applied.all).toMatch(/^done in [\d.]+ s: created 2, merged 0, unchanged: 0, rejected 4; 150 points booked/m);
    expect(existsSync(`${input}.rejected.csv`)).toBe(true);
    // Formula cells neutralised in the rejected rows; the problems in words.
    const rejected = readFileSync(`${input}.rejected.csv`, "utf8");
    expect(rejected).toMatch(/"'=HYPERLINK\(""x""\)"/);
    expect(rejected).toMatch(/"'=1\+2"/);
    expect(rejected).not.toMatch(/(^|,)"?[=+]/m);
    expect(rejected).toMatch(/the points are negative or not a whole number/);

    const again = await run(runImportCsv, ["--file", input, "--source", "shopline", "--map", map]);
    expect(again.code).toBe(0);
    expect(again.all).toMatch(/^staged: 6 rows/m);
    expect(again.all).toMatch(/^done in [\d.]+ s: created 0, merged 0, unchanged: 2, rejected 4; 0 points booked/m);
    const [ledger] = await query<{ entries: number; points: number }>(
      sql`select count(*)::int as entries, coalesce(sum(amount), 0)::int as points from point_entry where kind = 'import'`,
    );
    expect(ledger).toEqual({ entries: 2, points: 150 });
  });

  it("import:csv without --map prints the guessed mapping; another import running refuses in one line", async () => {
    const input = file("guess.csv", "手機,姓名,點數\r\n0912000099,吳宗翰,5\r\n");
    const dry = await run(runImportCsv, ["--file", input, "--source", "cyberbiz", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.all).toMatch(/^mapping \(guessed from the headers; pass --map to change it\): 手機=phoneNumber/m);

    const database = await openDatabase(testDb.config);
    try {
      await database.db.execute(
        sql`insert into import_run (kind, source, status, file_sha256, heartbeat_at) values ('csv', 'other', 'running', 'x', now())`,
      );
    } finally {
      await database.close();
    }
    const busy = await run(runImportCsv, ["--file", input, "--source", "cyberbiz"]);
    expect(busy.code).toBe(2);
    expect(busy.err).toHaveLength(1);
    expect(busy.err[0]).toMatch(/^another import is running \(run [0-9a-f-]{36}, source other\)/);
    await query(sql`update import_run set status = 'failed' where source = 'other'`);
  });

  it("import:firebase: members with their auth users (no hash config: claimed by SMS code), rerun unchanged", async () => {
    const users = file(
      "fb-users.json",
      JSON.stringify({
        users: [
          { localId: "u1", email: "one@example.com", emailVerified: true, createdAt: "1600000000000" },
          {
            localId: "u2",
            email: "two@example.com",
            providerUserInfo: [{ providerId: "oidc.line", rawId: "U0123456789abcdef0123456789abcdef" }],
          },
        ],
      }),
    );
    const members = file(
      "memberList.ndjson",
      [
        { documentId: "d1", userEmailId: "u1", name: { zh: "周杰" }, phoneNumber: "0913000001", memberLevel: "silver" },
        { documentId: "d2", userEmailId: "u2", name: { zh: "蔡依" }, phoneNumber: "0913000002", memberLevel: "basic" },
        { documentId: "d3", userEmailId: "u9", name: { zh: "無號" } },
      ]
        .map((d) => JSON.stringify(d))
        .join("\n"),
    );
    const dry = await run(runImportFirebase, ["--auth", users, "--members", members, "--dry-run"]);
    expect(dry.err).toEqual([]);
    expect(dry.code).toBe(0);
    expect(dry.all).toMatch(/^staged: 3 member documents from memberList\.ndjson/m);
    expect(dry.all).toMatch(/^dry run: 3 rows .* create 2, merge 0, unchanged: 0, reject 1/m);
    expect(dry.all).toMatch(/^passwords: none imported/m);

    const applied = await run(runImportFirebase, ["--auth", users, "--members", members]);
    expect(applied.code).toBe(0);
    expect(applied.all).toMatch(/^done in [\d.]+ s: created 2, merged 0, unchanged: 0, rejected 1/m);
    expect(existsSync(`${members}.rejected.csv`)).toBe(true);
    const again = await run(runImportFirebase, ["--auth", users, "--members", members]);
    expect(again.code).toBe(0);
    expect(again.all).toMatch(/unchanged: 2, rejected 1/);
    const [audit] = await query<{ runs: number }>(
      sql`select count(*)::int as runs from audit_log
           where action = 'import.completed' and actor_role = 'cli' and changes::text like '%"firebase"%'`,
    );
    // One audit row per run that ended (the apply and the rerun; the dry run's run was the one applied).
    expect(audit?.runs).toBe(2);
  });
  it("a stopped command-line import resumes when the same command is run again, booking nothing twice", async () => {
    const rows = Array.from({ length: 12 }, (_, i) => `R${i + 1},09140000${String(i + 10)},會員${i + 1},10`);
    const input = file("resume.csv", `會員編號,手機,姓名,點數\r\n${rows.join("\r\n")}\r\n`);
    const argv = [
      "--file",
      input,
      "--source",
      "pos",
      "--map",
      "會員編號=externalId,手機=phoneNumber,姓名=nameZh,點數=points",
    ];
    // Stopped as Ctrl-C stops it: between batches, at the first progress line (or before any batch).
    const stop = new AbortController();
    const lines: string[] = [];
    const stopped = await runImportCsv(
      argv,
      env,
      {
        log: (l) => {
          lines.push(l);
          if (l.startsWith("applying:") || l.startsWith("  ")) stop.abort();
        },
        error: (l) => lines.push(l),
      },
      { progressEveryMs: 20, batchSize: 2, signal: stop.signal },
    );
    expect(stopped).toBe(1);
    expect(lines.join("\n")).toMatch(/^stopped \(running\) .* run the same command again to resume$/m);
    // Run again at once: the run still looks alive (its heartbeat is fresh), so it is refused, not applied twice.
    const live = await run(runImportCsv, argv);
    expect(live.code).toBe(2);
    expect(live.err[0]).toMatch(/^this file is being imported right now/);
    // The process "died" a while ago: the same command resumes it.
    await query(sql`update import_run set heartbeat_at = now() - interval '10 minutes' where source = 'pos'`);
    const resumed = await run(runImportCsv, argv);
    expect(resumed.err).toEqual([]);
    expect(resumed.code).toBe(0);
    expect(resumed.all).toMatch(/^resuming run [0-9a-f-]{36} \(running; same source and file SHA-256\)$/m);
    expect(resumed.all).toMatch(/^done in .*rejected 0; /m);
    const [ledger] = await query<{ entries: number; points: number; runs: number }>(
      sql`select count(*)::int as entries, coalesce(sum(e.amount), 0)::int as points,
                 (select count(*)::int from import_run where source = 'pos') as runs
            from point_entry e join member_source s on s.member_id = e.member_id
           where e.kind = 'import' and s.source = 'pos'`,
    );
    expect(ledger).toEqual({ entries: 12, points: 120, runs: 1 });
  });
});
