import { describe, expect, it } from "vitest";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import { AUDIT_ACTIONS } from "./audit.server";

/** The audit log names each action in words (issue 34, what a person sees): a new action needs its label. */
describe("audit action labels", () => {
  it.each(AUDIT_ACTIONS)("%s has a label in zh-TW and English", (action) => {
    const key = `console.audit.act.${action}`;
    expect(zhTW).toHaveProperty([key]);
    expect(en).toHaveProperty([key]);
    expect((zhTW as Record<string, string>)[key]).not.toBe(action);
  });
});
