import { describe, expect, it } from "vitest";
import { parseForm } from "~/lib/forms.server";
import type { Translate } from "~/lib/i18n";
import { rewardSchema, stockSchema, withStoreIds } from "./reward-input";

/** The messages as their code (the last part of the key), to assert on the rule, not the words. */
const t = ((key: string) => key.split(".").pop()) as Translate;

/** A form run as the routes run it (`parseForm`), answered as the rule codes per field or the value. */
function run<T>(schema: Parameters<typeof parseForm>[0], fields: Record<string, string>) {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields))
    for (const v of key === "storeIds" ? value.split(",") : [value]) form.append(key, v);
  const parsed = parseForm(schema, withStoreIds(form));
  if (parsed.ok) return { ok: true as const, value: parsed.data as T };
  const problems = Object.entries(parsed.failure.errors).map(([k, list]) => [k, list.map((code) => ({ code }))]);
  return { ok: false as const, problems: Object.fromEntries(problems) as Record<string, { code: string }[]> };
}

const parseRewardForm = (fields: Record<string, string>, options: { knownStoreIds: string[]; withStock: boolean }) =>
  run<import("./reward-input").RewardFields & { stock: number | null }>(rewardSchema(t, options), fields);
const parseStockForm = (fields: Record<string, string>, unlimited: boolean) =>
  run<{ change: import("./reward-input").StockChange; reason: string }>(stockSchema(t, unlimited), fields);

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
