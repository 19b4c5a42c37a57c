import { createHash } from "node:crypto";
import type { Database } from "@platform/db/client";
import {
  auditLog,
  authAccount,
  authUser,
  importRun,
  loyaltyAccount,
  member,
  memberSource,
  pointEntry,
} from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { isFirebaseHash } from "../auth/firebase-hash-format";
import { firebaseScryptHash } from "../auth/firebase-scrypt.server";
import { checkLedger } from "../loyalty/ledger-check.server";
import { ledgerTotals, newMember } from "../loyalty/testing.server";
import { isRefusal } from "../refusals";
import type { FirebaseHashConfig } from "./record";
import {
  applyRun,
  cancelRun,
  checkRun,
  getRun,
  listRuns,
  previewRun,
  type RunActor,
  rejectedRows,
  setCsvMapping,
  stageCsv,
  stageFirebase,
  startRun,
} from "./runs.server";
import { csvFixture, rowsOfRun, TEST_CSV_MAPPING, textStream } from "./testing.server";

let db: Database;
useMigratedTestDatabase("imports", (handle) => {
  db = handle.db;
});

const cli: RunActor = { kind: "cli" };
const NOW = new Date("2026-12-06T04:00:00Z");
const options = { welcome: false, evaluateTiers: false };

async function refusalCode(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
  } catch (error) {
    if (isRefusal(error)) return error.code;
    throw error;
  }
  return null;
}

/** Stage → map → check → start (no job queue) → apply: the command line's path. */
async function importCsv(source: string, text: string) {
  const staged = await stageCsv(db, { source, file: textStream("members.csv", text), actor: cli });
  await setCsvMapping(db, staged.id, TEST_CSV_MAPPING, options);
  const report = await checkRun(db, staged.id, NOW);
  await startRun(db, null, staged.id, cli);
  const run = await applyRun(db, staged.id, { batchSize: 2, now: NOW });
  return { staged, report, run };
}

async function ledgerIsWhole() {
  const check = await checkLedger(db);
  expect(check.mismatches).toEqual([]);
  expect(check.totalBalance).toBe(check.totalLedger);
}

