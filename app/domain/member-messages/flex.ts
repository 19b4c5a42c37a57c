/**
 * LINE Flex messages of the automatic messages (issue 16 item 1, ADR 034): one calm bubble per message — the
 * brand, a title, the member's text, the figure that matters (points, a date, a tier) and one button into the
 * member center. Pure: the delivery sends it, the console previews it (components/console/flex-preview.tsx
 * draws this same structure). Only the parts of LINE's Flex format used here are typed.
 */

export type FlexText = {
  type: "text";
  text: string;
  size?: "xxs" | "xs" | "sm" | "md" | "lg" | "xl" | "xxl";
  weight?: "regular" | "bold";
  color?: string;
  wrap?: boolean;
  align?: "start" | "end" | "center";
  flex?: number;
};
export type FlexButton = {
  type: "button";
  style: "primary" | "secondary" | "link";
  color?: string;
  height?: "sm" | "md";
  action: { type: "uri"; label: string; uri: string };
};
export type FlexSeparator = { type: "separator"; margin?: "sm" | "md" | "lg" };
export type FlexBox = {
  type: "box";
  layout: "vertical" | "horizontal" | "baseline";
  contents: FlexComponent[];
  spacing?: "sm" | "md" | "lg";
  margin?: "sm" | "md" | "lg";
  paddingAll?: string;
  backgroundColor?: string;
  cornerRadius?: string;
};
export type FlexComponent = FlexText | FlexButton | FlexSeparator | FlexBox;
export type FlexBubble = {
  type: "bubble";
  size?: "kilo" | "mega";
  header?: FlexBox;
  body: FlexBox;
  footer?: FlexBox;
  styles?: { header?: { backgroundColor: string }; footer?: { separator: boolean } };
};

/** The brand's colours (the e-mails' palette): calm ink on warm paper, the walnut brown for the action. */
export const FLEX_COLORS = {
  paper: "#faf8f4",
  ink: "#1f1c18",
  muted: "#5e574e",
  brand: "#5f3d28",
  highlightBg: "#f7f1ec",
} as const;

/** LINE's limits: a button label of up to 40 characters (20 show on most phones), altText up to 1,500. */
const LABEL_MAX = 20;
const ALT_TEXT_MAX = 400;

export type CardInput = {
  brand: string;
  title: string;
  text: string;
  /** The figure that matters, with its label: "點數" · "1,200 點". */
  highlight?: { label: string; value: string } | null;
  action: { label: string; url: string };
};

const clip = (text: string, max: number) =>
  Array.from(text).length > max
    ? `${Array.from(text)
        .slice(0, max - 1)
        .join("")}…`
    : text;

export function memberCard(input: CardInput): FlexBubble {
  const body: FlexComponent[] = [
    { type: "text", text: input.title, weight: "bold", size: "lg", color: FLEX_COLORS.ink, wrap: true },
    { type: "text", text: input.text, size: "sm", color: FLEX_COLORS.muted, wrap: true },
  ];
  if (input.highlight) {
    body.push({
      type: "box",
      layout: "baseline",
      spacing: "sm",
      margin: "md",
      paddingAll: "12px",
      backgroundColor: FLEX_COLORS.highlightBg,
      cornerRadius: "8px",
      contents: [
        { type: "text", text: input.highlight.label, size: "sm", color: FLEX_COLORS.muted, flex: 0 },
        {
          type: "text",
          text: input.highlight.value,
          size: "lg",
          weight: "bold",
          color: FLEX_COLORS.brand,
          align: "end",
          wrap: true,
        },
      ],
    });
  }
  return {
    type: "bubble",
    size: "mega",
    header: {
      type: "box",
      layout: "vertical",
      paddingAll: "16px",
      contents: [{ type: "text", text: input.brand, size: "sm", weight: "bold", color: FLEX_COLORS.brand }],
    },
    body: { type: "box", layout: "vertical", spacing: "md", contents: body },
    footer: {
      type: "box",
      layout: "vertical",
      contents: [
        {
          type: "button",
          style: "primary",
          color: FLEX_COLORS.brand,
          height: "sm",
          action: { type: "uri", label: clip(input.action.label, LABEL_MAX), uri: input.action.url },
        },
      ],
    },
    styles: { header: { backgroundColor: FLEX_COLORS.paper } },
  };
}

/** The message object LINE takes: the bubble and the text shown in notifications and chat lists. */
export function flexMessage(altText: string, bubble: FlexBubble) {
  return {
    type: "flex" as const,
    altText: clip(altText, ALT_TEXT_MAX),
    contents: bubble as unknown as Record<string, unknown>,
  };
}
