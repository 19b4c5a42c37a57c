import { BRAND_NAME } from "@platform/constants";
import type { CampaignAudience } from "@platform/db/schema/member-message-kinds";
import { z } from "zod";
import type { MessageKey, Translate } from "~/lib/i18n";
import { catalogT } from "~/lib/i18n.server";
import { fromTaipeiWallClock } from "~/lib/time";
import { TIER_ORDER as TIERS } from "../loyalty/tier-names";
import { TAIWAN_CITIES } from "../members/address";
import { containsUrl, SMS_MAX_LENGTH } from "../messaging/sms";
import { isRfmGroup, RFM_SCORES } from "../segments/rfm";
import {
  type ComposerFrame,
  campaignFormValues,
  DEFAULT_ATTRIBUTION_DAYS,
  LAST_PURCHASE_CHOICES,
  MAX_ATTRIBUTION_DAYS,
  MAX_CONTROL_PERCENT,
} from "./campaign-values";
import { type CampaignInput, scheduleRefusal } from "./campaigns.server";
import { campaignChannels, campaignSmsText } from "./compose.server";
import { CAMPAIGN_NAME_MAX, EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX, LINE_TEXT_MAX } from "./limits";
import { type AudienceChoices, VISITED_DAYS_MAX } from "./showroom-audience.server";

/**
 * The composer's form as Zod schemas (ADR 008: read by `parseForm`, messages in the reader's language): the
 * campaign's name, audience and message per channel, and, before the confirmation and the send, its time. Every
 * problem is keyed by its field; the rules across fields (a balance range, an e-mail's subject and body, an SMS with
 * its brand and refusal, at least one channel) are checked even when a field has its own problem, so the admin
 * sees them all at once.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const CITY_NAMES: readonly string[] = TAIWAN_CITIES.map((c) => c.name);
const REACHABLE = ["line", "sms", "email"] as const;
/** The rules across fields run even when a field has a problem of its own. */
const always = { when: () => true };

const tooLong = (value: string | null, max: number) => value !== null && Array.from(value).length > max;
const refused = (value: string | null, max: number) => tooLong(value, max) || (value !== null && CONTROL.test(value));

/** A text: one kind of line break, trimmed; empty is null. */
function text(t: Translate, max: number, required = false) {
  return z
    .string()
    .default("")
    .transform((raw, ctx) => {
      const value = raw.replace(/\r\n?/g, "\n").trim();
      const issue = (message: string) => ctx.addIssue({ code: "custom", message });
      if (!value) {
        if (required) issue(t("console.messages.error.required"));
        return null;
      }
      if (tooLong(value, max)) issue(t("console.messages.error.tooLong", { max }));
      else if (CONTROL.test(value)) issue(t("console.messages.error.control"));
      return value;
    });
}

/** One of a field's choices, or none (empty); anything else is refused. */
function choice<V>(
  t: Translate,
  pick: (raw: string) => V | undefined,
  message = "console.messages.error.invalidChoice",
) {
  return z
    .string()
    .default("")
    .transform((raw, ctx): V | null => {
      const value = raw.trim();
      if (!value) return null;
      const picked = pick(value);
      if (picked === undefined)
        ctx.addIssue({ code: "custom", message: t(message as "console.messages.error.invalidChoice") });
      return picked ?? null;
    });
}

/** Like `choice`, but a refused value is `refused` (not null): the field was filled in, wrongly. */
function given<V>(t: Translate, pick: (raw: string) => V | undefined, refused: V, message: MessageKey) {
  return z
    .string()
    .default("")
    .transform((raw, ctx): V | null => {
      const value = raw.trim();
      if (!value) return null;
      const picked = pick(value);
      if (picked !== undefined) return picked;
      ctx.addIssue({ code: "custom", message: t(message) });
      return refused;
    });
}

/** A whole number of points, with thousands separators or full-width digits as typed. */
function whole(raw: string): number | undefined {
  const normalised = raw
    .replace(/[,，\s]/g, "")
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  return /^\d{1,9}$/.test(normalised) ? Number(normalised) : undefined;
}

const rfmScore = (raw: string) => RFM_SCORES.find((s) => String(s) === raw) as number | undefined;