describe("CSV import: stage, check, apply, rerun", () => {
  const text = csvFixture([
    { id: "A1", phone: "0912345001", name: "陳一", email: "one@example.com", points: 120, lastDay: "2027-06-30" },
    { id: "A2", phone: "0912345002", name: "陳二", points: 0, tier: "gold" },
    { id: "A3", phone: "0912345003", name: "陳三", points: 50 },
    { id: "A4", phone: "0912345001", name: "重複", points: 10 },
    { id: "A5", phone: "not a phone", name: '=HYPERLINK("http://x")', points: 5 },
    { id: "A6", phone: "0912345006", name: "過期", points: 30, lastDay: "2025-01-31" },
    { id: "A7", phone: "0912345007", name: "負數", points: -3 },
  ]);
  let runId = "";

  it("stages the file: rows counted, SHA-256 of the bytes, nothing checked yet", async () => {
    const staged = await stageCsv(db, { source: "shopline", file: textStream("m.csv", text), actor: cli });
    runId = staged.id;
    expect(staged.rowsTotal).toBe(7);
    expect(staged.fileSha256).toBe(createHash("sha256").update(text).digest("hex"));
    expect(staged.headers).toEqual(["id", "phone", "name", "email", "points", "last_day", "tier"]);
    expect(staged.status).toBe("staged");
  });

  it("checks (dry run): plans, duplicates in the file, invalid rows, nothing written", async () => {
    await setCsvMapping(db, runId, TEST_CSV_MAPPING, options);
    const preview = await previewRun(db, runId, 3, NOW);
    expect(preview.map((p) => p.plan)).toEqual(["create", "create", "create"]);
    const report = await checkRun(db, runId, NOW);
    expect(report).toMatchObject({ rows: 7, create: 4, merge: 0, unchanged: 0, reject: 3, points: 200 });
    expect(report.problems.duplicate_in_file).toBe(1);
    expect(report.problems.phone_invalid).toBe(1);
    expect(report.problems.points_invalid).toBe(1);
    expect(report.problems.expiry_past).toBe(1);
    const rows = await rowsOfRun(db, runId);
    expect(rows.find((r) => r.externalId === "A4")?.plan).toBe("reject");
    expect(await db.select().from(memberSource)).toEqual([]);
    expect((await getRun(db, runId)).status).toBe("checked");
  });

  it("applies: members, opening balances as lots, tiers, one audit entry; past expiry booked and expired", async () => {
    await startRun(db, null, runId, cli);
    const run = await applyRun(db, runId, { batchSize: 2, now: NOW });
    expect(run).toMatchObject({ status: "done", rowsDone: 7, created: 4, merged: 0, rejected: 3, pointsBooked: 200 });
    const [one] = await db.select().from(member).where(eq(member.phoneNumber, "+886912345001"));
    expect(one).toMatchObject({ nameZh: "陳一", email: "one@example.com", marketingSms: false });
    expect(await ledgerTotals(db, one?.id ?? "")).toEqual({ balance: 120, ledgerSum: 120, lotsRemaining: 120 });
    const [entry] = await db
      .select()
      .from(pointEntry)
      .where(eq(pointEntry.memberId, one?.id ?? ""));
    expect(entry).toMatchObject({ kind: "import", idempotencyKey: "import:shopline:A1" });
    // 2027-06-30 inclusive (Taipei) → the lot ends at the start of 2027-07-01 Taipei.
    expect(entry?.lotExpiresAt?.toISOString()).toBe("2027-06-30T16:00:00.000Z");
    const [two] = await db.select().from(member).where(eq(member.phoneNumber, "+886912345002"));
    const [twoAccount] = await db
      .select()
      .from(loyaltyAccount)
      .where(eq(loyaltyAccount.memberId, two?.id ?? ""));
    expect(twoAccount?.tier).toBe("gold");
    expect(two?.memberLevel).toBe("gold");
    const [expired] = await db.select().from(member).where(eq(member.phoneNumber, "+886912345006"));
    expect(await ledgerTotals(db, expired?.id ?? "")).toEqual({ balance: 0, ledgerSum: 0, lotsRemaining: 0 });
    const kinds = await db
      .select({ kind: pointEntry.kind })
      .from(pointEntry)
      .where(eq(pointEntry.memberId, expired?.id ?? ""));
    expect(kinds.map((k) => k.kind).sort()).toEqual(["expire", "import"]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, runId));
    expect(audits.map((a) => a.action)).toEqual(["import.completed"]);
    await ledgerIsWhole();
  });

  it("a second applyRun on a finished run does nothing", async () => {
    const before = await db.select().from(pointEntry);
    const run = await applyRun(db, runId, { now: NOW });
    expect(run.status).toBe("done");
    expect(await db.select().from(pointEntry)).toHaveLength(before.length);
  });

  it("the same file again changes nothing: every valid row unchanged", async () => {
    const entries = (await db.select().from(pointEntry)).length;
    const members = (await db.select().from(member)).length;
    const { report, run } = await importCsv("shopline", text);
    expect(report).toMatchObject({ create: 0, merge: 0, unchanged: 4, reject: 3 });
    expect(run).toMatchObject({ status: "done", created: 0, merged: 0, unchanged: 4, pointsBooked: 0 });
    expect(await db.select().from(pointEntry)).toHaveLength(entries);
    expect(await db.select().from(member)).toHaveLength(members);
  });

  it("rejected rows download as CSV: original cells, codes, formulas neutralised", async () => {
    let out = "";
    for await (const chunk of rejectedRows(db, runId)) out += chunk;
    const lines = out
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe('"line","id","phone","name","email","points","last_day","tier","problem","problem_text"');
    expect(lines).toHaveLength(4);
    expect(out).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(out).toContain("duplicate_in_file");
  });

  it("lists runs newest first with progress", async () => {
    const { runs, total } = await listRuns(db, { kind: "csv", page: 1 });
    expect(total).toBeGreaterThanOrEqual(2);
    expect(runs[0]?.progress).toMatchObject({ rowsTotal: 7, rowsDone: 7, etaSeconds: null });
    expect(JSON.stringify(runs)).not.toContain("samplePassword");
  });
});

