import type { Database } from "@platform/db/client";
import {
  auditLog,
  material,
  materialSampleStore,
  memberMessage,
  sampleOpenCount,
  sampleRequest,
  store,
} from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq, inArray, like } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SHOWROOM_SETTINGS } from "~/domain/showroom/settings";
import { verifyAuditChain } from "../audit/audit.server";
import { seedCatalog } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { createMaterial, materialForEdit, updateMaterial } from "../materials/console.server";
import { automaticCard, automaticValues } from "../member-messages/compose.server";
import { AUTOMATIC_DEFAULTS, renderTemplate } from "../member-messages/templates";
import type { StaffActor } from "../staff/actor";
import { createTestStaff, testAdminActor } from "../staff/testing.server";
import {
  cancelSample,
  consoleSamples,
  memberSamples,
  moveSamples,
  overdueSamplesOf,
  recordSampleReminders,
  requestSamples,
  SampleError,
  sampleStoreIds,
} from "./samples.server";

const SAMPLE_LIMIT = DEFAULT_SHOWROOM_SETTINGS.sampleLimit;

/**
 * Samples (issue 37 part 3, ADR 046) through the domain functions on the demo catalogue: the request and its
 * refusals (limit, store, material, twice), the member's cancel, the staff's steps with their audit rows and
 * permission per store, the due-back day in Taipei, the overdue lists and the reminder job.
 */
let db: Database;
useMigratedTestDatabase("samples", (handle) => {
  db = handle.db;
});

const SECRET = "test-session-secret-with-enough-length-0123456789";
const STORE = "xinyi-flagship";
const taipei = (local: string) => new Date(`${local}+08:00`);
const { actor: admin, audit } = testAdminActor();
let withSamples: string[] = [];
let otherStore = "";
let withoutHere = "";

beforeAll(async () => {
  await seedCatalog(db);
  const here = await db
    .select({ id: materialSampleStore.materialId })
    .from(materialSampleStore)
    .innerJoin(material, eq(material.id, materialSampleStore.materialId))
    .where(and(eq(materialSampleStore.storeId, STORE), eq(material.published, true)));
  withSamples = here.map((r) => r.id).sort();
  const [other] = await db.select({ id: store.id }).from(store).where(eq(store.id, "banqiao"));
  otherStore = other?.id ?? "";
  const all = await db.select({ id: materialSampleStore.materialId }).from(materialSampleStore);
  withoutHere = all.find((r) => !withSamples.includes(r.id))?.id ?? "";
});

async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return null;
}
const codeOf = (error: unknown) => (error instanceof SampleError ? error.code : String(error));
const statusOf = (error: unknown) => (error as { init?: { status?: number } } | null)?.init?.status ?? null;
const openCount = async (memberId: string) =>
  (await db.select().from(sampleOpenCount).where(eq(sampleOpenCount.memberId, memberId)))[0]?.open ?? 0;
const rowsOf = (memberId: string) => db.select().from(sampleRequest).where(eq(sampleRequest.memberId, memberId));

