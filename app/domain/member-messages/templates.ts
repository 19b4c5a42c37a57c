import type { AutomaticKind, MessageChannel } from "@platform/db/schema/member-message-kinds";
import type { Locale } from "~/lib/i18n";

/**
 * The automatic messages' texts (issue 16 item 2, ADR 034): what each one says by default in zh-TW and English,
 * which values it may use ({placeholders}), and the channels it goes by unless an admin changes them. Pure: the
 * console's editor, its previews and the delivery all render with `renderTemplate`.
 */

export const AUTOMATIC_TEXT_MAX = 240;

/** The values each kind's text may use. */
export const PLACEHOLDERS: Record<AutomaticKind, readonly string[]> = {
  welcome: ["name", "points", "memberNumber"],
  "tier-up": ["name", "tier"],
  "points-expiring-30": ["name", "points", "date"],
  "points-expiring-7": ["name", "points", "date"],
  "coupon-expiring": ["name", "reward", "date"],
  birthday: ["name", "points"],
  receipt: ["name", "store", "amount", "points", "balance"],
  "points-granted": ["name", "points", "reason"],
  "quote-answered": ["name", "reference", "store", "amount", "date"],
  "sample-due": ["name", "count", "store", "date"],
};

export type AutomaticDefaults = {
  enabled: boolean;
  text: Record<Locale, string>;
  channels: MessageChannel[];
};

/**
 * The defaults (PRODUCT.md §11): every message on, by every channel, except the two that come with each visit
 * or sign-up — the welcome and the receipt — which do not go by text message unless an admin says so (a text
 * costs the brand per message; the member has just had one for the sign-up code, and the counter prints a
 * receipt anyway), and the points of a bulk grant (issue 35), which go only when the admin ticks it on the grant
 * and then, like the welcome, not by paid text message unless an admin adds it.
 */
export const AUTOMATIC_DEFAULTS: Record<AutomaticKind, AutomaticDefaults> = {
  welcome: {
    enabled: true,
    channels: ["line", "email"],
    text: {
      "zh-TW": "{name} 您好，歡迎加入漢生活會員！已為您存入 {points} 點迎新點數，結帳時出示會員卡即可累積點數。",
      en: "Hello {name}, welcome to Han Living! We have added {points} welcome points. Show your member card at checkout to earn more.",
    },
  },
  "tier-up": {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW": "恭喜 {name}！您已升級為{tier}，之後每筆消費都能累積更多點數。",
      en: "Congratulations, {name}! You are now a {tier} member and earn more points with every purchase.",
    },
  },
  "points-expiring-30": {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW": "{name} 您好，您有 {points} 點將於 {date} 到期，歡迎在到期前兌換好禮。",
      en: "Hello {name}, {points} of your points expire on {date}. Redeem them for a reward before then.",
    },
  },
  "points-expiring-7": {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW": "提醒 {name}：您有 {points} 點將於 {date} 到期，只剩 7 天，別錯過兌換。",
      en: "A reminder, {name}: {points} points expire on {date}, in 7 days. Don't miss your reward.",
    },
  },
  "coupon-expiring": {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW": "{name} 您好，您的優惠券「{reward}」將於 {date} 到期，記得到門市使用。",
      en: "Hello {name}, your coupon “{reward}” expires on {date}. Use it at any of our showrooms.",
    },
  },
  birthday: {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW": "{name} 生日快樂！漢生活送上 {points} 點生日點數，祝您有美好的一年。",
      en: "Happy birthday, {name}! Han Living has added {points} birthday points to your account.",
    },
  },
  receipt: {
    enabled: true,
    channels: ["line", "email"],
    text: {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a {placeholder} after "NT$", not a JavaScript template
      "zh-TW": "感謝您於{store}消費 NT${amount}，本次累積 {points} 點，目前共有 {balance} 點。",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a {placeholder} after "NT$", not a JavaScript template
      en: "Thank you for your purchase of NT${amount} at {store}. You earned {points} points; your balance is now {balance}.",
    },
  },
  "points-granted": {
    enabled: true,
    channels: ["line", "email"],
    text: {
      "zh-TW": "您獲得 {points} 點：{reason}",
      en: "You have received {points} points: {reason}",
    },
  },
  // A service message (issue 37 part 4, ADR 047): every channel; a text message never goes 21:00–09:00.
  "quote-answered": {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW":
        // biome-ignore lint/suspicious/noTemplateCurlyInString: a {placeholder} after "NT$", not a JavaScript template
        "{name} 您好，{store}已回覆您的報價單 {reference}：合計 NT${amount}，有效至 {date}。請到會員中心查看明細。",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a {placeholder} after "NT$", not a JavaScript template
      en: "Hello {name}, {store} has answered your quote {reference}: NT${amount} in total, valid until {date}. See the details in your member center.",
    },
  },
  // Samples due back in 2 days (issue 37 part 3, ADR 046): a service reminder by the member's channel.
  "sample-due": {
    enabled: true,
    channels: ["line", "sms", "email"],
    text: {
      "zh-TW": "{name} 您好，您向{store}借用的 {count} 件樣品請於 {date} 前歸還，謝謝。",
      en: "Hello {name}, please return the {count} sample(s) you borrowed from {store} by {date}. Thank you.",
    },
  },
};

