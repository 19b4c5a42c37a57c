import { describe, expect, it } from "vitest";
import { translator } from "~/lib/i18n";
import { consoleZhTW as zh } from "~/locales/console.zh-TW";
import { fieldLabel, valueWords } from "./change-words";

const t = translator(zh);

describe("audit change words", () => {
  it("names the adjustment's fields and the codes a change row carries", () => {
    expect(fieldLabel("detail", t)).toBe("說明");
    expect(fieldLabel("adjustmentId", t)).toBe("調整單編號");
    expect(valueWords("issued", t, "zh-TW")).toBe("未使用");
    expect(valueWords("cancelled", t, "zh-TW")).toBe("已取消");
    expect(valueWords("verify-email", t, "zh-TW")).toBe("驗證電子郵件");
  });

  it("writes other text as it is", () => {
    expect(valueWords("送錯點數，補回", t, "zh-TW")).toBe("送錯點數，補回");
    expect(fieldLabel("somethingNew", t)).toBe("somethingNew");
  });
});
