import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, material, memberMessage, quoteLine } from "@platform/db/schema";
import { useTwoPostgresInstances } from "@platform/testing/two-instances";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { catalogT } from "~/lib/i18n.server";
import type { AuditContext } from "../audit/audit.server";
import { seedCatalogIfEmpty } from "../demo";
import { newMember } from "../loyalty/testing.server";
import { isVersionConflict } from "../refusals";
import { createTestStaff } from "../staff/testing.server";
import { answerQuote, openQuoteCount } from "./console.server";
import { OPEN_QUOTE_LIMIT, parseQuoteAnswer } from "./input";
import { memberQuotes, requestQuote } from "./quotes.server";

/**
 * Quote lists under real concurrency (issue 37 part 4, ADR 047): two database handles stand in for two app
 * instances (PostgreSQL only; PGlite has one connection). Two staff answering one quote at once: one wins, the
 * other gets a version conflict, one audit row, one message. Twenty requests at once from one member with room
 * for three: three stored.
 */
let one: DatabaseHandle;
let two: DatabaseHandle;
useTwoPostgresInstances("quotes_race", (pair) => {
  ({ one, two } = pair);
});

const t = catalogT("zh-TW");
const NOW = new Date("2026-12-08T06:00:00Z");
const auditOf = (userId: string, role: "staff" | "admin", storeId: string | null): AuditContext => ({
  actorType: "staff",
  userId,
  role,
  storeId,
  ip: null,
  userAgent: null,
  requestId: null,
});

describe("quotes at once over two instances", () => {
  it("two staff answer the same quote at once: one wins, the other is told of the conflict", {
    timeout: 60_000,
  }, async () => {
    await seedCatalogIfEmpty(one.db);
    const [m1] = await one.db.select({ id: material.id }).from(material).where(eq(material.published, true)).limit(1);
    const m = await newMember(one.db);
    const r = await requestQuote(
      one.db,
      m.id,
      {
        storeId: "xinyi-flagship",
        message: "",
        lines: [{ materialId: m1?.id ?? "", quantity: "10.00", unit: "m2", note: "" }],
      },
      "zh-TW",
      NOW,
    );
    if (!r.ok) throw new Error(r.refusal.code);
    const secret = "s".repeat(40);
    const a = (await createTestStaff(one.db, secret, { role: "staff", storeIds: ["xinyi-flagship"] })).actor;
    const b = (await createTestStaff(one.db, secret, { role: "manager", storeIds: ["xinyi-flagship"] })).actor;
    const input = (price: string) => {
      const parsed = parseQuoteAnswer({ "price.1": price, validUntil: "2026-12-31", version: "1" }, [1], NOW, t);
      if (!parsed.ok) throw new Error("bad answer");
      return parsed.data;
    };
    const results = await Promise.allSettled([
      answerQuote(one.db, a, r.id, input("1000"), auditOf(a.userId, "staff", "xinyi-flagship"), NOW),
      answerQuote(two.db, b, r.id, input("900"), auditOf(b.userId, "staff", "xinyi-flagship"), NOW),
    ]);
    const won = results.filter((x) => x.status === "fulfilled");
    const lost = results.filter((x) => x.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(isVersionConflict((lost[0] as PromiseRejectedResult).reason)).toBe(true);
    const [line] = await one.db.select().from(quoteLine).where(eq(quoteLine.quoteId, r.id));
    const winner = (won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof answerQuote>>>).value;
    expect(line?.unitPrice).toBe(winner.lines[0]?.unitPrice);
    expect(
      await one.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "quote.answered"), eq(auditLog.targetId, r.id))),
    ).toHaveLength(1);
    expect(await one.db.select().from(memberMessage).where(eq(memberMessage.memberId, m.id))).toHaveLength(1);
  });

  it("twenty requests at once with room for three store three", { timeout: 60_000 }, async () => {
    const [m1] = await one.db.select({ id: material.id }).from(material).where(eq(material.published, true)).limit(1);
    const m = await newMember(one.db);
    const input = {
      storeId: "xinyi-flagship",
      message: "",
      lines: [{ materialId: m1?.id ?? "", quantity: "1.00", unit: "piece" as const, note: "" }],
    };
    for (let i = 0; i < OPEN_QUOTE_LIMIT - 3; i++) await requestQuote(one.db, m.id, input, "zh-TW", NOW);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => requestQuote(i % 2 ? one.db : two.db, m.id, input, "zh-TW", NOW)),
    );
    expect(answers.filter((x) => x.ok)).toHaveLength(3);
    expect(answers.filter((x) => !x.ok).map((x) => (x.ok ? "" : x.refusal.code))).toEqual(Array(17).fill("limit"));
    expect((await memberQuotes(one.db, m.id)).length).toBe(OPEN_QUOTE_LIMIT);
    expect(await openQuoteCount(one.db, m.id)).toBe(OPEN_QUOTE_LIMIT);
  });
});
