import type { DatabaseHandle } from "@platform/db/client";
import { material, quoteRequest } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { catalogT } from "~/lib/i18n.server";
import { fromTaipeiWallClock } from "~/lib/time";
import type { AuditContext } from "../audit/audit.server";
import { seedCatalogIfEmpty } from "../demo";
import { newMember } from "../loyalty/testing.server";
import type { StaffActor } from "../staff/actor";
import { createTestStaff } from "../staff/testing.server";
import { answerQuote, listQuotes, openQuoteCount } from "./console.server";
import { OPEN_QUOTE_LIMIT, parseQuoteAnswer } from "./input";
import { decideQuote, expireQuotes, memberQuote, memberQuotes, requestQuote } from "./quotes.server";
import { quoteState } from "./status";

/**
 * Quotes expire (ADR 051): one function decides the status (an answer past its Taipei validity is expired before
 * the job marks it), the job marks them once and gives their places back, an expired answer holds no place of the
 * limit of 10, can be closed (without giving a place back twice) but not accepted.
 */
let handle: DatabaseHandle;
useMigratedTestDatabase("quotes_expiry", (h) => {
  handle = h;
});

const t = catalogT("zh-TW");
// Answered on Tuesday 8 December (Taipei), valid until Thursday the 10th.
const ANSWERED = fromTaipeiWallClock({ year: 2026, month: 12, day: 8 }, 14, 0);
const LAST_DAY_LATE = fromTaipeiWallClock({ year: 2026, month: 12, day: 10 }, 23, 59);
const NEXT_DAY_EARLY = fromTaipeiWallClock({ year: 2026, month: 12, day: 11 }, 0, 1);
let materials: string[] = [];
let admin: StaffActor;
let audit: AuditContext;

beforeAll(async () => {
  await seedCatalogIfEmpty(handle.db);
  admin = (await createTestStaff(handle.db, "s".repeat(40), { role: "admin" })).actor;
  audit = {
    actorType: "staff",
    userId: admin.userId,
    role: "admin",
    storeId: null,
    ip: null,
    userAgent: null,
    requestId: null,
  };
  const rows = await handle.db.select({ id: material.id }).from(material).where(eq(material.published, true));
  materials = rows.map((r) => r.id).slice(0, 1);
});

async function answeredQuote(memberId: string): Promise<string> {
  const r = await requestQuote(
    handle.db,
    memberId,
    {
      storeId: "xinyi-flagship",
      message: "",
      lines: [{ materialId: materials[0] as string, quantity: "10.00", unit: "m2", note: "" }],
    },
    "zh-TW",
    ANSWERED,
  );
  if (!r.ok) throw new Error(r.refusal.code);
  const parsed = parseQuoteAnswer(
    { "price.1": "800", validUntil: "2026-12-10", staffMessage: "", version: "1" },
    [1],
    ANSWERED,
    t,
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  await answerQuote(handle.db, admin, r.id, parsed.data, audit, ANSWERED);
  return r.id;
}

describe("quotes past their validity", () => {
  it("read as expired from the Taipei day after the last valid day, on every surface, before the job", async () => {
    const m = await newMember(handle.db);
    const id = await answeredQuote(m.id);
    const quote = await memberQuote(handle.db, m.id, id);
    if (!quote) throw new Error("no quote");
    expect(quoteState(quote, LAST_DAY_LATE)).toBe("answered");
    expect(quoteState(quote, NEXT_DAY_EARLY)).toBe("expired");
    // The console list: its status and its filter agree with the function.
    const list = (state: "answered" | "expired" | "", now: Date) =>
      listQuotes(handle.db, admin, { status: state, store: "", page: 1 }, now).then((r) =>
        r.rows.filter((row) => row.id === id).map((row) => row.status),
      );
    expect(await list("", LAST_DAY_LATE)).toEqual(["answered"]);
    expect(await list("answered", LAST_DAY_LATE)).toEqual(["answered"]);
    expect(await list("", NEXT_DAY_EARLY)).toEqual(["expired"]);
    expect(await list("expired", NEXT_DAY_EARLY)).toEqual(["expired"]);
    expect(await list("answered", NEXT_DAY_EARLY)).toEqual([]);
    // Past its validity it cannot be accepted.
    expect(await decideQuote(handle.db, m.id, id, "accept", quote.version, NEXT_DAY_EARLY)).toEqual({
      ok: false,
      code: "expired",
    });
  });

  it("are marked by the job once, giving their places back; a rerun marks nothing", async () => {
    const m = await newMember(handle.db);
    const ids = [await answeredQuote(m.id), await answeredQuote(m.id)];
    expect(await openQuoteCount(handle.db, m.id)).toBe(2);
    // On the last valid day nothing expires.
    await expireQuotes(handle.db, LAST_DAY_LATE);
    expect(await openQuoteCount(handle.db, m.id)).toBe(2);
    expect(await expireQuotes(handle.db, NEXT_DAY_EARLY)).toBeGreaterThanOrEqual(2);
    const rows = await handle.db.select().from(quoteRequest).where(eq(quoteRequest.memberId, m.id));
    expect(rows.map((r) => [r.status, r.version])).toEqual([
      ["expired", 3],
      ["expired", 3],
    ]);
    expect(await openQuoteCount(handle.db, m.id)).toBe(0);
    expect(await expireQuotes(handle.db, NEXT_DAY_EARLY)).toBe(0);
    expect(await openQuoteCount(handle.db, m.id)).toBe(0);
    // The member closes one: closed, and the count does not go below what is open.
    const first = await memberQuote(handle.db, m.id, ids[0] as string);
    expect(await decideQuote(handle.db, m.id, ids[0] as string, "close", first?.version ?? 0, NEXT_DAY_EARLY)).toEqual({
      ok: true,
    });
    const [other] = await memberQuotes(handle.db, m.id);
    expect(other).toBeDefined();
    expect((await memberQuote(handle.db, m.id, ids[0] as string))?.status).toBe("closed");
    expect(await openQuoteCount(handle.db, m.id)).toBe(0);
  });

  it(`holds no place of the limit of ${OPEN_QUOTE_LIMIT} once past its validity, even before the job`, async () => {
    const m = await newMember(handle.db);
    for (let i = 0; i < OPEN_QUOTE_LIMIT; i++) await answeredQuote(m.id);
    const request = (now: Date) =>
      requestQuote(
        handle.db,
        m.id,
        {
          storeId: "xinyi-flagship",
          message: "",
          lines: [{ materialId: materials[0] as string, quantity: "1.00", unit: "piece", note: "" }],
        },
        "zh-TW",
        now,
      );
    const full = await request(LAST_DAY_LATE);
    expect(full).toEqual({ ok: false, refusal: { code: "limit", field: "form", limit: OPEN_QUOTE_LIMIT } });
    // The next Taipei day: the ten answers expired, the request is taken (no job run in between).
    const taken = await request(NEXT_DAY_EARLY);
    expect(taken.ok).toBe(true);
    expect(await openQuoteCount(handle.db, m.id)).toBe(1);
  });
});
