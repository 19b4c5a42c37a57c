import { BRAND_NAME } from "@platform/constants";
import { describe, expect, it } from "vitest";
import { MessageRejectedError } from "./errors";
import {
  composeSms,
  containsUrl,
  normalizeSmsRecipient,
  SMS_BRAND_PREFIX,
  SMS_MAX_LENGTH,
  taiwanMobileNational,
} from "./sms";

function rejection(run: () => unknown): MessageRejectedError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(MessageRejectedError);
    return error as MessageRejectedError;
  }
  throw new Error("expected a MessageRejectedError");
}

describe("composeSms", () => {
  it("puts the brand in 【】 in front of the text", () => {
    expect(SMS_BRAND_PREFIX).toBe(`【${BRAND_NAME}】`);
    expect(SMS_BRAND_PREFIX).toBe("【漢生活】");
    expect(composeSms({ to: "0912345678", text: "您的驗證碼是 123456" })).toEqual({
      to: "+886912345678",
      text: "【漢生活】您的驗證碼是 123456",
    });
  });

  it("does not put the brand twice", () => {
    expect(composeSms({ to: "+886912345678", text: "【漢生活】已加上品牌" }).text).toBe("【漢生活】已加上品牌");
  });

  it.each([
    "請至 https://example.com 查詢",
    "http://10.0.0.1/login",
    "請至example.com查詢",
    "點 lin.ee/abc123 加好友",
    "bit.ly/xyz",
    "WWW.HAN-LIVING.COM.TW",
    "line://ti/p/@abc",
    "shop.han-living.com.tw",
    "來信 service@example.com",
    "xn--fiqs8s 測試",
    "192.168.1.1",
  ])("refuses a URL: %s", (text) => {
    expect(rejection(() => composeSms({ to: "0912345678", text })).reason).toBe("url");
  });

  it.each([
    "您的驗證碼是 123456，5 分鐘內有效。",
    "滿 NT$1,000 享 9.5 折",
    "3.5 折起，週末限定",
    "Your code is 123456. Valid for 5 minutes.",
    "Node.js 測試",
  ])("accepts ordinary text: %s", (text) => {
    expect(containsUrl(text)).toBe(false);
    expect(composeSms({ to: "0912345678", text }).text).toBe(`【漢生活】${text}`);
  });

  it("refuses an empty text", () => {
    expect(rejection(() => composeSms({ to: "0912345678", text: "  " })).reason).toBe("empty");
    expect(rejection(() => composeSms({ to: "0912345678", text: "【漢生活】" })).reason).toBe("empty");
  });

  it("refuses a text longer than the limit, counted in characters", () => {
    const longest = "字".repeat(SMS_MAX_LENGTH - SMS_BRAND_PREFIX.length);
    expect([...composeSms({ to: "0912345678", text: longest }).text]).toHaveLength(SMS_MAX_LENGTH);
    expect(rejection(() => composeSms({ to: "0912345678", text: `${longest}字` })).reason).toBe("too-long");
  });

  it("marks rejections as permanent for the job queue", () => {
    expect(rejection(() => composeSms({ to: "x", text: "hi" })).permanent).toBe(true);
  });
});

describe("recipients", () => {
  it.each([
    ["0912345678", "+886912345678"],
    ["0912-345-678", "+886912345678"],
    ["0912 345 678", "+886912345678"],
    ["+886 912 345 678", "+886912345678"],
    ["+886 0912 345 678", "+886912345678"],
    ["+81 90-1234-5678", "+819012345678"],
    ["+1 (415) 555-0100", "+14155550100"],
  ])("normalises %s to %s", (input, e164) => {
    expect(normalizeSmsRecipient(input)).toBe(e164);
  });

  it.each(["", "12345", "0212345678", "091234567", "+0912345678", "phone", "+1234567"])("refuses %j", (input) => {
    expect(rejection(() => normalizeSmsRecipient(input)).reason).toBe("recipient");
  });

  it("converts Taiwan mobiles for Mitake, and only those", () => {
    expect(taiwanMobileNational("+886912345678")).toBe("0912345678");
    expect(taiwanMobileNational("+886223456789")).toBeNull();
    expect(taiwanMobileNational("+819012345678")).toBeNull();
  });
});
