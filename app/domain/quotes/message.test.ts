import { describe, expect, it } from "vitest";
import { composeAutomatic } from "../member-messages/compose.server";
import { AUTOMATIC_DEFAULTS, checkTemplate } from "../member-messages/templates";

/** The member's message when a quote is answered (issue 37 part 4, ADR 047), on each channel. */
const ctx = {
  publicBaseUrl: "https://example.test",
  secret: "s".repeat(40),
  storeName: (id: string, locale: "zh-TW" | "en") =>
    id === "xinyi-flagship" ? (locale === "en" ? "Xinyi Flagship" : "信義旗艦店") : id,
  now: new Date("2026-12-08T06:00:00Z"),
};
const data = {
  quoteId: "0b7d3c3e-2f7e-4a43-9d5e-0d6f4a8e1c11",
  reference: "Q7K2QXA4",
  storeId: "xinyi-flagship",
  amount: 18788,
  validUntil: "2026-12-31",
};

describe("the quote-answered message", () => {
  it("names the reference, the store, the total and the last valid Taipei day", () => {
    const text = AUTOMATIC_DEFAULTS["quote-answered"].text;
    expect(checkTemplate("quote-answered", text["zh-TW"])).toBeNull();
    expect(checkTemplate("quote-answered", text.en)).toBeNull();
    const sms = composeAutomatic(
      "quote-answered",
      text["zh-TW"],
      data,
      "sms",
      { memberId: "m", name: "林詢價", locale: "zh-TW" },
      ctx,
    );
    expect(sms.channel === "sms" && sms.text).toContain(
      "信義旗艦店已回覆您的報價單 Q7K2QXA4：合計 NT$18,788，有效至 2026/12/31",
    );
    const email = composeAutomatic(
      "quote-answered",
      text.en,
      data,
      "email",
      { memberId: "m", name: "Lin", locale: "en" },
      ctx,
    );
    expect(email.channel === "email" && email.text).toContain(
      "Xinyi Flagship has answered your quote Q7K2QXA4: NT$18,788",
    );
    expect(email.channel === "email" && email.html).toContain(`/member-center/quotes/${data.quoteId}`);
    const line = composeAutomatic(
      "quote-answered",
      text["zh-TW"],
      data,
      "line",
      { memberId: "m", name: "林詢價", locale: "zh-TW" },
      ctx,
    );
    expect(JSON.stringify(line)).toContain("NT$18,788");
  });
});
