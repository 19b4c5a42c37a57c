import { describe, expect, it } from "vitest";
import { cn } from "./cn";

describe("cn", () => {
  it("joins strings, skips falsy values, flattens arrays and keeps keys whose value is truthy", () => {
    expect(cn("a", false, null, undefined, "", 0, "b")).toBe("a b");
    expect(cn(["a", ["b", false, "c"]], { d: true, e: false, f: 1 })).toBe("a b c d f");
    expect(cn()).toBe("");
  });
});
