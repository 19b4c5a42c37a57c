import { describe, expect, it } from "vitest";
import { parseMaterialFilters } from "../materials/filters";
import { distanceKm, parseNear, parseStoreFilters, storeFiltersQuery } from "../stores/filters";
import { containsPattern, normaliseSearch, parseSlug, SEARCH_MAX_LENGTH } from "./search";

describe("search text", () => {
  it("is trimmed, collapsed, stripped of control characters and cut", () => {
    expect(normaliseSearch("  信義 \t  旗艦\n")).toBe("信義 旗艦");
    expect(normaliseSearch("a\u0000b")).toBe("a b");
    expect(normaliseSearch("x".repeat(200))).toHaveLength(SEARCH_MAX_LENGTH);
    expect(normaliseSearch(null)).toBe("");
    expect(normaliseSearch(["a"])).toBe("");
  });

  it("keeps SQL and HTML characters as typed", () => {
    expect(normaliseSearch("' or 1=1 --")).toBe("' or 1=1 --");
    expect(normaliseSearch("<script>")).toBe("<script>");
  });

  it("escapes LIKE wildcards and the escape character", () => {
    expect(containsPattern("100%")).toBe("%100\\%%");
    expect(containsPattern("a_b")).toBe("%a\\_b%");
    expect(containsPattern("back\\slash")).toBe("%back\\\\slash%");
    expect(containsPattern("大理石")).toBe("%大理石%");
  });

  it("accepts slugs only", () => {
    expect(parseSlug("xinyi-flagship")).toBe("xinyi-flagship");
    for (const bad of ["Xinyi", "a--b", "-a", "a b", "../etc", "a".repeat(65), 3, null]) {
      expect(parseSlug(bad)).toBeNull();
    }
  });
});

describe("store filters from the URL", () => {
  it("reads known values", () => {
    expect(parseStoreFilters(new URLSearchParams("city=taichung&open=1&q=%E4%B8%83%E6%9C%9F"))).toEqual({
      city: "taichung",
      openNow: true,
      q: "七期",
      near: null,
    });
  });

  it("ignores bogus values", () => {
    expect(parseStoreFilters(new URLSearchParams("city=mars&open=perhaps&near=north"))).toEqual({
      city: null,
      openNow: false,
      q: "",
      near: null,
    });
  });

  it("rounds a shared position and refuses impossible ones", () => {
    expect(parseNear("25.03412,121.56451")).toEqual({ lat: 25.03, lng: 121.56 });
    expect(parseNear("91,121")).toBeNull();
    expect(parseNear("25,181")).toBeNull();
    expect(parseNear("25;121")).toBeNull();
  });

  it("writes the canonical query back", () => {
    const filters = parseStoreFilters(new URLSearchParams("q=x&bogus=1&city=taipei&open=on"));
    expect(storeFiltersQuery(filters)).toBe("?city=taipei&open=1&q=x");
    expect(storeFiltersQuery(parseStoreFilters(new URLSearchParams("")))).toBe("");
  });

  it("measures distances in kilometres", () => {
    const taipei101 = { lat: 25.0336, lng: 121.5648 };
    const kaohsiung = { lat: 22.6273, lng: 120.3014 };
    expect(distanceKm(taipei101, kaohsiung)).toBeGreaterThan(290);
    expect(distanceKm(taipei101, kaohsiung)).toBeLessThan(310);
    expect(distanceKm(taipei101, taipei101)).toBe(0);
  });
});

describe("material filters from the URL", () => {
  it("accepts only known categories", () => {
    const known = ["tiles", "stone"];
    expect(parseMaterialFilters(new URLSearchParams("category=stone&q=%20marble%20"), known)).toEqual({
      category: "stone",
      q: "marble",
    });
    expect(parseMaterialFilters(new URLSearchParams("category=glass"), known).category).toBeNull();
    expect(parseMaterialFilters(new URLSearchParams("category=<b>"), known).category).toBeNull();
  });
});
