/**
 * The messages members send from inside LINE (ADR 035): a page shared through the share target picker, and a
 * coupon sent to the chat the LIFF page was opened from. Pure: the texts come in already translated, the
 * addresses already absolute. Shapes and limits are LINE's (Messaging API message objects, which LIFF accepts).
 */

/** LINE takes 1 to 5 message objects per send (specification §9) and per share. */
export const MAX_LIFF_MESSAGES = 5;
/** A Flex message's alternative text (chat list, notifications): at most 400 characters. */
const MAX_ALT_TEXT = 400;
/** A URI action's label: at most 40 characters in Flex buttons. */
const MAX_LABEL = 40;
/** A URI action's address: at most 1000 characters. */
const MAX_URI = 1000;

const BRAND = "#7d5236";
const INK = "#1f1c18";
const MUTED = "#5e574e";
const SAND = "#f7f1ec";

type UriAction = { type: "uri"; label: string; uri: string };
type FlexText = {
  type: "text";
  text: string;
  size?: "xxs" | "xs" | "sm" | "md" | "lg" | "xl";
  weight?: "regular" | "bold";
  color?: string;
  wrap?: boolean;
  maxLines?: number;
  margin?: "none" | "xs" | "sm" | "md" | "lg";
};
type FlexButton = {
  type: "button";
  style: "primary" | "secondary" | "link";
  color?: string;
  height?: "sm" | "md";
  action: UriAction;
};
type FlexBox = {
  type: "box";
  layout: "vertical" | "horizontal";
  contents: (FlexText | FlexButton | FlexBox)[];
  spacing?: "none" | "xs" | "sm" | "md" | "lg";
  paddingAll?: string;
  backgroundColor?: string;
};
type FlexImage = {
  type: "image";
  url: string;
  size: "full";
  aspectRatio: string;
  aspectMode: "cover" | "fit";
  action?: UriAction;
};
export type FlexBubble = {
  type: "bubble";
  size?: "kilo" | "mega";
  header?: FlexBox;
  hero?: FlexImage;
  body: FlexBox;
  footer?: FlexBox;
};
export type FlexMessage = { type: "flex"; altText: string; contents: FlexBubble };

/** Cuts a text to `max` characters (by code point, so a CJK character or an emoji is never split). */
export function clip(text: string, max: number): string {
  const chars = Array.from(text.trim());
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}

/**
 * The address a shared message links to: the LIFF URL of the page (`https://liff.line.me/{liffId}/path`),
 * which opens it inside LINE for whoever taps it, when a real LIFF app exists; otherwise (the local provider in
 * development and tests) the page's own address. The LIFF app's endpoint is the site's root (docs/operations.md),
 * so the path after the LIFF id is the page's path.
 */
export function liffPageUrl(path: string, { liffId, origin }: { liffId: string | null; origin: string }): string {
  if (!path.startsWith("/") || path.startsWith("//")) throw new Error(`not a site path: ${path}`);
  return liffId ? `https://liff.line.me/${liffId}${path}` : new URL(path, origin).href;
}

/**
 * The picture of a Flex message, when LINE can show it: an absolute https address of a JPEG or PNG (LINE's
 * rule for Flex images). Anything else (the demo catalogue's SVG pictures, an http address in development)
 * leaves the message without a picture rather than making LINE refuse it.
 */
export function flexImageUrl(src: string | null | undefined): string | null {
  if (!src) return null;
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" || !/\.(jpe?g|png)$/i.test(url.pathname) || url.href.length > MAX_URI) return null;
  return url.href;
}

function uri(label: string, address: string): UriAction {
  if (address.length > MAX_URI) throw new Error("the link of a LINE message is too long");
  return { type: "uri", label: clip(label, MAX_LABEL), uri: address };
}

