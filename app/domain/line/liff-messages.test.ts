import { describe, expect, it } from "vitest";
import {
  checkMessages,
  clip,
  couponMessage,
  flexImageUrl,
  liffPageUrl,
  MAX_LIFF_MESSAGES,
  type SentCoupon,
  type SharedPage,
  sharedPageMessage,
} from "./liff-messages";

const PAGE: SharedPage = {
  kind: "建材選品",
  name: "花蓮白大理石",
  detail: "石材・經典系列",
  image: "https://han.example/media/0123456789abcdef0123456789abcdef/1600.jpg",
  url: "https://liff.line.me/1657000000-AbCdEfGh/material-detail/hualien-white-marble",
  cta: "查看建材",
  altText: "漢生活｜花蓮白大理石",
};

const COUPON: SentCoupon = {
  label: "漢生活會員優惠券",
  rewardName: "NT$500 折價券",
  validity: "2026/12/31 前有效",
  note: "優惠券限會員本人於門市出示使用。",
  url: "https://liff.line.me/1657000000-AbCdEfGh/member-center?coupon=5b7e9c1e-8f1a-4c1e-9d1a-2f3b4c5d6e7f",
  cta: "查看優惠券",
  altText: "漢生活優惠券：NT$500 折價券",
};

describe("liffPageUrl", () => {
  it("is the LIFF URL of the page when a real LIFF app exists", () => {
    expect(liffPageUrl("/store-detail/xinyi-flagship", { liffId: "1657000000-AbCdEfGh", origin: "http://x" })).toBe(
      "https://liff.line.me/1657000000-AbCdEfGh/store-detail/xinyi-flagship",
    );
    expect(liffPageUrl("/member-center?coupon=abc", { liffId: "1657000000-AbCdEfGh", origin: "http://x" })).toBe(
      "https://liff.line.me/1657000000-AbCdEfGh/member-center?coupon=abc",
    );
  });

  it("is the page's own address otherwise (the local provider)", () => {
    expect(liffPageUrl("/material-detail/a", { liffId: null, origin: "http://127.0.0.1:4000" })).toBe(
      "http://127.0.0.1:4000/material-detail/a",
    );
  });

  it("takes only a path of this site", () => {
    for (const path of ["https://evil.example/x", "//evil.example/x", "member-center"]) {
      expect(() => liffPageUrl(path, { liffId: null, origin: "https://han.example" })).toThrow(/not a site path/);
    }
  });
});

describe("flexImageUrl", () => {
  it("keeps absolute https JPEG and PNG addresses", () => {
    expect(flexImageUrl("https://han.example/media/abc/960.jpg")).toBe("https://han.example/media/abc/960.jpg");
    expect(flexImageUrl("https://han.example/a/b.JPEG")).toBe("https://han.example/a/b.JPEG");
    expect(flexImageUrl("https://han.example/a/b.png?v=2")).toBe("https://han.example/a/b.png?v=2");
  });

  it("drops what LINE cannot show: SVG, WebP, http, relative, nothing", () => {
    for (const src of [
      "https://han.example/media/texture/ece5da-5e574e/3.svg",
      "https://han.example/media/abc/960.webp",
      "http://han.example/media/abc/960.jpg",
      "/media/abc/960.jpg",
      "",
      null,
      undefined,
    ]) {
      expect(flexImageUrl(src)).toBeNull();
    }
    expect(flexImageUrl(`https://han.example/${"a".repeat(1000)}.jpg`)).toBeNull();
  });
});

