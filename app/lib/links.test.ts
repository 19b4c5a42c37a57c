import { describe, expect, it } from "vitest";
import { links, safeRedirectPath } from "./links";

describe("safeRedirectPath", () => {
  it.each(["/", "/member-center", "/store-detail/taipei-101?tab=hours#map", "/a//b"])(
    "keeps the local path %s",
    (path) => {
      expect(safeRedirectPath(path)).toBe(path);
    },
  );

  it.each([
    ["protocol-relative", "//evil.example"],
    ["protocol-relative with path", "//evil.example/member-login"],
    ["absolute https", "https://evil.example/"],
    ["absolute http", "http://evil.example"],
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,hi"],
    ["backslash after slash", "/\\evil.example"],
    ["leading backslashes", "\\\\evil.example"],
    ["backslash later", "/member\\..\\..\\evil"],
    ["relative path", "member-center"],
    ["empty", ""],
    // Browsers drop tabs and newlines while parsing a URL, so "/<tab>/evil" becomes "//evil".
    ["tab between slashes", "/\t/evil.example"],
    ["newline between slashes", "/\n/evil.example"],
    ["carriage return between slashes", "/\r/evil.example"],
  ])("rejects %s (%j)", (_label, target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it("never yields a target that leaves the site", () => {
    const base = "https://member.example.com/somewhere";
    for (const target of ["//evil.example", "/\t/evil.example", "/\\evil.example", "https://evil.example", "/ok"]) {
      expect(new URL(safeRedirectPath(target), base).origin).toBe("https://member.example.com");
    }
  });

  it.each([null, undefined, 42, { toString: () => "/x" }, ["/x"]])("rejects the non-string %j", (target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it.each([
    ["_routes of a client-side navigation", "/member-center?_routes=routes%2Fmember-center%2Findex", "/member-center"],
    [
      "_routes among other parameters",
      "/member-center/points?page=2&_routes=root%2Croutes%2Fx",
      "/member-center/points?page=2",
    ],
    ["the older _data parameter", "/member-center?_data=routes%2Fmember-center", "/member-center"],
    ["the .data suffix of a data request", "/member-center/edit-info.data", "/member-center/edit-info"],
    ["a data request with both", "/member-center.data?_routes=routes%2Fmember-center%2Findex", "/member-center"],
    ["the data request of a trailing-slash path", "/admin/_.data?_routes=admin", "/admin/"],
    ["the data request of the home page", "/_.data", "/"],
    ["the older home data request", "/_root.data", "/"],
    ["a bare index marker", "/member-center?index", "/member-center"],
    ["a bare index marker beside a value", "/member-center?index&redeem=1", "/member-center?redeem=1"],
    ["the hash survives", "/member-center.data?_routes=x#coupons", "/member-center#coupons"],
  ])("removes %s", (_label, target, expected) => {
    expect(safeRedirectPath(target)).toBe(expected);
  });

  it("keeps an index parameter that carries a value (not React Router's marker)", () => {
    expect(safeRedirectPath("/materials?index=3")).toBe("/materials?index=3");
  });

  it.each([
    ["dot segments folding into //", "/.//evil.example"],
    ["dot-dot segments folding into //", "/a/..//evil.example"],
    ["C1 control character", "/member-center\u0085"],
    ["delete character", "/\u007f/evil.example"],
  ])("rejects %s (%j)", (_label, target) => {
    expect(safeRedirectPath(target)).toBe("/");
  });

  it("uses the given fallback", () => {
    expect(safeRedirectPath("//evil.example", "/member-center")).toBe("/member-center");
    expect(safeRedirectPath(null, "/member-login")).toBe("/member-login");
  });
});

describe("links", () => {
  it("builds the named routes of the specification", () => {
    expect(links["member-center"]()).toBe("/member-center");
    expect(links["member-login"]()).toBe("/member-login");
    expect(links["signup-create-member-info"]()).toBe("/signup/create-member-info");
  });

  it("fills parameters", () => {
    expect(links.storeDetail("taipei-101")).toBe("/store-detail/taipei-101");
    expect(links.materialDetail("oak-floor")).toBe("/material-detail/oak-floor");
    expect(links.admin()).toBe("/admin");
  });

  it("builds the login page with the way back, cleaned of what React Router adds", () => {
    expect(links["member-login"]()).toBe("/member-login");
    expect(links["member-login"]("/member-center")).toBe("/member-login?redirectTo=%2Fmember-center");
    expect(links["member-login"]("/member-center.data?_routes=routes%2Fmember-center%2Findex")).toBe(
      "/member-login?redirectTo=%2Fmember-center",
    );
    expect(links["member-login"]("/member-center/points.data?page=2&_routes=x")).toBe(
      `/member-login?redirectTo=${encodeURIComponent("/member-center/points?page=2")}`,
    );
    expect(links["member-login"]("//evil.example")).toBe("/member-login?redirectTo=%2Fmember-center");
    expect(links["member-login"](undefined, "email")).toBe("/member-login?method=email");
    expect(links["member-login"]("/materials", "email")).toBe("/member-login?method=email&redirectTo=%2Fmaterials");
  });

  it("builds the member-center pages and helpers", () => {
    expect(links.editInfo()).toBe("/member-center/edit-info");
    expect(links.security()).toBe("/member-center/security");
    expect(links.memberPrivacy()).toBe("/member-center/privacy");
    expect(links.linkedLogins()).toBe("/member-center/linked-logins");
    expect(links.memberPoints()).toBe("/member-center/points");
    expect(links.memberPoints(1)).toBe("/member-center/points");
    expect(links.memberPoints(3)).toBe("/member-center/points?page=3");
    expect(links.cardToken()).toBe("/member-center/card-token");
    expect(links.couponQr("c0ffee00-0000-4000-8000-000000000001")).toBe(
      "/member-center/coupons/c0ffee00-0000-4000-8000-000000000001/qr",
    );
  });
});
