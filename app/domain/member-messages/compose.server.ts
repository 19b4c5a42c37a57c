import { BRAND_NAME } from "@platform/constants";
import type { AutomaticKind, MessageChannel } from "@platform/db/schema";
import { formatNumber, type Locale } from "~/lib/i18n";
import { catalogT } from "~/lib/i18n.server";
import { formatIsoDate, formatLastValidDay, formatTaipei, fromTaipeiWallClock, parseIsoDate } from "~/lib/time";
import { renderMemberEmail } from "../messaging/email-templates.server";
import { SMS_BRAND_PREFIX } from "../messaging/sms";
import { flexMessage, memberCard } from "./flex";
import { renderTemplate } from "./templates";
import { unsubscribeToken } from "./unsubscribe.server";

/**
 * What one message says on one channel (issue 16, ADR 034): automatic messages as a Flex card on LINE, the text
 * on SMS (the brand in front, no link), a branded e-mail; campaigns as the admin wrote them per channel, marketing
 * always with its way to refuse (PRODUCT.md §11): the one-click and visible unsubscribe link in e-mail, the
 * member-center instruction in a text, a link to the privacy page on LINE (where blocking the account also works).
 */

export type LineMessages = Array<{ type: "text"; text: string } | ReturnType<typeof flexMessage>>;

export type Outgoing =
  | { channel: "line"; messages: LineMessages }
  | { channel: "sms"; text: string }
  | { channel: "email"; subject: string; text: string; html: string; headers?: Record<string, string> };

export type ComposeContext = {
  publicBaseUrl: string;
  /** Signs the unsubscribe links. */
  secret: string;
  /** Store names by id, per locale (receipts). */
  storeName: (storeId: string, locale: Locale) => string;
  now: Date;
};

export type Recipient = { memberId: string; name: string; locale: Locale; balance?: number };

const url = (base: string, path: string) => new URL(path, base).toString();

/** The template's values for a member in their language, from what was recorded when it happened. */
export function automaticValues(
  data: Record<string, string | number>,
  recipient: Recipient,
  ctx: ComposeContext,
): Record<string, string | number> {
  const t = catalogT(recipient.locale);
  const locale = recipient.locale;
  const n = (v: unknown) => formatNumber(Number(v ?? 0), locale === "en" ? "en-US" : "zh-TW");
  const values: Record<string, string | number> = { name: recipient.name };
  if (data.points !== undefined) values.points = n(data.points);
  if (data.memberNumber !== undefined) values.memberNumber = String(data.memberNumber);
  if (data.tier !== undefined) values.tier = t(`notify.tier.${data.tier}` as "notify.tier.basic");
  if (data.expiresAt !== undefined) values.date = formatLastValidDay(String(data.expiresAt), locale);
  if (data.reward !== undefined) values.reward = String(data.reward);
  if (data.storeId !== undefined) values.store = ctx.storeName(String(data.storeId), locale);
  if (data.amount !== undefined) values.amount = n(data.amount);
  if (data.balance !== undefined) values.balance = n(data.balance);
  if (data.reason !== undefined) values.reason = String(data.reason);
  // A receipt of a purchase paid partly with points (issue 36): shown on the card beside the points earned.
  if (data.pointsSpent !== undefined) values.pointsSpent = n(data.pointsSpent);
  // A quote's answer (issue 37 part 4): its reference and the last day its prices hold (a Taipei date).
  if (data.reference !== undefined) values.reference = String(data.reference);
  if (data.quoteId !== undefined) values.quoteId = String(data.quoteId);
  if (data.validUntil !== undefined) values.date = formatTaipeiDay(String(data.validUntil), locale);
  // Samples due back (issue 37 part 3): how many, and the Taipei day they are due.
  if (data.count !== undefined) values.count = n(data.count);
  if (data.dueOn !== undefined) values.date = formatIsoDate(String(data.dueOn), locale);
  return values;
}

/** A Taipei calendar day (YYYY-MM-DD) in the member's language. */
function formatTaipeiDay(day: string, locale: Locale): string {
  const date = parseIsoDate(day);
  return date ? formatTaipei(fromTaipeiWallClock(date, 12), locale, "date") : day;
}

/** The card around an automatic message's text: its title, the figure that matters and the button. */
export function automaticCard(
  kind: AutomaticKind,
  values: Record<string, string | number>,
  locale: Locale,
  base: string,
) {
  return {
    title: catalogT(locale)(`notify.title.${kind}` as "notify.title.welcome"),
    ...cardParts(kind, values, locale, base),
  };
}