describe("asking for samples", () => {
  it("stores one row per material, all or nothing, within the limit of 5 open samples", async () => {
    expect(withSamples.length).toBeGreaterThanOrEqual(SAMPLE_LIMIT + 1);
    const m = await newMember(db);
    const now = taipei("2026-12-01T10:00:00");
    const ids = await requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: withSamples.slice(0, 3) }, now);
    expect(ids).toHaveLength(3);
    expect(await openCount(m.id)).toBe(3);
    // Three more would be six: refused, nothing stored, the count unchanged.
    const over = await rejection(() =>
      requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: withSamples.slice(3, 6) }, now),
    );
    expect(codeOf(over)).toBe("over_limit");
    expect((over as SampleError).field).toBe("materials");
    expect((over as SampleError).status).toBe(409);
    expect(await rowsOf(m.id)).toHaveLength(3);
    expect(await openCount(m.id)).toBe(3);
    // Two more fill it exactly.
    await requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: withSamples.slice(3, 5) }, now);
    expect(await openCount(m.id)).toBe(5);
    expect(
      codeOf(
        await rejection(() =>
          requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [withSamples[5] as string] }, now),
        ),
      ),
    ).toBe("over_limit");
    // Cancelling one gives a place back.
    await cancelSample(db, m.id, ids[0] as string, now);
    expect(await openCount(m.id)).toBe(4);
    await requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [withSamples[5] as string] }, now);
    expect(await openCount(m.id)).toBe(5);
  });

  it("refuses a store without samples of it, an unknown or forged store, a forged material, twice the same", async () => {
    const m = await newMember(db);
    const now = new Date();
    const first = withSamples[0] as string;
    const cases: [string, string[], string, string][] = [
      [STORE, ["no-such-material"], "no_samples", "materials"],
      [STORE, [first, "no-such-material"], "no_samples", "materials"],
      ["no-such-store", [first], "unknown_store", "storeId"],
      [STORE, [], "no_samples", "materials"],
    ];
    if (withoutHere) cases.push([STORE, [withoutHere], "no_samples", "materials"]);
    for (const [storeId, materialIds, code, field] of cases) {
      const error = await rejection(() => requestSamples(db, { memberId: m.id, storeId, materialIds }, now));
      expect(codeOf(error), `${storeId} ${materialIds.join()}`).toBe(code);
      expect((error as SampleError).field).toBe(field);
    }
    expect(await rowsOf(m.id)).toHaveLength(0);
    expect(await openCount(m.id)).toBe(0);
    await requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [first] }, now);
    const twice = await rejection(() =>
      requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [first] }, now),
    );
    expect(codeOf(twice)).toBe("already_requested");
    // The refused request's claim was rolled back with it.
    expect(await openCount(m.id)).toBe(1);
    expect(await rowsOf(m.id)).toHaveLength(1);
  });

  it("lets a member cancel only their own sample, and only before it is handed out", async () => {
    const m = await newMember(db);
    const other = await newMember(db);
    const now = new Date();
    const [a, b] = await requestSamples(
      db,
      { memberId: m.id, storeId: STORE, materialIds: withSamples.slice(0, 2) },
      now,
    );
    expect(codeOf(await rejection(() => cancelSample(db, other.id, a as string, now)))).toBe("not_found");
    expect(codeOf(await rejection(() => cancelSample(db, m.id, "00000000-0000-4000-8000-000000000000", now)))).toBe(
      "not_found",
    );
    await moveSamples(db, admin, "ready", [b as string], audit, now);
    await moveSamples(db, admin, "hand_out", [b as string], audit, now);
    expect(codeOf(await rejection(() => cancelSample(db, m.id, b as string, now)))).toBe("wrong_state");
    await cancelSample(db, m.id, a as string, now);
    expect(codeOf(await rejection(() => cancelSample(db, m.id, a as string, now)))).toBe("wrong_state");
    expect(await openCount(m.id)).toBe(1);
  });
});

