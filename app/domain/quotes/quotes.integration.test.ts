import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, material, memberMessage, quoteLine, quoteRequest } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogT } from "~/lib/i18n.server";
import { fromTaipeiWallClock } from "~/lib/time";
import type { AuditContext } from "../audit/audit.server";
import { seedCatalogIfEmpty } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { isRefusal, isVersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { createTestStaff } from "../staff/testing.server";
import { answerQuote, listQuotes, openQuoteCount } from "./console.server";
import { OPEN_QUOTE_LIMIT, parseQuoteAnswer, type QuoteRequestInput } from "./input";
import { decideQuote, memberQuote, memberQuotes, requestQuote } from "./quotes.server";

/**
 * Quote lists on the database (issue 37 part 4, ADR 047): a request with its lines or nothing, the open-quote
 * limit, forged stores and materials, another member's quote, the member's decisions, and the staff answer
 * (prices, totals, audit, the member's message, a version conflict, a clerk of another store).
 */
let handle: DatabaseHandle;
useMigratedTestDatabase("quotes", (h) => {
  handle = h;
});

const t = catalogT("zh-TW");
// A Tuesday afternoon in Taipei.
const NOW = fromTaipeiWallClock({ year: 2026, month: 12, day: 8 }, 14, 0);
let materials: string[] = [];
let admin: { actor: StaffActor; audit: AuditContext };
let xinyiClerk: StaffActor;
let banqiaoClerk: StaffActor;

const auditOf = (actor: StaffActor): AuditContext => ({
  actorType: "staff",
  userId: actor.userId,
  role: actor.role,
  storeId: actor.currentStoreId,
  ip: null,
  userAgent: null,
  requestId: null,
});
function testAdminActor() {
  return admin;
}

beforeAll(async () => {
  await seedCatalogIfEmpty(handle.db);
  const secret = "s".repeat(40);
  const a = (await createTestStaff(handle.db, secret, { role: "admin" })).actor;
  admin = { actor: a, audit: auditOf(a) };
  xinyiClerk = (await createTestStaff(handle.db, secret, { role: "staff", storeIds: ["xinyi-flagship"] })).actor;
  banqiaoClerk = (await createTestStaff(handle.db, secret, { role: "staff", storeIds: ["banqiao"] })).actor;
  const rows = await handle.db.select({ id: material.id }).from(material).where(eq(material.published, true));
  materials = rows.map((r) => r.id).slice(0, 3);
});

function request(lines = 2, storeId = "xinyi-flagship"): QuoteRequestInput {
  return {
    storeId,
    message: "浴室翻新",
    lines: materials.slice(0, lines).map((materialId, i) => ({
      materialId,
      quantity: i === 0 ? "12.50" : "30.00",
      unit: i === 0 ? ("m2" as const) : ("piece" as const),
      note: i === 0 ? "牆面" : "",
    })),
  };
}

function answer(positions: number[], prices: Record<string, string>, version: number) {
  const parsed = parseQuoteAnswer(
    { ...prices, validUntil: "2026-12-31", staffMessage: "含運費", version: String(version) },
    positions,
    NOW,
    t,
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.data;
}

describe("a member's quote request", () => {
  it("is stored with its lines and a reference, and only its member sees it", async () => {
    const m = await newMember(handle.db);
    const other = await newMember(handle.db);
    const result = await requestQuote(handle.db, m.id, request(), "zh-TW", NOW);
    if (!result.ok) throw new Error(result.refusal.code);
    expect(result.reference).toMatch(/^Q[2-9A-HJ-NP-Z]{7}$/);
    const quote = await memberQuote(handle.db, m.id, result.id);
    expect(quote?.status).toBe("requested");
    expect(quote?.lines.map((l) => [l.position, l.quantity, l.unit, l.note])).toEqual([
      [1, "12.50", "m2", "牆面"],
      [2, "30.00", "piece", ""],
    ]);
    expect(await memberQuote(handle.db, other.id, result.id)).toBeNull();
    expect(await memberQuotes(handle.db, other.id)).toEqual([]);
    expect(await openQuoteCount(handle.db, m.id)).toBe(1);
  });

  it("refuses a store or material that does not exist, storing nothing", async () => {
    const m = await newMember(handle.db);
    const store = await requestQuote(handle.db, m.id, request(1, "no-such-store"), "zh-TW", NOW);
    expect(store).toEqual({ ok: false, refusal: { code: "unknown_store", field: "storeId" } });
    const forged = request(1);
    forged.lines.push({ materialId: "forged-material", quantity: "1.00", unit: "piece", note: "" });
    const material = await requestQuote(handle.db, m.id, forged, "zh-TW", NOW);
    expect(material.ok ? null : material.refusal).toMatchObject({
      code: "unknown_material",
      materialIds: ["forged-material"],
    });
    expect(await handle.db.select().from(quoteRequest).where(eq(quoteRequest.memberId, m.id))).toEqual([]);
    expect(await openQuoteCount(handle.db, m.id)).toBe(0);
  });

  it(`allows ${OPEN_QUOTE_LIMIT} open quotes; the next is refused until one is withdrawn`, async () => {
    const m = await newMember(handle.db);
    const ids: string[] = [];
    for (let i = 0; i < OPEN_QUOTE_LIMIT; i++) {
      const r = await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW);
      if (!r.ok) throw new Error(r.refusal.code);
      ids.push(r.id);
    }
    const refused = await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW);
    expect(refused).toEqual({ ok: false, refusal: { code: "limit", field: "form", limit: OPEN_QUOTE_LIMIT } });
    expect((await memberQuotes(handle.db, m.id)).length).toBe(OPEN_QUOTE_LIMIT);
    const first = await memberQuote(handle.db, m.id, ids[0] as string);
    expect(await decideQuote(handle.db, m.id, ids[0] as string, "withdraw", first?.version ?? 0, NOW)).toEqual({
      ok: true,
    });
    expect(await openQuoteCount(handle.db, m.id)).toBe(OPEN_QUOTE_LIMIT - 1);
    expect((await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW)).ok).toBe(true);
  });

  it("cannot be decided by another member, nor accepted before it is answered", async () => {
    const m = await newMember(handle.db);
    const other = await newMember(handle.db);
    const r = await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW);
    if (!r.ok) throw new Error(r.refusal.code);
    expect(await decideQuote(handle.db, other.id, r.id, "withdraw", 1, NOW)).toEqual({ ok: false, code: "not_found" });
    expect(await decideQuote(handle.db, m.id, r.id, "accept", 1, NOW)).toEqual({ ok: false, code: "changed" });
    expect((await memberQuote(handle.db, m.id, r.id))?.status).toBe("requested");
  });
});

