import { describe, expect, it } from "vitest";
import { redactUrl } from "./redact-url";

describe("redactUrl", () => {
  it("replaces the invitation token of a page load, a navigation and a full URL", () => {
    expect(redactUrl("/admin/invitation/hK3_x-9QzT")).toBe("/admin/invitation/[redacted]");
    expect(redactUrl("/admin/invitation/hK3_x-9QzT?lang=en")).toBe("/admin/invitation/[redacted]?lang=en");
    expect(redactUrl("/admin/invitation/hK3_x-9QzT.data")).toBe("/admin/invitation/[redacted].data");
    expect(redactUrl("https://shop.example/admin/invitation/hK3_x-9QzT/")).toBe(
      "https://shop.example/admin/invitation/[redacted]/",
    );
  });

  it("replaces it inside a percent-encoded parameter too", () => {
    expect(redactUrl("/admin/login?redirectTo=%2Fadmin%2Finvitation%2FhK3_x-9QzT")).toBe(
      "/admin/login?redirectTo=%2Fadmin%2Finvitation%2F[redacted]",
    );
  });

  it("leaves every other URL as it was", () => {
    for (const url of ["/admin/invitation", "/admin/invitation/", "/admin/counter?q=1", "/material-detail/abc"])
      expect(redactUrl(url)).toBe(url);
  });
});
