import { describe, expect, it } from "vitest";
import { liffStartFor } from "./liff-detect";

const docWith = (meta: { content: string; mock?: string } | null) =>
  ({
    querySelector: () => (meta ? { content: meta.content, dataset: { mock: meta.mock } } : null),
  }) as unknown as Document;

const BROWSER =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1";
const LINE_APP =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Line/14.19.0";

describe("liffStartFor", () => {
  it("starts LIFF inside the LINE app's browser", () => {
    expect(liffStartFor(docWith({ content: "1657000000-AbCd" }), LINE_APP, "")).toEqual({
      liffId: "1657000000-AbCd",
      mock: false,
    });
  });

  it("starts LIFF on LIFF's return (code, state and liffClientId), in any browser", () => {
    const search = "?code=abc&state=xyz&liffClientId=1657000000";
    expect(liffStartFor(docWith({ content: "1657000000-AbCd", mock: "1" }), BROWSER, search)).toEqual({
      liffId: "1657000000-AbCd",
      mock: true,
    });
  });

  it("leaves other visitors alone, and everyone when no LIFF app is configured", () => {
    expect(liffStartFor(docWith({ content: "1657000000-AbCd" }), BROWSER, "")).toBeNull();
    expect(liffStartFor(docWith({ content: "1657000000-AbCd" }), BROWSER, "?code=abc&state=xyz")).toBeNull();
    expect(liffStartFor(docWith(null), LINE_APP, "?code=abc&state=xyz&liffClientId=1")).toBeNull();
    // "Line" elsewhere in a user agent is not the LINE app.
    expect(liffStartFor(docWith({ content: "1657000000-AbCd" }), "Mozilla/5.0 Timeline/2.0", "")).toBeNull();
  });
});