describe("the staff's steps", () => {
  it("moves requested → ready → handed out (due in 14 Taipei days) → returned, each audited once", async () => {
    const m = await newMember(db);
    // 23:30 Taipei on Dec 1 is still Dec 1 there (15:30 UTC): due back Dec 15.
    const late = taipei("2026-12-01T23:30:00");
    const [id] = await requestSamples(
      db,
      { memberId: m.id, storeId: STORE, materialIds: [withSamples[0] as string] },
      late,
    );
    const sample = id as string;
    expect(codeOf(await rejection(() => moveSamples(db, admin, "hand_out", [sample], audit, late)))).toBe(
      "wrong_state",
    );
    expect(codeOf(await rejection(() => moveSamples(db, admin, "return", [sample], audit, late)))).toBe("wrong_state");
    await moveSamples(db, admin, "ready", [sample], audit, late);
    const out = await moveSamples(db, admin, "hand_out", [sample], audit, late);
    expect(out.dueBackOn).toBe("2026-12-15");
    // Pressed again (another clerk): refused, nothing changes.
    expect(codeOf(await rejection(() => moveSamples(db, admin, "hand_out", [sample], audit, late)))).toBe(
      "wrong_state",
    );
    const [row] = await db.select().from(sampleRequest).where(eq(sampleRequest.id, sample));
    expect(row).toMatchObject({ status: "handed_out", dueBackOn: "2026-12-15", handedOutBy: admin.userId });

    // The member and the console see it overdue from Dec 16 (Taipei).
    expect((await memberSamples(db, m.id, taipei("2026-12-15T23:59:00"))).open[0]?.overdue).toBe(false);
    expect((await memberSamples(db, m.id, taipei("2026-12-16T00:00:00"))).open[0]?.overdue).toBe(true);
    expect(await overdueSamplesOf(db, m.id, taipei("2026-12-16T09:00:00"))).toHaveLength(1);
    const overdueList = await consoleSamples(
      db,
      admin,
      { storeId: STORE, filter: "overdue", memberId: m.id },
      taipei("2026-12-16T09:00:00"),
    );
    expect(overdueList.map((r) => r.id)).toEqual([sample]);

    await moveSamples(db, admin, "return", [sample], audit, taipei("2026-12-17T10:00:00"));
    expect(await openCount(m.id)).toBe(0);
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, sample));
    expect(audits.map((a) => a.action).sort()).toEqual(["sample.handed_out", "sample.ready", "sample.returned"]);
    expect((await verifyAuditChain(db)).ok).toBe(true);
  });

  it("lets a clerk act and see only at their own stores; two clerks handing out at once change it once", async () => {
    const m = await newMember(db);
    const now = new Date();
    const [id] = await requestSamples(
      db,
      { memberId: m.id, storeId: STORE, materialIds: [withSamples[1] as string] },
      now,
    );
    const sample = id as string;
    const mine = await createTestStaff(db, SECRET, { role: "staff", storeIds: [STORE] });
    const elsewhere: StaffActor = (await createTestStaff(db, SECRET, { role: "staff", storeIds: [otherStore] })).actor;
    const refused = await rejection(() => moveSamples(db, elsewhere, "ready", [sample], audit, now));
    expect(statusOf(refused)).toBe(403);
    expect(await consoleSamples(db, elsewhere, { storeId: null, filter: "open", memberId: m.id }, now)).toEqual([]);
    expect(await consoleSamples(db, elsewhere, { storeId: STORE, filter: "open", memberId: m.id }, now)).toEqual([]);
    expect(
      (await consoleSamples(db, mine.actor, { storeId: null, filter: "open", memberId: m.id }, now)).map((r) => r.id),
    ).toEqual([sample]);
    await moveSamples(db, mine.actor, "ready", [sample], audit, now);
    const results = await Promise.allSettled([
      moveSamples(db, mine.actor, "hand_out", [sample], audit, now),
      moveSamples(db, admin, "hand_out", [sample], audit, now),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, sample), eq(auditLog.action, "sample.handed_out")));
    expect(audits).toHaveLength(1);
    // A forged id among real ones refuses the whole step.
    expect(
      codeOf(
        await rejection(() =>
          moveSamples(db, admin, "return", [sample, "00000000-0000-4000-8000-000000000000"], audit, now),
        ),
      ),
    ).toBe("not_found");
    expect((await db.select().from(sampleRequest).where(eq(sampleRequest.id, sample)))[0]?.status).toBe("handed_out");
  });
});

describe("has samples, in the material editor", () => {
  it("saves the stores with samples with the material, audited, and offers them to members", async () => {
    const input = {
      id: "sample-test-oak",
      categoryId: "wood-flooring",
      name: { "zh-TW": "樣品測試橡木", en: "Sample test oak" },
      series: { "zh-TW": "測試", en: "Test" },
      summary: { "zh-TW": "測試", en: "Test" },
      sizes: [],
      finish: { "zh-TW": "油蠟", en: "Oiled" },
      colour: { "zh-TW": "自然", en: "Natural" },
      swatch: "#c8a27a",
      origin: { "zh-TW": "德國", en: "Germany" },
      care: { "zh-TW": "擦拭", en: "Wipe" },
      specs: [],
      images: [],
      storeIds: [STORE, "banqiao"],
      sampleStoreIds: [STORE],
      relatedIds: [],
      featured: false,
    };
    const created = await createMaterial(db, input, audit, new Date());
    expect(await sampleStoreIds(db, input.id)).toEqual([STORE]);
    const edit = await materialForEdit(db, input.id);
    expect(edit?.sampleStoreIds).toEqual([STORE]);
    await updateMaterial(
      db,
      input.id,
      created.version,
      { ...input, sampleStoreIds: ["banqiao", STORE] },
      audit,
      new Date(),
    );
    expect(await sampleStoreIds(db, input.id)).toEqual(["banqiao", STORE].sort());
    const [row] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, input.id), eq(auditLog.action, "material.updated")));
    expect(JSON.stringify(row?.changes)).toContain("sampleStoreIds");
    // Not published yet: no member can ask for it.
    const m = await newMember(db);
    expect(
      codeOf(
        await rejection(() =>
          requestSamples(db, { memberId: m.id, storeId: STORE, materialIds: [input.id] }, new Date()),
        ),
      ),
    ).toBe("no_samples");
  });
});

