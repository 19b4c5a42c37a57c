import type { Database } from "@platform/db/client";
import { loyaltyRules } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { DEFAULT_RULES } from "../loyalty/rules.server";
import { testAdminActor } from "../staff/testing.server";
import { newestVersionId, RulesDateTaken, rulesHistory, rulesNoteIsDefaults, scheduleRules } from "./rules.server";
import type { RuleFields } from "./rules-form";

/**
 * Rules versions (issue 33 item 13): one version per effective date. The refusal is decided inside the
 * save's own statement (a conditional insert, under the table lock the save holds), not by a read before it,
 * so it holds for a caller that skipped the form's check too. The seeded version's note reads as 預設規則.
 */
let db: Database;
useMigratedTestDatabase("programme_rules", (handle) => {
  db = handle.db;
});

const NOW = new Date("2026-03-01T03:00:00.000Z");
const { amountPerPoint, silverSpend, goldSpend, welcomeEnabled, welcomePoints, birthdayEnabled, birthdayPoints } =
  DEFAULT_RULES;
const rules: RuleFields = {
  amountPerPoint,
  silverSpend,
  goldSpend,
  basicMultiplierPermille: DEFAULT_RULES.basicMultiplierPermille,
  silverMultiplierPermille: DEFAULT_RULES.silverMultiplierPermille,
  goldMultiplierPermille: DEFAULT_RULES.goldMultiplierPermille,
  welcomeEnabled,
  welcomePoints,
  birthdayEnabled,
  birthdayPoints,
  pointValueCents: DEFAULT_RULES.pointValueCents,
  maxSpendPercent: DEFAULT_RULES.maxSpendPercent,
};

describe("a rules version's effective date", () => {
  it("is taken once: a second version for the same date is refused, nothing saved", async () => {
    const { actor, audit } = testAdminActor();
    const date = { year: 2026, month: 4, day: 1 };
    const first = await scheduleRules(
      db,
      actor,
      { rules, effectiveDate: date, note: "四月" },
      await newestVersionId(db),
      audit,
      NOW,
    );
    const second = scheduleRules(
      db,
      actor,
      { rules: { ...rules, silverSpend: 45_000 }, effectiveDate: date, note: "四月之二" },
      await newestVersionId(db),
      audit,
      NOW,
    );
    await expect(second).rejects.toBeInstanceOf(RulesDateTaken);
    await expect(second).rejects.toMatchObject({ existingId: first.id });
    const rows = await db.select().from(loyaltyRules).where(eq(loyaltyRules.effectiveFrom, first.effectiveFrom));
    expect(rows.map((r) => r.id)).toEqual([first.id]);
    // Another date is fine.
    await scheduleRules(
      db,
      actor,
      { rules, effectiveDate: { year: 2026, month: 4, day: 2 }, note: "" },
      await newestVersionId(db),
      audit,
      NOW,
    );
  });

  it("the seeded version is the defaults (its note is no text for the brand)", async () => {
    const history = await rulesHistory(db);
    const seeded = history.find((h) => h.id === Math.min(...history.map((v) => v.id)));
    expect(seeded && rulesNoteIsDefaults(seeded)).toBe(true);
    expect(history.filter((h) => rulesNoteIsDefaults(h))).toHaveLength(1);
  });
});