const PLACEHOLDER = /\{(\w+)\}/g;

/** The text with its values in place; an unknown or missing placeholder is left as written (never "undefined"). */
export function renderTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(PLACEHOLDER, (match, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : match,
  );
}

export type TemplateProblem =
  | { code: "required" }
  | { code: "tooLong"; max: number }
  | { code: "unknownPlaceholder"; name: string }
  | { code: "control" };

/** Checks an admin's text for one kind: not empty, not too long, only its own placeholders, no control characters. */
export function checkTemplate(kind: AutomaticKind, text: string): TemplateProblem | null {
  const trimmed = text.trim();
  if (!trimmed) return { code: "required" };
  if (Array.from(trimmed).length > AUTOMATIC_TEXT_MAX) return { code: "tooLong", max: AUTOMATIC_TEXT_MAX };
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(trimmed)) return { code: "control" };
  for (const match of trimmed.matchAll(PLACEHOLDER)) {
    const name = match[1] as string;
    if (!PLACEHOLDERS[kind].includes(name)) return { code: "unknownPlaceholder", name };
  }
  return null;
}

/** Sample values for previews in the console (the member's own values when the message goes out). */
export function sampleValues(kind: AutomaticKind, locale: Locale): Record<string, string | number> {
  const zh = locale === "zh-TW";
  const common = { name: zh ? "林雅婷" : "Ya-ting Lin" };
  switch (kind) {
    case "welcome":
      return { ...common, points: 100, memberNumber: "HL10000001" };
    case "tier-up":
      return { ...common, tier: zh ? "銀卡會員" : "Silver" };
    case "points-expiring-30":
    case "points-expiring-7":
      return { ...common, points: "1,200", date: zh ? "2026/12/31" : "Dec 31, 2026" };
    case "coupon-expiring":
      return { ...common, reward: zh ? "NT$300 折價券" : "NT$300 voucher", date: zh ? "2026/12/31" : "Dec 31, 2026" };
    case "birthday":
      return { ...common, points: 200 };
    case "receipt":
      return {
        ...common,
        store: zh ? "信義旗艦店" : "Xinyi Flagship",
        amount: "12,800",
        points: 153,
        balance: "2,410",
      };
    case "points-granted":
      return { ...common, points: 500, reason: zh ? "週年慶回饋" : "Anniversary thank-you" };
    case "quote-answered":
      return {
        ...common,
        reference: "Q7K2QXA4",
        store: zh ? "信義旗艦店" : "Xinyi Flagship",
        amount: "48,600",
        date: zh ? "2026/12/31" : "Dec 31, 2026",
      };
    case "sample-due":
      return {
        ...common,
        count: 2,
        store: zh ? "信義旗艦店" : "Xinyi Flagship",
        date: zh ? "2026/12/31" : "Dec 31, 2026",
      };
  }
}