/** The member filters (tiers as one comma-separated list; an unknown tier is refused, the known ones kept). */
function audienceShape(t: Translate, choices: AudienceChoices) {
  const categoryIds = choices.categories.map((c) => c.id);
  const storeIds = choices.stores.map((s) => s.id);
  return {
    tiers: z
      .string()
      .default("")
      .transform((raw, ctx) => {
        const tiers = [...new Set(raw.split(",").map((s) => s.trim()))].filter(Boolean);
        const known = tiers.filter((tier) => (TIERS as readonly string[]).includes(tier));
        if (known.length < tiers.length) {
          ctx.addIssue({ code: "custom", message: t("console.messages.error.invalidChoice") });
        }
        return known as CampaignAudience["tiers"];
      }),
    city: choice(t, (raw) => (CITY_NAMES.includes(raw) ? raw : undefined)),
    lastPurchaseDays: choice(t, (raw) => LAST_PURCHASE_CHOICES.find((d) => d === Number(raw)) as number | undefined),
    balanceMin: choice(t, whole, "console.messages.error.notWhole"),
    balanceMax: choice(t, whole, "console.messages.error.notWhole"),
    birthdayMonth: choice(t, (raw) => {
      const month = Number(raw);
      return Number.isInteger(month) && month >= 1 && month <= 12 ? month : undefined;
    }),
    reachable: choice(t, (raw) => REACHABLE.find((c) => c === raw)),
    // Showroom filters (ADR 048): a category and a store that exist, a whole number of days 1–365.
    favouriteCategory: choice(t, (raw) => categoryIds.find((id) => id === raw)),
    // Refused values stay apart from empty ones ("" and 0, with their own message) so that the rule across the
    // two fields asks for the other one only when it was left empty.
    visitedStore: given(t, (raw) => storeIds.find((id) => id === raw), "", "console.messages.error.invalidChoice"),
    visitedDays: given(
      t,
      (raw) => {
        const days = whole(raw);
        return days !== undefined && days >= 1 && days <= VISITED_DAYS_MAX ? days : undefined;
      },
      0,
      "console.messages.error.visitedDays",
    ),
    // "1": only members with an open quote; empty: anyone.
    quoteOpen: choice(t, (raw) => (raw === "1" ? true : undefined)),
    // RFM filters (saved segments, ADR 056): a score 1–5 each, or a group of the grid.
    rfmR: choice(t, rfmScore),
    rfmF: choice(t, rfmScore),
    rfmM: choice(t, rfmScore),
    rfmGroup: choice(t, (raw) => (isRfmGroup(raw) ? raw : undefined)),
  };
}

type AudienceFields = z.output<z.ZodObject<ReturnType<typeof audienceShape>>>;

function audienceRule(
  t: Translate,
  a: Pick<AudienceFields, "balanceMin" | "balanceMax" | "visitedStore" | "visitedDays">,
  ctx: z.RefinementCtx,
) {
  if (a.balanceMin !== null && a.balanceMax !== null && a.balanceMax < a.balanceMin) {
    ctx.addIssue({ code: "custom", path: ["balanceMax"], message: t("console.messages.error.maxBelowMin") });
  }
  // A visited store needs its days and the days their store (only when the other field is empty, not refused).
  if (a.visitedStore !== null && a.visitedDays === null) {
    ctx.addIssue({
      code: "custom",
      path: ["visitedDays"],
      message: t("console.messages.error.visitedStoreWithoutDays"),
    });
  }
  if (a.visitedDays !== null && a.visitedStore === null) {
    ctx.addIssue({
      code: "custom",
      path: ["visitedStore"],
      message: t("console.messages.error.visitedDaysWithoutStore"),
    });
  }
}

const audienceOf = (a: AudienceFields): CampaignAudience => ({
  tiers: a.tiers ?? [],
  city: a.city,
  lastPurchaseDays: a.lastPurchaseDays,
  balanceMin: a.balanceMin,
  balanceMax: a.balanceMax,
  birthdayMonth: a.birthdayMonth,
  reachable: a.reachable,
  favouriteCategory: a.favouriteCategory,
  visitedStoreId: a.visitedStore || null,
  visitedDays: a.visitedDays || null,
  quoteOpen: a.quoteOpen || null,
  rfmR: a.rfmR,
  rfmF: a.rfmF,
  rfmM: a.rfmM,
  rfmGroup: a.rfmGroup,
});

/** The live count's filters (a query string): the audience alone. */
export function audienceSchema(t: Translate, choices: AudienceChoices) {
  return z
    .object(audienceShape(t, choices))
    .superRefine((a, ctx) => audienceRule(t, a, ctx), always)
    .transform(audienceOf);
}

/** A saved segment's form (ADR 056): its name and the same filters as a campaign's audience. */
export function segmentSchema(t: Translate, choices: AudienceChoices, nameMax: number) {
  return z
    .object({ name: text(t, nameMax, true), ...audienceShape(t, choices) })
    .superRefine((a, ctx) => audienceRule(t, a, ctx), always)
    .transform((v) => ({ name: v.name ?? "", audience: audienceOf(v) }));
}

/**
 * The composer's form: name, audience, the message per channel; with `schedule` (the confirmation and the send)
 * also the time, under the send's own rules (`scheduleRefusal`: not in the past, not in the quiet hours).
 */
