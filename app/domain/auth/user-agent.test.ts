import { describe, expect, it } from "vitest";
import { describeUserAgent } from "./user-agent";

describe("describeUserAgent", () => {
  it("names the common phones and browsers", () => {
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
      ),
    ).toEqual({ device: "iphone", browser: "safari", mobile: true });
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      ),
    ).toEqual({ device: "android", browser: "chrome", mobile: true });
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      ),
    ).toEqual({ device: "windows", browser: "edge", mobile: false });
  });

  it("recognises LINE's in-app browser before Safari", () => {
    const line =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.1.0";
    expect(describeUserAgent(line).browser).toBe("line");
  });

  it("falls back to other for unknown or missing agents", () => {
    expect(describeUserAgent(null)).toEqual({ device: "other", browser: "other", mobile: false });
    expect(describeUserAgent("curl/8.0")).toEqual({ device: "other", browser: "other", mobile: false });
  });
});