export type SharedPage = {
  /** What is shared: the small line above the name (e.g. 門市據點, 建材選品). */
  kind: string;
  name: string;
  /** One line under the name (the showroom's address, the material's category and series). */
  detail?: string | null;
  /** Absolute address of its picture (see flexImageUrl), or none. */
  image?: string | null;
  /** Where the message leads (liffPageUrl). */
  url: string;
  /** The button's label (查看門市, 查看建材). */
  cta: string;
  /** The chat list's text (漢生活｜name). */
  altText: string;
};

/** A store or material as a Flex bubble: picture, name, one line, and a button to the page. */
export function sharedPageMessage(page: SharedPage): FlexMessage {
  const action = uri(page.cta, page.url);
  const image = flexImageUrl(page.image);
  const body: FlexBox = {
    type: "box",
    layout: "vertical",
    spacing: "sm",
    contents: [
      { type: "text", text: clip(page.kind, 40), size: "xs", color: BRAND },
      { type: "text", text: clip(page.name, 120), size: "lg", weight: "bold", color: INK, wrap: true },
      ...(page.detail
        ? [{ type: "text", text: clip(page.detail, 200), size: "sm", color: MUTED, wrap: true, maxLines: 3 } as const]
        : []),
    ],
  };
  return {
    type: "flex",
    altText: clip(page.altText, MAX_ALT_TEXT),
    contents: {
      type: "bubble",
      ...(image
        ? { hero: { type: "image", url: image, size: "full", aspectRatio: "4:3", aspectMode: "cover", action } }
        : {}),
      body,
      footer: {
        type: "box",
        layout: "vertical",
        contents: [{ type: "button", style: "primary", color: BRAND, height: "sm", action }],
      },
    },
  };
}

export type SentCoupon = {
  /** The card's heading (漢生活會員優惠券). */
  label: string;
  rewardName: string;
  /** The coupon's validity as the wallet shows it (its last day, in Asia/Taipei). */
  validity: string;
  /** That only its owner can use it. */
  note: string;
  /** The member center's coupon address (liffPageUrl of `/member-center?coupon=<id>`). */
  url: string;
  cta: string;
  altText: string;
};

/**
 * A coupon as a Flex bubble for a chat: what it is and until when, and a link to it in the member center.
 * Never its code or its QR code: everyone in the chat can read the message, and the code alone redeems the
 * coupon at a counter. The link opens the sender's own coupon only for the sender (anyone else lands in their
 * own member center), so it hands nothing over.
 */
export function couponMessage(coupon: SentCoupon): FlexMessage {
  const action = uri(coupon.cta, coupon.url);
  return {
    type: "flex",
    altText: clip(coupon.altText, MAX_ALT_TEXT),
    contents: {
      type: "bubble",
      size: "kilo",
      header: {
        type: "box",
        layout: "vertical",
        backgroundColor: SAND,
        contents: [{ type: "text", text: clip(coupon.label, 40), size: "xs", weight: "bold", color: BRAND }],
      },
      body: {
        type: "box",
        layout: "vertical",
        spacing: "sm",
        contents: [
          { type: "text", text: clip(coupon.rewardName, 120), size: "lg", weight: "bold", color: INK, wrap: true },
          { type: "text", text: clip(coupon.validity, 80), size: "sm", color: MUTED, wrap: true },
          { type: "text", text: clip(coupon.note, 120), size: "xs", color: MUTED, wrap: true, margin: "md" },
        ],
      },
      footer: {
        type: "box",
        layout: "vertical",
        contents: [{ type: "button", style: "primary", color: BRAND, height: "sm", action }],
      },
    },
  };
}

/** LINE's rule for one send or share: 1 to 5 message objects, each with a string `type`. */
export function checkMessages<T extends { type: string }>(messages: readonly T[]): T[] {
  if (messages.length < 1 || messages.length > MAX_LIFF_MESSAGES)
    throw new RangeError(`LINE takes 1 to ${MAX_LIFF_MESSAGES} messages at a time, not ${messages.length}`);
  if (!messages.every((m) => typeof m?.type === "string")) throw new TypeError("every LINE message needs a type");
  return [...messages];
}
