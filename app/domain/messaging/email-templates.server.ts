import { BRAND_NAME } from "@platform/constants";
import { z } from "zod";
import { HTML_LANG, LOCALES } from "~/lib/i18n";
import { catalogT } from "~/lib/i18n.server";
import { MessageRejectedError } from "./errors";
import type { CodePurpose, EmailMessage } from "./types";

/**
 * E-mail templates (zh-TW and en, HTML and plain text). Calm and branded: inline styles only,
 * no images, no web fonts, no links of any kind — a one-time code is typed or pasted, never
 * clicked. The code is large, set apart and selectable in one tap.
 */
export type RenderedEmail = { subject: string; text: string; html: string };

export const CODE_PURPOSES = [
  "signup",
  "reset-password",
  "verify-email",
  "change-phone",
  "change-email",
  "reauth",
] as const satisfies readonly CodePurpose[];

// A real address form; the outbox and SMTP both want it lowercased (PRODUCT.md §8).
const EMAIL_ADDRESS = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]{2,}$/;

const address = z
  .string()
  .trim()
  .max(254)
  .transform((v) => v.toLowerCase())
  .refine((v) => EMAIL_ADDRESS.test(v), "not an e-mail address");

const emailMessageSchema = z.discriminatedUnion("template", [
  z.object({
    to: address,
    locale: z.enum(LOCALES),
    template: z.literal("one-time-code"),
    data: z.object({
      code: z.string().regex(/^\d{4,10}$/, "a code is 4 to 10 digits"),
      purpose: z.enum(CODE_PURPOSES),
      minutes: z
        .number()
        .int()
        .min(1)
        .max(24 * 60),
      wording: z.literal("welcome").optional(),
    }),
  }),
  z.object({
    to: address,
    locale: z.enum(LOCALES),
    template: z.literal("email-changed"),
    data: z.object({ newEmail: address }),
  }),
  z.object({
    to: address,
    locale: z.enum(LOCALES),
    template: z.literal("webhook-disabled"),
    data: z.object({ url: z.string().min(1).max(2000), since: z.string().min(1).max(100) }),
  }),
]);

/** Checks an e-mail before it is queued (throws MessageRejectedError) and lowercases the address. */
export function validateEmailMessage(message: EmailMessage): EmailMessage {
  const parsed = emailMessageSchema.safeParse(message);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "message";
    throw new MessageRejectedError("email", `Invalid e-mail message: ${field} ${issue?.message ?? "is invalid"}`);
  }
  return parsed.data as EmailMessage;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string,
  );

const COLORS = {
  paper: "#faf8f4",
  card: "#ffffff",
  line: "#d9d1c5",
  ink: "#1f1c18",
  muted: "#5e574e",
  brand: "#5f3d28",
  codeInk: "#43291a",
  codeBg: "#f7f1ec",
  codeLine: "#c9a588",
};
const SANS =
  "'Noto Sans TC','PingFang TC','Microsoft JhengHei','Heiti TC',-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const SERIF = "'Noto Serif TC','Songti TC','PMingLiU',Georgia,serif";
const MONO = "'SFMono-Regular',Menlo,Consolas,'Liberation Mono',monospace";

/**
 * The frame every e-mail shares: head, hidden preheader, the brand line, a card holding `card`
 * (already escaped HTML) and the footer. Inline styles and tables, as mail clients need.
 */