function cardParts(kind: AutomaticKind, values: Record<string, string | number>, locale: Locale, base: string) {
  const t = catalogT(locale);
  const card = url(base, "/member-center");
  switch (kind) {
    case "welcome":
      return {
        highlight: {
          label: t("notify.highlight.welcomePoints"),
          value: t("notify.value.plusPoints", { points: values.points ?? 0 }),
        },
        action: { label: t("notify.action.card"), url: card },
      };
    case "tier-up":
      return {
        highlight: { label: t("notify.highlight.tier"), value: String(values.tier ?? "") },
        action: { label: t("notify.action.card"), url: card },
      };
    case "points-expiring-30":
    case "points-expiring-7":
      return {
        highlight: {
          label: t("notify.highlight.expiring", { date: values.date ?? "" }),
          value: t("notify.value.points", { points: values.points ?? 0 }),
        },
        action: { label: t("notify.action.rewards"), url: url(base, "/member-center#rewards") },
      };
    case "coupon-expiring":
      return {
        highlight: { label: t("notify.highlight.couponExpires"), value: String(values.date ?? "") },
        action: { label: t("notify.action.coupons"), url: url(base, "/member-center#coupons") },
      };
    case "birthday":
      return {
        highlight: {
          label: t("notify.highlight.birthdayPoints"),
          value: t("notify.value.plusPoints", { points: values.points ?? 0 }),
        },
        action: { label: t("notify.action.card"), url: card },
      };
    case "points-granted":
      return {
        highlight: {
          label: t("notify.highlight.granted"),
          value: t("notify.value.plusPoints", { points: values.points ?? 0 }),
        },
        action: { label: t("notify.action.card"), url: card },
      };
    case "quote-answered":
      return {
        highlight: { label: t("notify.highlight.quoteTotal"), value: `NT$${values.amount ?? 0}` },
        action: {
          label: t("notify.action.quote"),
          url: url(base, values.quoteId ? `/member-center/quotes/${values.quoteId}` : "/member-center/quotes"),
        },
      };
    case "sample-due":
      return {
        highlight: { label: t("notify.highlight.sampleDue"), value: String(values.date ?? "") },
        action: { label: t("notify.action.samples"), url: url(base, "/member-center/samples") },
      };
    case "receipt":
      return {
        highlight: {
          label: t("notify.highlight.earned"),
          // A purchase paid partly with points (issue 36): the points spent beside the points earned.
          value: values.pointsSpent
            ? t("notify.value.plusPointsSpent", { points: values.points ?? 0, spent: values.pointsSpent ?? 0 })
            : t("notify.value.plusPoints", { points: values.points ?? 0 }),
        },
        action: { label: t("notify.action.card"), url: card },
      };
  }
}

/** An automatic message on one channel. `template` is the admin's text in the member's language. */
export function composeAutomatic(
  kind: AutomaticKind,
  template: string,
  data: Record<string, string | number>,
  channel: MessageChannel,
  recipient: Recipient,
  ctx: ComposeContext,
  options: { test?: boolean } = {},
): Outgoing {
  const t = catalogT(recipient.locale);
  const values = automaticValues(data, recipient, ctx);
  const prefix = options.test ? t("notify.test.prefix") : "";
  const text = `${prefix}${renderTemplate(template, values)}`;
  const title = t(`notify.title.${kind}` as "notify.title.welcome");
  const parts = cardParts(kind, values, recipient.locale, ctx.publicBaseUrl);
  if (channel === "line") {
    const bubble = memberCard({ brand: BRAND_NAME, title, text, ...parts });
    return { channel, messages: [flexMessage(text, bubble)] };
  }
  if (channel === "sms") return { channel, text: `${SMS_BRAND_PREFIX}${text}` };
  const rendered = renderMemberEmail({
    locale: recipient.locale,
    subject: `${prefix}${title}`,
    title,
    text,
    ...parts,
    footer: t("notify.email.footerService"),
  });
  return { channel, ...rendered };
}

export type CampaignTexts = {
  lineText: string | null;
  smsText: string | null;
  emailSubject: string | null;
  emailBody: string | null;
};

/** The channels a campaign can use: those the admin wrote a message for. */
export function campaignChannels(c: CampaignTexts): MessageChannel[] {
  const channels: MessageChannel[] = [];
  if (c.lineText?.trim()) channels.push("line");
  if (c.smsText?.trim()) channels.push("sms");
  if (c.emailSubject?.trim() && c.emailBody?.trim()) channels.push("email");
  return channels;
}

/**
 * The LINE message of a campaign: the same for every recipient (so it goes as multicasts of up to 500), in the
 * brand's language (zh-TW), with the way to refuse at the end.
 */
export function campaignLineMessages(
  c: CampaignTexts,
  ctx: Pick<ComposeContext, "publicBaseUrl">,
  test = false,
): LineMessages {
  const t = catalogT("zh-TW");
  const refuse = t("notify.line.refuse", { url: url(ctx.publicBaseUrl, "/member-center/privacy#marketing") });
  return [{ type: "text", text: `${test ? t("notify.test.prefix") : ""}${(c.lineText ?? "").trim()}\n\n${refuse}` }];
}

/** The text message of a campaign: brand, the admin's text, the refusal instruction (no link, ADR 006). */
export function campaignSmsText(c: CampaignTexts, test = false): string {
  const t = catalogT("zh-TW");
  return `${SMS_BRAND_PREFIX}${test ? t("notify.test.prefix") : ""}${(c.smsText ?? "").trim()} ${t("notify.sms.refuse")}`;
}

/** The address of a member's no-login refusal page (the e-mail's visible link and its one-click header). */
export function unsubscribeUrl(
  ctx: Pick<ComposeContext, "publicBaseUrl" | "secret" | "now">,
  memberId: string,
): string {
  return url(
    ctx.publicBaseUrl,
    `/unsubscribe/${unsubscribeToken(ctx.secret, { memberId, channel: "email" }, ctx.now)}`,
  );
}

/** The e-mail of a campaign for one member, with RFC 8058's List-Unsubscribe headers. */
export function campaignEmail(
  c: CampaignTexts,
  recipient: Recipient,
  ctx: ComposeContext,
  test = false,
): Extract<Outgoing, { channel: "email" }> {
  const t = catalogT(recipient.locale);
  const link = unsubscribeUrl(ctx, recipient.memberId);
  const prefix = test ? t("notify.test.prefix") : "";
  const subject = `${prefix}${(c.emailSubject ?? "").trim()}`;
  const rendered = renderMemberEmail({
    locale: recipient.locale,
    subject,
    title: (c.emailSubject ?? "").trim(),
    text: (c.emailBody ?? "").trim(),
    footer: t("notify.email.footerMarketing"),
    unsubscribe: { label: t("notify.email.unsubscribe"), url: link },
  });
  return {
    channel: "email",
    ...rendered,
    headers: { "List-Unsubscribe": `<${link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
