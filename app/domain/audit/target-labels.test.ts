import { describe, expect, it } from "vitest";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import { AUDIT_TARGET_TYPES } from "./target-types";

/** The audit log names each target type in words, like its actions (issue 34). */
describe("audit target type labels", () => {
  it.each(AUDIT_TARGET_TYPES)("%s has a label in zh-TW and English", (type) => {
    const key = `console.audit.target.${type}`;
    expect(zhTW).toHaveProperty([key]);
    expect(en).toHaveProperty([key]);
    expect((zhTW as Record<string, string>)[key]).not.toBe(type);
  });
});
