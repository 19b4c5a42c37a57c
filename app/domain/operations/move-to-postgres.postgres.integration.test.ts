import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DatabaseHandle, openDatabase, rowsOf } from "@platform/db/client";
import { loyaltyAccount, member, pointEntry } from "@platform/db/schema";
import { createTestDatabase, type TestDatabase } from "@platform/testing/database";
import { eq, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit, verifyAuditChain } from "../audit/audit.server";
import { seedCatalog } from "../demo";
import { bookHistory, realisticHistory, seedDemoRewards } from "../demo/member-history";
import { checkLedger } from "../loyalty/ledger-check.server";
import { newMember } from "../loyalty/testing.server";
import { runMoveToPostgres } from "./commands.server";
import { MoveRefused, moveToPostgres } from "./move-to-postgres.server";

/**
 * The move from the embedded database into PostgreSQL, on a file-backed PGlite source with members
 * and a year of history each, into fresh PostgreSQL databases (TEST_DATABASE_URL).
 */
const dirs: string[] = [];
const targets: TestDatabase[] = [];

async function sourceWithHistory(members: number): Promise<{ dataDir: string; memberIds: string[] }> {
  const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "move-source-")), "pglite");
  dirs.push(path.dirname(dataDir));
  const source = await openDatabase({ kind: "pglite", dataDir });
  try {
    await source.migrate();
    await seedCatalog(source.db);
    await seedDemoRewards(source.db);
    const memberIds: string[] = [];
    for (let i = 0; i < members; i++) {
      const created = await newMember(source.db);
      await bookHistory(
        source.db,
        created.id,
        realisticHistory(new Date(), {
          entries: 40,
          coupons: 5,
          months: 13,
          seed: 11,
          prefix: `M${i}`,
          amountScale: 0.45,
        }),
      );
      memberIds.push(created.id);
    }
    // Console and POS writes leave a hash-chained audit trail; the move must keep it verifiable.
    for (const [i, memberId] of memberIds.entries()) {
      await source.db.transaction(async (tx) => {
        await recordAudit(tx, {
          context: { actorType: "system", label: "move-test", ip: null, userAgent: null, requestId: null },
          action: "member.note_added",
          targetType: "member",
          targetId: memberId,
          after: { note: `note ${i}` },
        });
      });
    }
    // Sign-ups draw member numbers from this sequence; the move must carry its position along.
    await source.db.execute(sql`select nextval('member_number_seq') from generate_series(1, 3)`);
    return { dataDir, memberIds };
  } finally {
    await source.close();
  }
}

async function freshTarget(): Promise<TestDatabase> {
  const target = await createTestDatabase({ label: "move_target" });
  if (!target.url) throw new Error("This file needs TEST_DATABASE_URL (PostgreSQL)");
  targets.push(target);
  return target;
}