describe("sharedPageMessage", () => {
  it("is a Flex bubble with the picture, the name and a button to the page", () => {
    const message = sharedPageMessage(PAGE);
    expect(message.type).toBe("flex");
    expect(message.altText).toBe("漢生活｜花蓮白大理石");
    const bubble = message.contents;
    expect(bubble.type).toBe("bubble");
    expect(bubble.hero).toEqual({
      type: "image",
      url: PAGE.image,
      size: "full",
      aspectRatio: "4:3",
      aspectMode: "cover",
      action: { type: "uri", label: "查看建材", uri: PAGE.url },
    });
    expect(bubble.body.contents.map((c) => ("text" in c ? c.text : null))).toEqual([
      "建材選品",
      "花蓮白大理石",
      "石材・經典系列",
    ]);
    expect(bubble.footer?.contents).toEqual([
      {
        type: "button",
        style: "primary",
        color: "#7d5236",
        height: "sm",
        action: { type: "uri", label: "查看建材", uri: PAGE.url },
      },
    ]);
  });

  it("has no picture when LINE could not show it, and no detail line when there is none", () => {
    const message = sharedPageMessage({ ...PAGE, image: "https://han.example/media/texture/a/1.svg", detail: null });
    expect(message.contents.hero).toBeUndefined();
    expect(message.contents.body.contents).toHaveLength(2);
  });

  it("keeps to LINE's limits: alt text 400, label 40 characters (a CJK character counts once)", () => {
    const message = sharedPageMessage({ ...PAGE, altText: "石".repeat(500), cta: "查".repeat(60) });
    expect(Array.from(message.altText)).toHaveLength(400);
    expect(message.altText.endsWith("…")).toBe(true);
    const button = message.contents.footer?.contents[0];
    expect(button && "action" in button ? Array.from(button.action.label) : []).toHaveLength(40);
    expect(() => sharedPageMessage({ ...PAGE, url: `https://han.example/${"x".repeat(1000)}` })).toThrow(/too long/);
  });
});

describe("couponMessage", () => {
  it("says what the coupon is, until when, that only its owner can use it, and links to it", () => {
    const message = couponMessage(COUPON);
    expect(message.altText).toBe("漢生活優惠券：NT$500 折價券");
    const texts = JSON.stringify(message);
    for (const text of [COUPON.label, COUPON.rewardName, COUPON.validity, COUPON.note, COUPON.url, COUPON.cta]) {
      expect(texts).toContain(text);
    }
    expect(message.contents.footer?.contents[0]).toMatchObject({
      type: "button",
      action: { type: "uri", uri: COUPON.url },
    });
  });

  it("carries nothing but what it was given (no code, no QR content can slip in)", () => {
    const message = couponMessage(COUPON);
    const strings: string[] = [];
    JSON.stringify(message, (_key, value) => {
      if (typeof value === "string") strings.push(value);
      return value;
    });
    const given = new Set(Object.values(COUPON));
    const shapes = new Set([
      "flex",
      "bubble",
      "kilo",
      "box",
      "vertical",
      "text",
      "button",
      "uri",
      "primary",
      "sm",
      "xs",
      "lg",
      "md",
      "bold",
    ]);
    const colours = /^#[0-9a-f]{6}$/;
    expect(strings.filter((s) => !given.has(s) && !shapes.has(s) && !colours.test(s))).toEqual([]);
  });
});

describe("checkMessages", () => {
  it("takes 1 to 5 messages, each with a type", () => {
    const one = sharedPageMessage(PAGE);
    expect(checkMessages([one])).toHaveLength(1);
    expect(checkMessages(Array.from({ length: MAX_LIFF_MESSAGES }, () => one))).toHaveLength(5);
    expect(() => checkMessages([])).toThrow(RangeError);
    expect(() => checkMessages(Array.from({ length: 6 }, () => one))).toThrow(/1 to 5/);
    expect(() => checkMessages([{ type: 1 } as unknown as { type: string }])).toThrow(/needs a type/);
  });
});

describe("clip", () => {
  it("keeps short texts and cuts long ones by character", () => {
    expect(clip("  漢生活  ", 10)).toBe("漢生活");
    expect(clip("漢生活會員", 3)).toBe("漢生…");
    expect(clip("👍👍👍👍", 3)).toBe("👍👍…");
  });
});