describe("the staff answer", () => {
  it("prices each line, totals in whole NT$, audits and records the member's message in one go", async () => {
    const m = await newMember(handle.db);
    const r = await requestQuote(handle.db, m.id, request(), "zh-TW", NOW);
    if (!r.ok) throw new Error(r.refusal.code);
    const { actor, audit } = testAdminActor();
    const answered = await answerQuote(
      handle.db,
      actor,
      r.id,
      answer([1, 2], { "price.1": "1299", "price.2": "85" }, 1),
      audit,
      NOW,
    );
    expect(answered.status).toBe("answered");
    // 12.5 m² × 1,299 = 16,237.5 → 16,238; 30 pieces × 85 = 2,550.
    expect(answered.lines.map((l) => [l.unitPrice, l.lineTotal])).toEqual([
      [1299, 16238],
      [85, 2550],
    ]);
    expect(answered.total).toBe(18788);
    expect(answered.validUntil).toBe("2026-12-31");
    const audits = await handle.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "quote.answered"), eq(auditLog.targetId, r.id)));
    expect(audits).toHaveLength(1);
    const messages = await handle.db.select().from(memberMessage).where(eq(memberMessage.memberId, m.id));
    expect(messages.map((x) => [x.kind, x.purpose, x.occasion, x.dueAt.toISOString()])).toEqual([
      ["quote-answered", "service", `quote-answered:${r.id}`, NOW.toISOString()],
    ]);
    // The member accepts; the open count goes back down.
    expect(await decideQuote(handle.db, m.id, r.id, "accept", answered.version, NOW)).toEqual({ ok: true });
    expect(await openQuoteCount(handle.db, m.id)).toBe(0);
  });

  it("at night, a member LINE cannot reach is told at 09:00 (no text message 21:00–09:00)", async () => {
    const m = await newMember(handle.db);
    const r = await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW);
    if (!r.ok) throw new Error(r.refusal.code);
    const night = fromTaipeiWallClock({ year: 2026, month: 12, day: 8 }, 22, 30);
    const { actor, audit } = testAdminActor();
    await answerQuote(handle.db, actor, r.id, answer([1], { "price.1": "100" }, 1), audit, night);
    const [message] = await handle.db.select().from(memberMessage).where(eq(memberMessage.memberId, m.id));
    expect(message?.dueAt.toISOString()).toBe(
      fromTaipeiWallClock({ year: 2026, month: 12, day: 9 }, 9, 0).toISOString(),
    );
  });

  it("over an old version is a conflict carrying the quote as it is now; nothing changes twice", async () => {
    const m = await newMember(handle.db);
    const r = await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW);
    if (!r.ok) throw new Error(r.refusal.code);
    const { actor, audit } = testAdminActor();
    await answerQuote(handle.db, actor, r.id, answer([1], { "price.1": "100" }, 1), audit, NOW);
    const second = await answerQuote(handle.db, actor, r.id, answer([1], { "price.1": "90" }, 1), audit, NOW).catch(
      (e: unknown) => e,
    );
    expect(isVersionConflict(second)).toBe(true);
    const [line] = await handle.db.select().from(quoteLine).where(eq(quoteLine.quoteId, r.id));
    expect(line?.unitPrice).toBe(100);
  });

  it("a withdrawn quote cannot be answered", async () => {
    const m = await newMember(handle.db);
    const r = await requestQuote(handle.db, m.id, request(1), "zh-TW", NOW);
    if (!r.ok) throw new Error(r.refusal.code);
    await decideQuote(handle.db, m.id, r.id, "withdraw", 1, NOW);
    const { actor, audit } = testAdminActor();
    const refused = await answerQuote(handle.db, actor, r.id, answer([1], { "price.1": "1" }, 2), audit, NOW).catch(
      (e: unknown) => e,
    );
    expect(isRefusal(refused, "quotes") && refused.code).toBe("not_open");
  });

  it("a clerk lists and answers only their stores' quotes", async () => {
    const m = await newMember(handle.db);
    const r = await requestQuote(handle.db, m.id, request(1, "banqiao"), "zh-TW", NOW);
    if (!r.ok) throw new Error(r.refusal.code);
    const xinyi = xinyiClerk;
    const listed = await listQuotes(handle.db, xinyi, { status: "", store: "", page: 1 }, new Date());
    expect(listed.rows.map((q) => q.id)).not.toContain(r.id);
    const { audit } = testAdminActor();
    const refused = await answerQuote(handle.db, xinyi, r.id, answer([1], { "price.1": "1" }, 1), audit, NOW).catch(
      (e: unknown) => e,
    );
    expect((refused as { init?: { status?: number } }).init?.status).toBe(403);
    expect((await memberQuote(handle.db, m.id, r.id))?.status).toBe("requested");
    const banqiao = banqiaoClerk;
    expect(
      (await listQuotes(handle.db, banqiao, { status: "requested", store: "", page: 1 }, new Date())).rows.map(
        (q) => q.id,
      ),
    ).toContain(r.id);
  });

  it("refuses a negative, fractional or missing price beside its line", () => {
    const parsed = parseQuoteAnswer(
      { "price.1": "-5", "price.2": "12.5", validUntil: "2026-12-31", version: "1" },
      [1, 2, 3],
      NOW,
      t,
    );
    expect(parsed.ok ? null : parsed.errors).toEqual({
      "price.1": ["單價不可為負數"],
      "price.2": ["請填寫新台幣整數元"],
      "price.3": ["請填寫單價"],
    });
  });
});