async function relationCount(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql<{ n: number }[]>`
      select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'S') and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;
    return row?.n ?? 0;
  } finally {
    await sql.end({ timeout: 5 });
  }
}

let source: { dataDir: string; memberIds: string[] };

beforeAll(async () => {
  source = await sourceWithHistory(2);
}, 120_000);

afterAll(async () => {
  for (const t of targets) await t.drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("npm run db:move-to-postgres", () => {
  it("copies every row, keeps every balance and leaves sequences past the copied values", async () => {
    const target = await freshTarget();
    const lines: string[] = [];
    const report = await moveToPostgres({
      sourceDataDir: source.dataDir,
      targetUrl: target.url as string,
      progress: (l) => lines.push(l),
    });
    expect(report.members).toBe(2);
    expect(report.tables.find((t) => t.name === '"public"."point_entry"')?.rows).toBeGreaterThan(20);
    expect(report.tables.find((t) => t.name === '"public"."loyalty_rules"')?.rows).toBe(1);
    expect(report.auditRows).toBe(2);
    expect(lines).toContain("Verifying the target's audit log (its hash chain)…");

    const before = await openDatabase({ kind: "pglite", dataDir: source.dataDir });
    const after = await openDatabase(target.config);
    try {
      for (const memberId of source.memberIds) {
        const [a] = await before.db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId));
        const [b] = await after.db.select().from(loyaltyAccount).where(eq(loyaltyAccount.memberId, memberId));
        expect(b).toEqual(a);
      }
      expect((await checkLedger(after.db)).mismatches).toEqual([]);
      expect(await verifyAuditChain(after.db)).toEqual({ ok: true, rows: 2, lastSeq: 2 });
      expect(await after.migrationStatus()).toMatchObject({ upToDate: true });
      // The next member number and rules id follow the copied ones instead of colliding with them.
      const fresh = await newMember(after.db);
      expect(fresh.id).toBeTruthy();
      const [next] = rowsOf<{ n: string }>(await after.db.execute(sql`select nextval('member_number_seq')::text as n`));
      const [last] = rowsOf<{ n: string }>(
        await before.db.execute(sql`select last_value::text as n from member_number_seq`),
      );
      expect(BigInt(next?.n ?? 0)).toBeGreaterThan(BigInt(last?.n ?? 0));
      const [rules] = rowsOf<{ id: number }>(
        await after.db.execute(sql`insert into loyalty_rules (note) values ('after the move') returning id`),
      );
      expect(Number(rules?.id)).toBe(2);
    } finally {
      await before.close();
      await after.close();
    }
  }, 120_000);

  it("refuses a target that is not empty, writing nothing", async () => {
    const target = await freshTarget();
    const sql = postgres(target.url as string, { max: 1, onnotice: () => {} });
    await sql`create table customer_notes (id int primary key)`;
    await sql.end();
    const refusal = moveToPostgres({ sourceDataDir: source.dataDir, targetUrl: target.url as string });
    await expect(refusal).rejects.toMatchObject({ code: "target_not_empty" });
    await expect(refusal).rejects.toThrow(/not empty.*customer_notes/);
    expect(await relationCount(target.url as string)).toBe(1);
  });

  it("refuses a target with an older schema of this app, writing nothing", async () => {
    const target = await freshTarget();
    const handle = await openDatabase(target.config);
    await handle.migrate();
    await handle.db.execute(
      sql`delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations)`,
    );
    await handle.close();
    const relations = await relationCount(target.url as string);
    await expect(
      moveToPostgres({ sourceDataDir: source.dataDir, targetUrl: target.url as string }),
    ).rejects.toMatchObject({
      code: "target_older_schema",
    });
    expect(await relationCount(target.url as string)).toBe(relations);
  });

  it("refuses a source the app still has open", async () => {
    const target = await freshTarget();
    const running: DatabaseHandle = await openDatabase({ kind: "pglite", dataDir: source.dataDir });
    try {
      const refusal = moveToPostgres({ sourceDataDir: source.dataDir, targetUrl: target.url as string });
      await expect(refusal).rejects.toMatchObject({ code: "source_open" });
      await expect(refusal).rejects.toThrow(/open in another process.*Stop the app first/);
    } finally {
      await running.close();
    }
    expect(await relationCount(target.url as string)).toBe(0);
  });

  it("reports a broken ledger row with the member and the difference, and copies nothing", async () => {
    const broken = await sourceWithHistory(1);
    const handle = await openDatabase({ kind: "pglite", dataDir: broken.dataDir });
    const [victim] = broken.memberIds;
    await handle.db
      .update(loyaltyAccount)
      .set({ balance: sql`${loyaltyAccount.balance} + 37` })
      .where(eq(loyaltyAccount.memberId, victim as string));
    const [row] = await handle.db
      .select({ number: member.memberNumber })
      .from(member)
      .where(eq(member.id, victim as string));
    const [sum] = await handle.db
      .select({ s: sql<string>`sum(${pointEntry.amount})` })
      .from(pointEntry)
      .where(eq(pointEntry.memberId, victim as string));
    await handle.close();

    const target = await freshTarget();
    const error = await moveToPostgres({ sourceDataDir: broken.dataDir, targetUrl: target.url as string }).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(MoveRefused);
    expect(error.code).toBe("ledger_broken");
    expect(error.mismatches).toEqual([
      expect.objectContaining({
        memberId: victim,
        memberNumber: row?.number,
        ledgerSum: Number(sum?.s),
        difference: 37,
      }),
    ]);
    expect(error.message).toContain(`member ${row?.number}`);
    expect(error.message).toContain("difference +37");
    expect(await relationCount(target.url as string)).toBe(0);
  }, 120_000);

  it("refuses a source whose audit log was altered, naming the row, and copies nothing", async () => {
    const tampered = await sourceWithHistory(1);
    const handle = await openDatabase({ kind: "pglite", dataDir: tampered.dataDir });
    await handle.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await handle.db.execute(sql`update audit_log set target_id = 'someone-else' where seq = 1`);
    await handle.close();
    const target = await freshTarget();
    const refusal = moveToPostgres({ sourceDataDir: tampered.dataDir, targetUrl: target.url as string });
    await expect(refusal).rejects.toMatchObject({ code: "audit_broken" });
    await expect(refusal).rejects.toThrow(/audit log does not verify: row 1 \(hash_mismatch\)/);
    expect(await relationCount(target.url as string)).toBe(0);
  }, 120_000);

  it("as a command: prints the summary and exits 0; a refusal is one clear message and exit 1; bad usage exits 2", async () => {
    const run = async (args: string[], dataDir: string) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runMoveToPostgres(
        args,
        { DATA_DIR: path.dirname(dataDir) },
        { log: (l: string) => out.push(l), error: (l: string) => err.push(l) },
      );
      return { code, out: out.join("\n"), err: err.join("\n") };
    };
    const target = await freshTarget();
    const moved = await run([target.url as string], source.dataDir);
    expect(moved.code).toBe(0);
    expect(moved.out).toContain("Moved the embedded database to PostgreSQL.");
    expect(moved.out).toMatch(/Verified: row counts of every table; 2 members, every balance equals its ledger/);
    expect(moved.out).toContain("the audit log's 2 rows verify as one hash chain");
    expect(moved.err).toBe("");

    const again = await run([target.url as string], source.dataDir);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(/already has this app's schema/);

    const broken = await sourceWithHistory(1);
    const handle = await openDatabase({ kind: "pglite", dataDir: broken.dataDir });
    await handle.db.update(loyaltyAccount).set({ balance: sql`${loyaltyAccount.balance} - 5` });
    await handle.close();
    const refused = await run([(await freshTarget()).url as string], broken.dataDir);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/ledger is inconsistent for 1 member\(s\).*\n.*difference -5/s);

    expect((await run([], source.dataDir)).code).toBe(2);
    expect((await run(["mysql://x"], source.dataDir)).code).toBe(2);
  }, 180_000);
});