describe("merging into existing members", () => {
  it("merges by phone and by e-mail, fills only empty fields, refuses a phone held by another login", async () => {
    const byPhone = await newMember(db, { phoneNumber: "+886922000001", nameZh: "原名", email: null });
    const byEmail = await newMember(db, { phoneNumber: "+886922000002", email: "mail@example.com" });
    await db.insert(authUser).values({
      id: "abandoned-signup",
      name: "",
      email: "886922000009@phone.invalid",
      phoneNumber: "+886922000009",
    });
    const text = csvFixture([
      { id: "B1", phone: "0922000001", name: "新名", email: "fill@example.com", points: 40 },
      { id: "B2", phone: "0922000003", name: "信箱", email: "mail@example.com", points: 15 },
      { id: "B3", phone: "0922000009", name: "被占用", points: 5 },
    ]);
    const { report, run } = await importCsv("cyberbiz", text);
    expect(report).toMatchObject({ create: 0, merge: 2, reject: 1 });
    expect(report.problems.phone_taken).toBe(1);
    expect(run).toMatchObject({ status: "done", merged: 2, rejected: 1, pointsBooked: 55 });
    const [first] = await db.select().from(member).where(eq(member.id, byPhone.id));
    expect(first).toMatchObject({ nameZh: "原名", email: "fill@example.com" });
    const [second] = await db.select().from(member).where(eq(member.id, byEmail.id));
    expect(second?.phoneNumber).toBe("+886922000002");
    expect((await ledgerTotals(db, byPhone.id)).balance).toBe(40);
    expect((await ledgerTotals(db, byEmail.id)).balance).toBe(15);
    const sources = await db.select().from(memberSource).where(eq(memberSource.source, "cyberbiz"));
    expect(sources.map((s) => [s.externalId, s.merged]).sort()).toEqual([
      ["B1", true],
      ["B2", true],
    ]);
    await ledgerIsWhole();
  });
});

describe("one run at a time, cancel", () => {
  it("a second start while one is queued is refused import_busy; a queued run cancelled ends before any batch", async () => {
    const a = await stageCsv(db, {
      source: "pos-a",
      file: textStream("a.csv", csvFixture([{ id: "C1", phone: "0933000001", name: "甲" }])),
      actor: cli,
    });
    const b = await stageCsv(db, {
      source: "pos-b",
      file: textStream("b.csv", csvFixture([{ id: "D1", phone: "0933000002", name: "乙" }])),
      actor: cli,
    });
    for (const run of [a, b]) {
      await setCsvMapping(db, run.id, TEST_CSV_MAPPING, options);
      await checkRun(db, run.id, NOW);
    }
    await startRun(db, null, a.id, cli);
    expect(await refusalCode(() => startRun(db, null, b.id, cli))).toBe("import_busy");
    expect((await getRun(db, b.id)).status).toBe("checked");
    await cancelRun(db, a.id, cli);
    expect((await getRun(db, a.id)).status).toBe("cancelled");
    // Its job, when it comes, finds it finished.
    const cancelled = await applyRun(db, a.id, { now: NOW });
    expect(cancelled).toMatchObject({ status: "cancelled", rowsDone: 0 });
    expect(await db.select().from(member).where(eq(member.phoneNumber, "+886933000001"))).toEqual([]);
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, a.id));
    expect(audits.map((x) => x.action)).toEqual(["import.cancelled"]);
    // Now b may run.
    await startRun(db, null, b.id, cli);
    expect((await applyRun(db, b.id, { now: NOW })).status).toBe("done");
    expect(await refusalCode(() => startRun(db, null, b.id, cli))).toBe("import_wrong_state");
  });

  it("a file that is not CSV leaves nothing behind and is refused file_invalid", async () => {
    const before = (await db.select().from(importRun)).length;
    const code = await refusalCode(() =>
      stageCsv(db, {
        source: "bad",
        file: {
          name: "x.csv",
          bytes: null,
          stream: (async function* () {
            yield new Uint8Array([0, 1, 2, 0, 255, 0, 0]);
          })(),
        },
        actor: cli,
      }),
    );
    expect(code).toBe("file_invalid");
    expect(await db.select().from(importRun)).toHaveLength(before);
  });
});