export function campaignSchema(t: Translate, choices: AudienceChoices, schedule: { now: Date } | null = null) {
  return z
    .object({
      name: text(t, CAMPAIGN_NAME_MAX, true),
      lineText: text(t, LINE_TEXT_MAX),
      smsText: text(t, SMS_MAX_LENGTH),
      emailSubject: text(t, EMAIL_SUBJECT_MAX),
      emailBody: text(t, EMAIL_BODY_MAX),
      ...audienceShape(t, choices),
      // Campaign results (ADR 055): a whole percentage 0–50 (empty: none) and 1–30 Taipei days (empty: 7).
      controlPercent: given(
        t,
        (raw) => {
          const n = whole(raw.replace(/[%％]$/, ""));
          return n !== undefined && n <= MAX_CONTROL_PERCENT ? n : undefined;
        },
        0,
        "console.messages.error.controlPercent",
      ),
      attributionDays: given(
        t,
        (raw) => {
          const n = whole(raw);
          return n !== undefined && n >= 1 && n <= MAX_ATTRIBUTION_DAYS ? n : undefined;
        },
        DEFAULT_ATTRIBUTION_DAYS,
        "console.messages.error.attributionDays",
      ),
      when: z.string().default("now"),
      at: z.string().default(""),
    })
    .superRefine((v, ctx) => {
      const issue = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
      audienceRule(t, v, ctx);
      const texts = { lineText: v.lineText, smsText: v.smsText, emailSubject: v.emailSubject, emailBody: v.emailBody };
      if (v.smsText) {
        // The text as it goes out (brand in front, the refusal at the end) must fit a five-part message.
        const full = Array.from(campaignSmsText({ ...texts, lineText: null, emailSubject: null, emailBody: null }));
        const room = SMS_MAX_LENGTH - (full.length - Array.from(v.smsText).length);
        if (full.length > SMS_MAX_LENGTH && !refused(v.smsText, SMS_MAX_LENGTH)) {
          issue("smsText", t("console.messages.error.tooLong", { max: room }));
        }
        if (containsUrl(v.smsText)) issue("smsText", t("console.messages.error.url"));
      }
      const unpaired = Boolean(v.emailSubject) !== Boolean(v.emailBody);
      if (v.emailSubject && !v.emailBody) issue("emailBody", t("console.messages.error.subjectWithoutBody"));
      if (v.emailBody && !v.emailSubject) issue("emailSubject", t("console.messages.error.bodyWithoutSubject"));
      const emailRefused =
        unpaired || refused(v.emailSubject, EMAIL_SUBJECT_MAX) || refused(v.emailBody, EMAIL_BODY_MAX);
      if (campaignChannels(texts).length === 0 && !emailRefused)
        issue("lineText", t("console.messages.error.noMessage"));
      if (schedule) {
        const when = sendTime(v);
        const refusal = when === "bad" ? null : scheduleRefusal(when, schedule.now);
        if (when === "bad") issue("at", t("console.messages.error.when"));
        else if (refusal) issue("at", t(refusal.messageKey));
      }
    }, always)
    .transform((v) => {
      const when = sendTime(v);
      const campaign: CampaignInput = {
        name: v.name ?? "",
        audience: audienceOf(v),
        lineText: v.lineText,
        smsText: v.smsText,
        emailSubject: v.emailSubject,
        emailBody: v.emailBody,
        controlPercent: v.controlPercent ?? 0,
        attributionDays: v.attributionDays ?? DEFAULT_ATTRIBUTION_DAYS,
      };
      return { campaign, when: when === "bad" ? null : when };
    });
}

/** Now (null), or the time picked on the Taipei wall clock. */
function sendTime(v: { when: string; at: string }): Date | null | "bad" {
  if (v.when !== "later") return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(v.at);
  if (!m) return "bad";
  const when = fromTaipeiWallClock(
    { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) },
    Number(m[4]),
    Number(m[5]),
  );
  return Number.isNaN(when.getTime()) ? "bad" : when;
}

/** The submission as `parseForm` reads it: one string per field, the tiers (a checkbox each) as one list. */
export function campaignFormData(form: FormData): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(campaignFormValues(form))) data.set(name, value);
  return data;
}

/** What goes around the admin's texts (brand, refusal line, e-mail footer), as members get them (zh-TW). */
export function composerFrame(publicBaseUrl: string): ComposerFrame {
  const zh = catalogT("zh-TW");
  const privacy = new URL("/member-center/privacy#marketing", publicBaseUrl).toString();
  return {
    smsPrefix: `【${BRAND_NAME}】`,
    smsSuffix: ` ${zh("notify.sms.refuse")}`,
    lineSuffix: `\n\n${zh("notify.line.refuse", { url: privacy })}`,
    emailFooter: zh("notify.email.footerMarketing"),
    emailUnsubscribe: zh("notify.email.unsubscribe"),
  };
}
