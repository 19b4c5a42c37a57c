import type { CampaignAudience } from "@platform/db/schema/member-message-kinds";

/**
 * A campaign's audience and texts as the console's form holds them (issue 16 item 4): the member filters of the
 * reports issue (tier, city, last purchase, balance, birthday month, reachable channel) and the message per
 * channel, every value a string, the tiers as one comma-separated list. Client-safe: the composer reads its own
 * form with it (previews, the live count's query), the server reads the submission with it
 * (`campaignSchema`, campaign-form.server.ts) and the saved campaign into the form.
 */

/** The attribution window (Taipei days after a delivery or a click, ADR 055): by default 7, at most 30. */
export const DEFAULT_ATTRIBUTION_DAYS = 7;
export const MAX_ATTRIBUTION_DAYS = 30;
/** At most half of an audience is held back as the control group. */
export const MAX_CONTROL_PERCENT = 50;

export const LAST_PURCHASE_CHOICES = [30, 90, 180, 365, -90, -180, -365] as const;

export const AUDIENCE_FIELDS = [
  "tiers",
  "city",
  "lastPurchaseDays",
  "balanceMin",
  "balanceMax",
  "birthdayMonth",
  "reachable",
  // Showroom filters (ADR 048).
  "favouriteCategory",
  "visitedStore",
  "visitedDays",
  "quoteOpen",
  // RFM filters (saved segments, ADR 056).
  "rfmR",
  "rfmF",
  "rfmM",
  "rfmGroup",
] as const;

const CAMPAIGN_FIELDS = [
  "name",
  ...AUDIENCE_FIELDS,
  "lineText",
  "smsText",
  "emailSubject",
  "emailBody",
  // Campaign results (ADR 055): the control group's share and the attribution window.
  "controlPercent",
  "attributionDays",
  "when",
  "at",
  "version",
] as const;

export type CampaignFormValues = Record<string, string>;

/** What the form holds: each field's text, the tiers (one checkbox each) joined with commas. */
export function campaignFormValues(form: FormData | URLSearchParams): CampaignFormValues {
  const values: CampaignFormValues = {};
  for (const name of CAMPAIGN_FIELDS) values[name] = String(form.get(name) ?? "");
  values.tiers = form.getAll("tiers").map(String).join(",");
  return values;
}

/** The audience as form values (the composer's fields, the count's query string). */
export function audienceParams(a: CampaignAudience): URLSearchParams {
  const p = new URLSearchParams();
  if (a.tiers?.length) p.set("tiers", a.tiers.join(","));
  if (a.city) p.set("city", a.city);
  if (a.lastPurchaseDays) p.set("lastPurchaseDays", String(a.lastPurchaseDays));
  if (a.balanceMin !== null && a.balanceMin !== undefined) p.set("balanceMin", String(a.balanceMin));
  if (a.balanceMax !== null && a.balanceMax !== undefined) p.set("balanceMax", String(a.balanceMax));
  if (a.birthdayMonth) p.set("birthdayMonth", String(a.birthdayMonth));
  if (a.reachable) p.set("reachable", a.reachable);
  if (a.favouriteCategory) p.set("favouriteCategory", a.favouriteCategory);
  if (a.visitedStoreId) p.set("visitedStore", a.visitedStoreId);
  if (a.visitedDays) p.set("visitedDays", String(a.visitedDays));
  if (a.quoteOpen) p.set("quoteOpen", "1");
  for (const k of ["rfmR", "rfmF", "rfmM", "rfmGroup"] as const) if (a[k]) p.set(k, String(a[k]));
  return p;
}

/** The saved campaign as the form's values (sent now unless the admin picks a time). */
export function savedCampaignValues(c: {
  name: string;
  audience: CampaignAudience;
  lineText: string | null;
  smsText: string | null;
  emailSubject: string | null;
  emailBody: string | null;
  controlPercent?: number;
  attributionDays?: number;
}): CampaignFormValues {
  const values = campaignFormValues(audienceParams(c.audience));
  return {
    ...values,
    name: c.name,
    lineText: c.lineText ?? "",
    smsText: c.smsText ?? "",
    emailSubject: c.emailSubject ?? "",
    emailBody: c.emailBody ?? "",
    controlPercent: String(c.controlPercent ?? 0),
    attributionDays: String(c.attributionDays ?? DEFAULT_ATTRIBUTION_DAYS),
    when: "now",
  };
}

/**
 * The live count's query for what the form holds: the audience, and which channels have a message (the count
 * splits the audience as the delivery would reach it on them).
 */
export function countQuery(values: CampaignFormValues): URLSearchParams {
  const p = new URLSearchParams();
  for (const k of AUDIENCE_FIELDS) if (values[k]) p.set(k, values[k] as string);
  if (values.lineText) p.set("line", "1");
  if (values.smsText) p.set("sms", "1");
  if (values.emailSubject && values.emailBody) p.set("email", "1");
  return p;
}

/** The texts around what the admin writes, for the previews and the SMS counter (from the server's catalog). */
export type ComposerFrame = {
  smsPrefix: string;
  smsSuffix: string;
  lineSuffix: string;
  emailFooter: string;
  emailUnsubscribe: string;
};

export type AudienceCount = {
  total: number;
  /** Who the message would reach, by channel (LINE first, then SMS, then e-mail, each with its opt-in). */
  line: number;
  sms: number;
  email: number;
  /** Reachable only on channels they did not opt in to. */
  optedOut: number;
  /** Reachable on none of the campaign's channels. */
  unreachable: number;
};