describe("the reminder", () => {
  it("records one sample-due message per member, store and due day, 2 days before; a second run adds nothing", async () => {
    const m = await newMember(db);
    const handedAt = taipei("2026-11-01T15:00:00");
    const ids = await requestSamples(
      db,
      { memberId: m.id, storeId: STORE, materialIds: withSamples.slice(2, 4) },
      handedAt,
    );
    await moveSamples(db, admin, "ready", ids, audit, handedAt);
    await moveSamples(db, admin, "hand_out", ids, audit, handedAt);
    // Due back Nov 15: nothing on Nov 12, the reminder on Nov 13 at 10:00 Taipei.
    const mine = () =>
      db
        .select()
        .from(memberMessage)
        .where(and(eq(memberMessage.memberId, m.id), like(memberMessage.occasion, "sample-due:%")));
    await recordSampleReminders(db, taipei("2026-11-12T10:00:00"));
    expect(await mine()).toHaveLength(0);
    const at = taipei("2026-11-13T10:00:00");
    await recordSampleReminders(db, at);
    await recordSampleReminders(db, at);
    const messages = await mine();
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      kind: "sample-due",
      purpose: "service",
      occasion: `sample-due:${STORE}:2026-11-15`,
      data: { storeId: STORE, count: 2, dueOn: "2026-11-15" },
    });
    expect(messages[0]?.dueAt.toISOString()).toBe(at.toISOString());
    const rows = await db.select().from(sampleRequest).where(inArray(sampleRequest.id, ids));
    expect(rows.every((r) => r.reminderSentAt !== null)).toBe(true);
    // What it says, in each language (the delivery renders it so on LINE, SMS and e-mail).
    const ctx = { publicBaseUrl: "https://example.com", secret: SECRET, storeName: () => "信義旗艦店", now: at };
    const data = messages[0]?.data as Record<string, string | number>;
    const zh = automaticValues(data, { memberId: m.id, name: "王小明", locale: "zh-TW" }, ctx);
    expect(renderTemplate(AUTOMATIC_DEFAULTS["sample-due"].text["zh-TW"], zh)).toBe(
      "王小明 您好，您向信義旗艦店借用的 2 件樣品請於 2026/11/15 前歸還，謝謝。",
    );
    const en = automaticValues(data, { memberId: m.id, name: "Ming", locale: "en" }, ctx);
    expect(renderTemplate(AUTOMATIC_DEFAULTS["sample-due"].text.en, en)).toContain("by 11/15/2026");
    expect(automaticCard("sample-due", zh, "zh-TW", "https://example.com").action?.url).toBe(
      "https://example.com/member-center/samples",
    );
  });

  it("recorded in the quiet hours, waits until 09:00 Taipei (no text at night)", async () => {
    const m = await newMember(db);
    const handedAt = taipei("2026-10-01T12:00:00");
    const ids = await requestSamples(
      db,
      { memberId: m.id, storeId: STORE, materialIds: [withSamples[4] as string] },
      handedAt,
    );
    await moveSamples(db, admin, "ready", ids, audit, handedAt);
    await moveSamples(db, admin, "hand_out", ids, audit, handedAt);
    await recordSampleReminders(db, taipei("2026-10-13T22:30:00"));
    const [message] = await db
      .select()
      .from(memberMessage)
      .where(and(eq(memberMessage.memberId, m.id), eq(memberMessage.kind, "sample-due")));
    expect(message?.dueAt.toISOString()).toBe(taipei("2026-10-14T09:00:00").toISOString());
  });
});