function emailLayout(
  frame: { locale: EmailMessage["locale"]; subject: string; preheader?: string; brandLine: string; footer: string },
  card: string,
): string {
  const e = escapeHtml;
  const { locale, subject, preheader, brandLine, footer } = frame;
  return `<!DOCTYPE html>
<html lang="${HTML_LANG[locale]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<meta name="format-detection" content="telephone=no, date=no, address=no, email=no, url=no">
<title>${e(subject)}</title>
</head>
<body style="margin:0;padding:0;background-color:${COLORS.paper};color:${COLORS.ink};font-family:${SANS};-webkit-text-size-adjust:100%;">
${preheader ? `<div style="display:none;max-height:0;overflow:hidden;opacity:0;color:${COLORS.paper};" aria-hidden="true">${e(preheader)}</div>\n` : ""}<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${COLORS.paper};">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;">
<tr><td style="padding:0 8px 16px;">
<p style="margin:0;font-family:${SERIF};font-size:24px;line-height:1.3;font-weight:700;letter-spacing:0.2em;color:${COLORS.brand};">${e(BRAND_NAME)}</p>
<p style="margin:4px 0 0;font-size:13px;line-height:1.5;letter-spacing:0.08em;color:${COLORS.muted};">${e(brandLine)}</p>
</td></tr>
<tr><td style="background-color:${COLORS.card};border:1px solid ${COLORS.line};border-radius:16px;padding:28px 24px;">
${card}</td></tr>
<tr><td style="padding:16px 8px 0;font-size:12px;line-height:1.6;color:${COLORS.muted};">${e(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

/** "Your e-mail was changed": a notice to the old address, so a hijacked account is noticed. */
function renderEmailChanged(locale: EmailMessage["locale"], newEmail: string): RenderedEmail {
  const t = catalogT(locale);
  const subject = t("email.notice.emailChanged.subject");
  const heading = t("email.notice.emailChanged.heading");
  const intro = t("email.notice.emailChanged.intro", { email: newEmail });
  const ignore = t("email.notice.emailChanged.notYou");
  const brandLine = t("email.brandLine");
  const footer = t("email.footer");
  const text = [`${BRAND_NAME} ${brandLine}`, "", heading, "", intro, "", ignore, "", "--", footer, ""].join("\n");
  const e = escapeHtml;
  const html = emailLayout(
    { locale, subject, brandLine, footer },
    `<h1 style="margin:0 0 12px;font-size:22px;line-height:1.4;font-weight:700;color:${COLORS.ink};">${e(heading)}</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.7;color:${COLORS.ink};">${e(intro)}</p>
<p style="margin:0;font-size:14px;line-height:1.7;color:${COLORS.muted};">${e(ignore)}</p>
`,
  );
  return { subject, text, html };
}

/** To an admin: a webhook endpoint that failed for 24 hours was disabled (ADR 054). */
function renderWebhookDisabled(locale: EmailMessage["locale"], data: { url: string; since: string }): RenderedEmail {
  const t = catalogT(locale);
  const subject = t("email.notice.webhookDisabled.subject");
  const heading = t("email.notice.webhookDisabled.heading");
  const intro = t("email.notice.webhookDisabled.intro", data);
  const action = t("email.notice.webhookDisabled.action");
  const brandLine = t("email.brandLine");
  const footer = t("email.footer");
  const text = [`${BRAND_NAME} ${brandLine}`, "", heading, "", intro, "", action, "", "--", footer, ""].join("\n");
  const e = escapeHtml;
  const html = emailLayout(
    { locale, subject, brandLine, footer },
    `<h1 style="margin:0 0 12px;font-size:22px;line-height:1.4;font-weight:700;color:${COLORS.ink};">${e(heading)}</h1>
<p style="margin:0 0 16px;font-size:16px;line-height:1.7;color:${COLORS.ink};">${e(intro)}</p>
<p style="margin:0;font-size:14px;line-height:1.7;color:${COLORS.muted};">${e(action)}</p>
`,
  );
  return { subject, text, html };
}

export function renderEmail(message: EmailMessage): RenderedEmail {
  const valid = validateEmailMessage(message);
  if (valid.template === "email-changed") return renderEmailChanged(valid.locale, valid.data.newEmail);
  if (valid.template === "webhook-disabled") return renderWebhookDisabled(valid.locale, valid.data);
  const { locale, data } = valid;
  const t = catalogT(locale);
  const values = { code: data.code, minutes: data.minutes };
  // The welcome claim (a reset for a member moved in from another system) has its own words, never "reset".
  const p = data.wording === "welcome" && data.purpose === "reset-password" ? "welcome" : data.purpose;
  const subject = t(`email.code.${p}.subject`, values);
  const heading = t(`email.code.${p}.heading`);
  const intro = t(`email.code.${p}.intro`);
  const ignore = t(`email.code.${p}.ignore`);
  const label = t("email.code.label");
  const validFor = t("email.code.validFor", values);
  const neverShare = t("email.code.neverShare");
  const brandLine = t("email.brandLine");
  const footer = t("email.footer");
  const preheader = t("email.code.preheader", values);

  const text = [
    `${BRAND_NAME} ${brandLine}`,
    "",
    heading,
    "",
    intro,
    "",
    `    ${data.code}`,
    "",
    validFor,
    ignore,
    neverShare,
    "",
    "--",
    footer,
    "",
  ].join("\n");

  const e = escapeHtml;
  const html = emailLayout(
    { locale, subject, preheader, brandLine, footer },
    `<h1 style="margin:0 0 12px;font-size:22px;line-height:1.4;font-weight:700;color:${COLORS.ink};">${e(heading)}</h1>
<p style="margin:0 0 24px;font-size:16px;line-height:1.7;color:${COLORS.ink};">${e(intro)}</p>
<p style="margin:0 0 8px;font-size:13px;line-height:1.5;letter-spacing:0.1em;color:${COLORS.muted};">${e(label)}</p>
<p style="margin:0;padding:18px 12px;background-color:${COLORS.codeBg};border:1px solid ${COLORS.codeLine};border-radius:12px;font-family:${MONO};font-size:36px;line-height:1.2;font-weight:700;letter-spacing:0.3em;text-indent:0.3em;text-align:center;color:${COLORS.codeInk};-webkit-user-select:all;user-select:all;">${e(data.code)}</p>
<p style="margin:24px 0 0;font-size:15px;line-height:1.7;color:${COLORS.ink};">${e(validFor)}</p>
<p style="margin:12px 0 0;font-size:14px;line-height:1.7;color:${COLORS.muted};">${e(ignore)}</p>
<p style="margin:12px 0 0;font-size:14px;line-height:1.7;color:${COLORS.muted};">${e(neverShare)}</p>
`,
  );
  return { subject, text, html };
}

/**
 * A message to a member (issue 16, ADR 034): an automatic notice or a campaign, in the same frame as the code
 * e-mails. Unlike those it may carry links: the action into the member center and, for marketing, the visible
 * refusal link (the same address as the List-Unsubscribe header). Paragraphs come from the text's blank lines.
 */
export type MemberEmailInput = {
  locale: EmailMessage["locale"];
  subject: string;
  title: string;
  text: string;
  highlight?: { label: string; value: string } | null;
  action?: { label: string; url: string } | null;
  footer: string;
  unsubscribe?: { label: string; url: string } | null;
};

export function renderMemberEmail(input: MemberEmailInput): RenderedEmail {
  const t = catalogT(input.locale);
  const brandLine = t("email.brandLine");
  const e = escapeHtml;
  const paragraphs = input.text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const text = [
    `${BRAND_NAME} ${brandLine}`,
    "",
    input.title,
    "",
    ...paragraphs.flatMap((p) => [p, ""]),
    ...(input.highlight ? [`${input.highlight.label}: ${input.highlight.value}`, ""] : []),
    ...(input.action ? [`${input.action.label}: ${input.action.url}`, ""] : []),
    "--",
    input.footer,
    ...(input.unsubscribe ? [`${input.unsubscribe.label}: ${input.unsubscribe.url}`] : []),
    "",
  ].join("\n");
  const highlight = input.highlight
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 0;background-color:${COLORS.codeBg};border-radius:12px;"><tr>
<td style="padding:14px 16px;font-size:14px;color:${COLORS.muted};">${e(input.highlight.label)}</td>
<td align="right" style="padding:14px 16px;font-size:20px;font-weight:700;color:${COLORS.brand};">${e(input.highlight.value)}</td>
</tr></table>\n`
    : "";
  const action = input.action
    ? `<p style="margin:24px 0 0;"><a href="${e(input.action.url)}" style="display:inline-block;padding:12px 22px;border-radius:999px;background-color:${COLORS.brand};color:#ffffff;font-size:15px;font-weight:700;text-decoration:none;">${e(input.action.label)}</a></p>\n`
    : "";
  const unsubscribe = input.unsubscribe
    ? ` <a href="${e(input.unsubscribe.url)}" style="color:${COLORS.muted};text-decoration:underline;">${e(input.unsubscribe.label)}</a>`
    : "";
  const html = emailLayout(
    { locale: input.locale, subject: input.subject, preheader: paragraphs[0], brandLine, footer: input.footer },
    `<h1 style="margin:0 0 12px;font-size:22px;line-height:1.4;font-weight:700;color:${COLORS.ink};">${e(input.title)}</h1>
${paragraphs.map((p) => `<p style="margin:0 0 14px;font-size:16px;line-height:1.7;color:${COLORS.ink};white-space:pre-line;">${e(p)}</p>`).join("\n")}
${highlight}${action}`,
  ).replace(`${e(input.footer)}</td>`, `${e(input.footer)}${unsubscribe}</td>`);
  return { subject: input.subject, text, html };
}
