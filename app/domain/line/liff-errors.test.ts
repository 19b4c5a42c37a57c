import { describe, expect, it } from "vitest";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import { describeLiffError, isAlreadyGranted, type LiffAction } from "./liff-errors";

/** An error as the LIFF SDK raises it (LiffError: a code and a message). */
const liffError = (code: string, message = "") => Object.assign(new Error(message), { code });

describe("describeLiffError", () => {
  it("tells an old LINE app that answers a send with 403 to update to 12.0.1 (specification §8)", () => {
    const failure = describeLiffError("send", liffError("403", "Forbidden"));
    expect(failure).toEqual({ key: "liff.error.updateLine" });
    expect(zhTW[failure.key]).toBe("請將 LINE 更新至 12.0.1 以上版本");
    expect(en[failure.key]).toBe("Please update LINE to 12.0.1 or later");
  });

  it.each<[LiffAction, unknown, string]>([
    // The share target picker (specification §8, §9).
    ["share", liffError("EXCEPTION_IN_SUBWINDOW", "Timeout: not finished within 10min"), "liff.error.shareTimeout"],
    ["share", liffError("CREATE_SUBWINDOW_FAILED", ""), "liff.error.popupBlocked"],
    [
      "share",
      liffError("FORBIDDEN", "shareTargetPicker is unavailable in this client version."),
      "liff.error.versionTooOld",
    ],
    ["share", liffError("FORBIDDEN", "shareTargetPicker is not allowed in this LIFF app"), "liff.error.notAllowed"],
    ["share", liffError("UNAUTHORIZED", "Need access_token for api call, Please login first"), "liff.error.login"],
    ["share", liffError("INIT_FAILED", "Invalid LIFF ID."), "liff.error.generic"],
    // The home-screen shortcut.
    ["shortcut", liffError("INVALID_ARGUMENT", "no proper argument"), "liff.error.invalidUrl"],
    ["shortcut", liffError("INVALID_ARGUMENT", "invalid URL."), "liff.error.invalidUrl"],
    ["shortcut", liffError("FORBIDDEN", "Current page is not under entrypoint."), "liff.error.invalidUrl"],
    [
      "shortcut",
      liffError("FORBIDDEN", "No permission to specify line schema in url."),
      "liff.error.shortcutNotAllowed",
    ],
    ["shortcut", liffError("FORBIDDEN", "No permission to specify description."), "liff.error.shortcutNotAllowed"],
    ["shortcut", liffError("FORBIDDEN", "Could not get Context from server."), "liff.error.context"],
    ["shortcut", liffError("FORBIDDEN", "Could not get endpointUrl from server."), "liff.error.context"],
    ["shortcut", liffError("FORBIDDEN", "this api can be only called in mobile device"), "liff.error.notAllowed"],
    // Permissions and the send.
    ["send", liffError("FORBIDDEN", "The permission is not in LIFF app scope."), "liff.error.notAllowed"],
    ["send", liffError("UNAUTHORIZED", "user didn't allow the agreement"), "liff.error.declined"],
    ["send", liffError("FORBIDDEN", "SkipChannelVerificationScreen is unavailable."), "liff.error.notAllowed"],
    ["send", liffError("429", "Too Many Requests"), "liff.error.rateLimited"],
    ["send", liffError("RATE_LIMIT_EXCEEDED", ""), "liff.error.rateLimited"],
    ["send", liffError("INVALID_ARGUMENT", "Number of messages should be in range 1 to 5."), "liff.error.generic"],
    ["send", new TypeError("Failed to fetch"), "liff.error.network"],
    ["send", liffError("500", "Internal Server Error"), "liff.error.generic"],
    // A 403 anywhere else is not the old-app case.
    ["share", liffError("403", "Forbidden"), "liff.error.generic"],
    // Not even an error object.
    ["share", undefined, "liff.error.generic"],
    ["share", "boom", "liff.error.generic"],
  ])("%s: %o → %s", (action, error, key) => {
    expect(describeLiffError(action, error).key).toBe(key);
  });

  it("shows any other share result with LINE's description of it", () => {
    const failure = describeLiffError("share", liffError("EXCEPTION_IN_SUBWINDOW", "The message could not be sent"));
    expect(failure).toEqual({
      key: "liff.error.shareFailed",
      values: { description: "The message could not be sent" },
    });
    expect(describeLiffError("share", liffError("EXCEPTION_IN_SUBWINDOW", "  ")).key).toBe("liff.error.generic");
  });

  it("has words for every failure in both languages", () => {
    const keys = Object.keys(zhTW).filter((k) => k.startsWith("liff.error."));
    expect(keys.length).toBeGreaterThan(10);
    for (const key of keys) expect(en[key as keyof typeof en]).toBeTruthy();
  });
});

describe("isAlreadyGranted", () => {
  it("recognises requestAll's refusal when nothing is left to ask for", () => {
    expect(isAlreadyGranted(liffError("FORBIDDEN", "All permissions have already been approved."))).toBe(true);
    expect(isAlreadyGranted(liffError("UNAUTHORIZED", "user didn't allow the agreement"))).toBe(false);
    expect(isAlreadyGranted(null)).toBe(false);
  });
});
