import { describe, expect, it } from "vitest";
import type { Translate } from "~/lib/i18n";
import { effectiveInstant, parseCents, parsePermille, rulesSchema } from "./rules-form";

/** The schema with a catalog that answers its keys: each message is `console.programme.error.<code>`. */
const keys = ((key: string) => key) as Translate;
type Answer =
  | { ok: true; value: ReturnType<ReturnType<typeof rulesSchema>["parse"]> }
  | { ok: false; problems: Record<string, { code: string }[]> };
function parseRulesForm(fields: Record<string, string>, context: { now: Date; latestScheduled: Date | null }): Answer {
  const result = rulesSchema(keys, context).safeParse(fields);
  if (result.success) return { ok: true, value: result.data };
  const problems: Record<string, { code: string }[]> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0]);
    problems[field] ??= [];
    problems[field].push({ code: issue.message.split(".").at(-1) ?? "" });
  }
  return { ok: false, problems };
}
const codes = (r: Answer) =>
  r.ok ? {} : Object.fromEntries(Object.entries(r.problems).map(([k, v]) => [k, v.map((p) => p.code)]));

describe("rules form", () => {
  const now = new Date("2026-06-10T04:00:00.000Z"); // 12:00 Taipei
  const rules = {
    amountPerPoint: "100",
    silverSpend: "50000",
    goldSpend: "200000",
    basicMultiplier: "1",
    silverMultiplier: "1.2",
    goldMultiplier: "1.5",
    welcomePoints: "100",
    birthdayPoints: "200",
    pointValue: "1",
    maxSpendPercent: "50",
    effectiveDate: "2026-06-10",
  };
  it.each([
    [{ goldSpend: "50000" }, { goldSpend: ["thresholdsOrder"] }],
    [{ goldSpend: "40000" }, { goldSpend: ["thresholdsOrder"] }],
    [{ effectiveDate: "2026-06-09" }, { effectiveDate: ["dateInPast"] }],
    [{ effectiveDate: "" }, { effectiveDate: ["required"] }],
    [{ silverMultiplier: "0.9" }, { goldMultiplier: ["multipliersOrder"] }],
    [{ goldMultiplier: "abc" }, { goldMultiplier: ["invalidMoney"] }],
    [{ pointValue: "0" }, { pointValue: ["tooSmall"] }],
    [{ amountPerPoint: "0" }, { amountPerPoint: ["tooSmall"] }],
    [{ welcomePoints: "-1" }, { welcomePoints: ["tooSmall"] }],
    // Paying with points (issue 36): a whole percentage 0–100.
    [{ maxSpendPercent: "101" }, { maxSpendPercent: ["tooLarge"] }],
    [{ maxSpendPercent: "-1" }, { maxSpendPercent: ["tooSmall"] }],
    [{ maxSpendPercent: "12.5" }, { maxSpendPercent: ["notWholeNumber"] }],
    [{ maxSpendPercent: "" }, { maxSpendPercent: ["required"] }],
    // Points for a kept visit (issue 37): a whole number when the rule is on.
    [{ keptVisitEnabled: "on", keptVisitPoints: "" }, { keptVisitPoints: ["required"] }],
    [{ keptVisitEnabled: "on", keptVisitPoints: "-5" }, { keptVisitPoints: ["tooSmall"] }],
  ])("refuses %j", (fields, expected) => {
    expect(codes(parseRulesForm({ ...rules, ...fields }, { now, latestScheduled: null }))).toEqual(expected);
  });

  it("refuses a date before a version already scheduled", () => {
    const scheduled = new Date("2026-06-30T16:00:00.000Z"); // 1 July Taipei
    expect(codes(parseRulesForm(rules, { now, latestScheduled: scheduled }))).toEqual({
      effectiveDate: ["beforeScheduled"],
    });
    // One version per date (issue 33 item 13): the scheduled version's own date is taken.
    expect(
      codes(parseRulesForm({ ...rules, effectiveDate: "2026-07-01" }, { now, latestScheduled: scheduled })),
    ).toEqual({
      effectiveDate: ["dateTaken"],
    });
    expect(parseRulesForm({ ...rules, effectiveDate: "2026-07-02" }, { now, latestScheduled: scheduled }).ok).toBe(
      true,
    );
  });

  it("reads multipliers and the point value exactly, and the switches", () => {
    const r = parseRulesForm(
      { ...rules, welcomeEnabled: "on", pointValue: "0.25", goldMultiplier: "2.125" },
      {
        now,
        latestScheduled: null,
      },
    );
    expect(r.ok && r.value.rules).toMatchObject({
      silverMultiplierPermille: 1200,
      goldMultiplierPermille: 2125,
      pointValueCents: 25,
      maxSpendPercent: 50,
      welcomeEnabled: true,
      birthdayEnabled: false,
    });
    expect(parsePermille("1.2345")).toBeNull();
    expect(parseCents("1.234")).toBeNull();
    expect(parseCents("１")).toBe(100);
  });

  it("applies today at once and a later day from its Taipei midnight", () => {
    expect(effectiveInstant({ year: 2026, month: 6, day: 10 }, now)).toEqual(now);
    expect(effectiveInstant({ year: 2026, month: 6, day: 11 }, now).toISOString()).toBe("2026-06-10T16:00:00.000Z");
  });

  it("reads the kept-visit rule: on with its points, off keeps the points as they were", () => {
    const on = parseRulesForm(
      { ...rules, keptVisitEnabled: "on", keptVisitPoints: "30" },
      { now, latestScheduled: null },
    );
    expect(on.ok && on.value.rules).toMatchObject({ keptVisitEnabled: true, keptVisitPoints: 30 });
    const off = parseRulesForm(rules, { now, latestScheduled: null });
    expect(off.ok && off.value.rules.keptVisitEnabled).toBe(false);
    expect(off.ok && "keptVisitPoints" in off.value.rules).toBe(false);
  });

  it("reads the referral programme when the form sends it, and refuses bad values beside their fields", () => {
    const referral = {
      referralEnabled: "on",
      referralPoints: "300",
      referralMinAmount: "3,000",
      referralMonthlyCap: "5",
      referralWindowDays: "30",
    };
    const on = parseRulesForm({ ...rules, ...referral }, { now, latestScheduled: null });
    expect(on.ok && on.value.rules).toMatchObject({
      referralEnabled: true,
      referralPoints: 300,
      referralMinAmount: 3000,
      referralMonthlyCap: 5,
      referralWindowDays: 30,
    });
    // A form without the group keeps the programme as it was.
    const absent = parseRulesForm(rules, { now, latestScheduled: null });
    expect(absent.ok && "referralPoints" in absent.value.rules).toBe(false);
    expect(
      codes(
        parseRulesForm(
          { ...rules, ...referral, referralMinAmount: "0", referralMonthlyCap: "1.5", referralWindowDays: "400" },
          { now, latestScheduled: null },
        ),
      ),
    ).toEqual({
      referralMinAmount: ["tooSmall"],
      referralMonthlyCap: ["notWholeNumber"],
      referralWindowDays: ["tooLarge"],
    });
  });

  it("reads the trade accounts' multiplier (ADR 057) when sent, within 1–3, and keeps it as it was when absent", () => {
    const on = parseRulesForm({ ...rules, tradeMultiplier: "1.5" }, { now, latestScheduled: null });
    expect(on.ok && on.value.rules.tradeMultiplierPermille).toBe(1500);
    const absent = parseRulesForm(rules, { now, latestScheduled: null });
    expect(absent.ok && "tradeMultiplierPermille" in absent.value.rules).toBe(false);
    for (const [value, code] of [
      ["0.9", "tooSmall"],
      ["3.5", "tooLarge"],
      ["x", "invalidMoney"],
      ["1\u00005", "invalidMoney"],
    ] as const) {
      expect(codes(parseRulesForm({ ...rules, tradeMultiplier: value }, { now, latestScheduled: null }))).toEqual({
        tradeMultiplier: [code],
      });
    }
  });

  it("reads the referral reward's kind and coupon (ADR 053); a form without the kind keeps it as it was", () => {
    const referral = {
      referralEnabled: "on",
      referralPoints: "300",
      referralMinAmount: "3000",
      referralMonthlyCap: "5",
      referralWindowDays: "30",
    };
    const id = "5b7d1c8e-6f0a-4c1e-9d2b-3a4f5e6d7c8b";
    const coupon = parseRulesForm(
      { ...rules, ...referral, referralRewardKind: "coupon", referralRewardId: id },
      { now, latestScheduled: null },
    );
    expect(coupon.ok && coupon.value.rules).toMatchObject({ referralRewardKind: "coupon", referralRewardId: id });
    const points = parseRulesForm(
      { ...rules, ...referral, referralRewardKind: "points", referralRewardId: id },
      { now, latestScheduled: null },
    );
    expect(points.ok && points.value.rules).toMatchObject({ referralRewardKind: "points", referralRewardId: null });
    const without = parseRulesForm({ ...rules, ...referral }, { now, latestScheduled: null });
    expect(without.ok && "referralRewardKind" in without.value.rules).toBe(false);
    expect(
      codes(parseRulesForm({ ...rules, ...referral, referralRewardKind: "coupon" }, { now, latestScheduled: null })),
    ).toEqual({ referralRewardId: ["required"] });
    expect(
      codes(
        parseRulesForm(
          { ...rules, ...referral, referralRewardKind: "coupon", referralRewardId: "x\u0000" },
          { now, latestScheduled: null },
        ),
      ),
    ).toEqual({ referralRewardId: ["invalidChoice"] });
    expect(
      codes(parseRulesForm({ ...rules, ...referral, referralRewardKind: "gift" }, { now, latestScheduled: null })),
    ).toEqual({ referralRewardKind: ["invalidChoice"] });
  });
});