describe("Firebase import", () => {
  const config: FirebaseHashConfig = {
    signerKey: Buffer.alloc(64, 7).toString("base64"),
    saltSeparator: "Bw==",
    rounds: 8,
    memCost: 14,
  };
  const salt = Buffer.from("salt-of-user-1").toString("base64");
  let users: { users: Record<string, unknown>[] };
  beforeAll(async () => {
    users = {
      users: [
        {
          localId: "uid-mail",
          email: "fb@example.com",
          emailVerified: true,
          passwordHash: await firebaseScryptHash(config, salt, "old-password"),
          salt,
          providerUserInfo: [{ providerId: "oidc.line", rawId: "U1234567890abcdef" }],
        },
        { localId: "uid-phone", phoneNumber: "+886955000001" },
      ],
    };
  });
  const members = [
    {
      documentId: "doc-1",
      userEmailId: "uid-mail",
      userPhoneId: "uid-phone",
      name: { zh: "火基" },
      memberLevel: "silver",
      favouriteColour: "blue",
    },
    { documentId: "doc-2", phoneNumber: "0955000002", name: { zh: "沒密碼" } },
  ];
  const stage = (sample?: { identifier: string; password: string }, hashConfig = config) =>
    stageFirebase(db, {
      users: textStream("users.json", JSON.stringify(users)),
      members: textStream("memberList.json", JSON.stringify(members)),
      hashConfig,
      samplePassword: sample,
      options,
      actor: cli,
    });

  it("checks a sample password: ok with the right key, wrong_key with another, sample_not_found", async () => {
    const right = await stage({ identifier: "fb@example.com", password: "old-password" });
    expect((await checkRun(db, right.id, NOW)).passwordCheck).toBe("ok");
    const wrong = await stage(
      { identifier: "fb@example.com", password: "old-password" },
      {
        ...config,
        signerKey: Buffer.alloc(64, 9).toString("base64"),
      },
    );
    expect((await checkRun(db, wrong.id, NOW)).passwordCheck).toBe("wrong_key");
    const missing = await stage({ identifier: "nobody@example.com", password: "x" });
    expect((await checkRun(db, missing.id, NOW)).passwordCheck).toBe("sample_not_found");
    const none = await stage();
    expect((await checkRun(db, none.id, NOW)).passwordCheck).toBe("no_sample");
    const stored = await db.select().from(importRun).where(eq(importRun.id, right.id));
    expect(JSON.stringify(stored[0]?.options)).not.toContain("old-password");
  });

  it("applies: the password kept as a Firebase hash, LINE linked, extra fields kept", async () => {
    const run = await stage();
    await checkRun(db, run.id, NOW);
    await startRun(db, null, run.id, cli);
    const done = await applyRun(db, run.id, { now: NOW });
    expect(done).toMatchObject({ status: "done", created: 2 });
    const [m] = await db.select().from(member).where(eq(member.phoneNumber, "+886955000001"));
    expect(m).toMatchObject({ nameZh: "火基", email: "fb@example.com", memberLevel: "silver" });
    const logins = await db
      .select()
      .from(authAccount)
      .where(eq(authAccount.userId, m?.userId ?? ""));
    expect(logins.find((l) => l.providerId === "credential")?.password).toSatisfy((p: string) => isFirebaseHash(p));
    expect(logins.find((l) => l.providerId === "line")?.accountId).toBe("U1234567890abcdef");
    const [source] = await db
      .select()
      .from(memberSource)
      .where(and(eq(memberSource.source, "firebase"), inArray(memberSource.externalId, ["doc-1"])));
    expect(source?.data).toMatchObject({ favouriteColour: "blue" });
    await ledgerIsWhole();
  });
});

