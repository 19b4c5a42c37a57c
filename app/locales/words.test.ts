import { describe, expect, it } from "vitest";
import { zhTW } from "./zh-TW";

/** One word for one thing across the site and the console (issue 34, what a person sees). */
describe("zh-TW words", () => {
  it("writes 櫃檯, never 櫃台", () => {
    expect(Object.entries(zhTW).filter(([, text]) => text.includes("櫃台"))).toEqual([]);
  });

  it("calls the sample service 樣品借用 in the console as on the site", () => {
    expect(zhTW["console.stores.service.samples"]).toBe(zhTW["catalog.service.samples"]);
  });
});
