import { describe, expect, it } from "vitest";
import { effectiveInstant, parseCents, parsePermille, parseRewardForm, parseRulesForm, parseStockForm } from "./input";

const stores = { knownStoreIds: ["xinyi-flagship", "banqiao"], withStock: true };
const reward = { name: "杯墊", kind: "gift", pointsCost: "150", couponValidDays: "30" };
const codes = (r: { ok: boolean; problems?: Record<string, { code: string }[]> }) =>
  r.ok ? {} : Object.fromEntries(Object.entries(r.problems ?? {}).map(([k, v]) => [k, v.map((p) => p.code)]));

describe("reward form", () => {
  it.each([
    [{ name: "" }, { name: ["required"] }],
    [{ name: "長".repeat(61) }, { name: ["tooLong"] }],
    [{ pointsCost: "-1" }, { pointsCost: ["tooSmall"] }],
    [{ pointsCost: "0" }, { pointsCost: ["tooSmall"] }],
    [{ pointsCost: "1.5" }, { pointsCost: ["notWholeNumber"] }],
    [{ stock: "-1" }, { stock: ["tooSmall"] }],
    [{ kind: "free-money" }, { kind: ["invalidChoice"] }],
    [{ kind: "amount-off" }, { amountOff: ["required"] }],
    [{ storeIds: "nowhere" }, { storeIds: ["invalidChoice"] }],
    [{ validFrom: "2030-05-02", validUntil: "2030-05-01" }, { validUntil: ["untilBeforeFrom"] }],
    [{ validFrom: "2030-02-30" }, { validFrom: ["invalidDate"] }],
    [
      { imageSrc: "javascript:alert(1)" },
      { imageSrc: ["invalidImagePath"], imageAltZh: ["required"], imageAltEn: ["required"] },
    ],
    [{ imageSrc: "//evil.example/x.png", imageAltZh: "杯", imageAltEn: "mug" }, { imageSrc: ["invalidImagePath"] }],
    [{ imageId: "../etc/passwd" }, { imageId: ["imageMissing"] }],
  ])("refuses %j", (fields, expected) => {
    expect(codes(parseRewardForm({ ...reward, ...fields }, stores))).toEqual(expected);
  });

  it("takes an uploaded image's id over a path, and keeps a path without one", () => {
    const id = "0b5e6c1e-8a8f-4d0c-9a51-3f0f2b7c9d10";
    const uploaded = parseRewardForm({ ...reward, imageId: ` ${id.toUpperCase()} `, imageSrc: "/media/x.svg" }, stores);
    expect(uploaded.ok && uploaded.value).toMatchObject({ imageId: id, image: null });
    const path = parseRewardForm({ ...reward, imageSrc: "/media/x.svg", imageAltZh: "杯", imageAltEn: "cup" }, stores);
    expect(path.ok && path.value).toMatchObject({
      imageId: null,
      image: { src: "/media/x.svg", alt: { "zh-TW": "杯", en: "cup" } },
    });
  });

  it("keeps HTML as the text typed and reads people's numbers", () => {
    const r = parseRewardForm(
      {
        ...reward,
        name: " <b>杯墊</b> ",
        pointsCost: "１,２００",
        stock: "",
        storeIds: "banqiao",
        validUntil: "2030-05-01",
      },
      stores,
    );
    expect(r.ok && r.value).toMatchObject({
      name: "<b>杯墊</b>",
      pointsCost: 1200,
      stock: null,
      storeIds: ["banqiao"],
    });
    // The last day offered runs to the end of that Taipei day.
    expect(r.ok && r.value.validUntil?.toISOString()).toBe("2030-05-01T16:00:00.000Z");
  });

  it("stock: a non-zero change with a reason, a stock for an unlimited reward, or unlimited", () => {
    expect(codes(parseStockForm({ delta: "0", reason: "x" }, false))).toEqual({ delta: ["tooSmall"] });
    expect(codes(parseStockForm({ delta: "3", reason: "" }, false))).toEqual({ reason: ["required"] });
    expect(parseStockForm({ delta: "-2", reason: "盤點" }, false)).toEqual({
      ok: true,
      value: { change: { kind: "delta", delta: -2 }, reason: "盤點" },
    });
    expect(parseStockForm({ stock: "7", reason: "x" }, true)).toMatchObject({
      value: { change: { kind: "set", stock: 7 } },
    });
    expect(parseStockForm({ unlimited: "on", reason: "x" }, false)).toMatchObject({
      value: { change: { kind: "set", stock: null } },
    });
  });
});

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
});