describe("cancelling a run", () => {
  const staff: RunActor = {
    kind: "staff",
    userId: "staff-cancel",
    context: {
      actorType: "staff",
      userId: "staff-cancel",
      role: "admin",
      storeId: null,
      ip: "203.0.113.9",
      userAgent: null,
      requestId: null,
    },
  };

  async function checkedRun(source: string, phone: string) {
    const staged = await stageCsv(db, {
      source,
      file: textStream(`${source}.csv`, csvFixture([{ id: `${source}-1`, phone, name: "消" }])),
      actor: cli,
    });
    await setCsvMapping(db, staged.id, TEST_CSV_MAPPING, options);
    return staged;
  }

  const auditsOf = (runId: string) =>
    db.select().from(auditLog).where(eq(auditLog.targetId, runId)).orderBy(auditLog.seq);

  it("before its job started (staged, checked, queued) ends it with one audit row import.cancelled by who cancelled", async () => {
    const staged = await checkedRun("cancel-staged", "0955000001");
    const checked = await checkedRun("cancel-checked", "0955000002");
    await checkRun(db, checked.id, NOW);
    const queued = await checkedRun("cancel-queued", "0955000003");
    await checkRun(db, queued.id, NOW);
    await startRun(db, null, queued.id, cli);
    for (const [run, was] of [
      [staged, "staged"],
      [checked, "checked"],
      [queued, "queued"],
    ] as const) {
      await cancelRun(db, run.id, staff, NOW);
      expect(await getRun(db, run.id)).toMatchObject({ status: "cancelled", finishedAt: NOW });
      const audits = await auditsOf(run.id);
      expect(audits).toHaveLength(1);
      expect(audits[0]).toMatchObject({
        action: "import.cancelled",
        actorType: "staff",
        actorUserId: "staff-cancel",
        ip: "203.0.113.9",
        targetType: "import_run",
        occurredAt: NOW,
      });
      expect(audits[0]?.changes?.status).toEqual({ before: was, after: "cancelled" });
    }
    // The queued one's job finds it finished: nothing applied, no second row.
    expect(await applyRun(db, queued.id, { now: NOW })).toMatchObject({ status: "cancelled", rowsDone: 0 });
    expect(await db.select().from(member).where(eq(member.phoneNumber, "+886955000003"))).toEqual([]);
    expect((await auditsOf(queued.id)).map((a) => a.action)).toEqual(["import.cancelled"]);
    // A finished run cannot be cancelled again.
    expect(await refusalCode(() => cancelRun(db, staged.id, staff, NOW))).toBe("import_wrong_state");
  });

  it("writes the cancel and its audit row in one transaction: no row, no cancel", async () => {
    const run = await checkedRun("cancel-atomic", "0955000004");
    await db.execute(sql`
      create function refuse_cancel_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused'; end $$`);
    await db.execute(sql`
      create trigger refuse_cancel_audit before insert on audit_log
      for each row when (new.action = 'import.cancelled') execute function refuse_cancel_audit()`);
    try {
      const error = await cancelRun(db, run.id, staff, NOW).then(
        () => null,
        (e: unknown) => e,
      );
      // The driver wraps the database's error ("Failed query: …", the cause: the trigger's).
      expect(String((error as Error | null)?.cause ?? error)).toMatch(/audit refused/);
    } finally {
      await db.execute(sql`drop trigger refuse_cancel_audit on audit_log`);
      await db.execute(sql`drop function refuse_cancel_audit()`);
    }
    expect((await getRun(db, run.id)).status).toBe("staged");
    expect(await auditsOf(run.id)).toEqual([]);
  });

  it("while it runs sets the flag; the worker stops between batches and ends it with import.completed", async () => {
    const run = await checkedRun("cancel-running", "0955000005");
    await checkRun(db, run.id, NOW);
    await startRun(db, null, run.id, cli);
    await db.update(importRun).set({ status: "running", heartbeatAt: new Date() }).where(eq(importRun.id, run.id));
    await cancelRun(db, run.id, staff, NOW);
    expect(await getRun(db, run.id)).toMatchObject({ status: "running", cancelRequestedAt: NOW });
    expect(await auditsOf(run.id)).toEqual([]);
    expect(await applyRun(db, run.id, { now: NOW })).toMatchObject({ status: "cancelled", rowsDone: 0 });
    expect((await auditsOf(run.id)).map((a) => a.action)).toEqual(["import.completed"]);
  });
});

describe("a run whose worker is gone", () => {
  it("is cancelled at once (no worker would see the flag), so the next import of its kind may start", async () => {
    const staged = await stageCsv(db, {
      source: "stale",
      file: textStream("s.csv", csvFixture([{ id: "S1", phone: "0977000001", name: "停" }])),
      actor: cli,
    });
    await setCsvMapping(db, staged.id, TEST_CSV_MAPPING, options);
    await checkRun(db, staged.id, NOW);
    await startRun(db, null, staged.id, cli);
    await db
      .update(importRun)
      .set({ status: "running", heartbeatAt: new Date(Date.now() - 60 * 60 * 1000) })
      .where(eq(importRun.id, staged.id));
    await cancelRun(db, staged.id, cli);
    expect((await getRun(db, staged.id)).status).toBe("cancelled");
  });
});
