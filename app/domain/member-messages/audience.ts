import type { CampaignAudience } from "@platform/db/schema/member-message-kinds";
import { TIER_ORDER as TIERS } from "../loyalty/tier-names";
import { TAIWAN_CITIES } from "../members/address";

const TAIWAN_CITY_NAMES = TAIWAN_CITIES.map((c) => c.name);

/**
 * A campaign's audience from the console's form (issue 16 item 4): the member filters of the reports issue
 * (tier, city, last purchase, balance, birthday month, reachable channel). Pure: the form, the live count and the
 * send read it the same way. Every problem is keyed by its field.
 */

export type AudienceProblem = { field: string; code: "invalidChoice" | "notWhole" | "outOfRange" | "maxBelowMin" };

export const LAST_PURCHASE_CHOICES = [30, 90, 180, 365, -90, -180, -365] as const;

function getter(form: FormData | URLSearchParams) {
  return (name: string) => String(form.get(name) ?? "").trim();
}

function wholeNumber(raw: string): number | null | "bad" {
  if (!raw) return null;
  const normalised = raw
    .replace(/[,，\s]/g, "")
    .replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
  if (!/^\d{1,9}$/.test(normalised)) return "bad";
  return Number(normalised);
}

export function parseAudience(form: FormData | URLSearchParams): {
  audience: CampaignAudience;
  problems: AudienceProblem[];
} {
  const get = getter(form);
  const problems: AudienceProblem[] = [];
  const tiers = [...new Set(form.getAll("tiers").map(String))];
  if (tiers.some((t) => !(TIERS as readonly string[]).includes(t)))
    problems.push({ field: "tiers", code: "invalidChoice" });
  const city = get("city");
  if (city && !TAIWAN_CITY_NAMES.includes(city)) problems.push({ field: "city", code: "invalidChoice" });
  const lastRaw = get("lastPurchaseDays");
  const last = lastRaw ? Number(lastRaw) : null;
  if (last !== null && !(LAST_PURCHASE_CHOICES as readonly number[]).includes(last)) {
    problems.push({ field: "lastPurchaseDays", code: "invalidChoice" });
  }
  const min = wholeNumber(get("balanceMin"));
  const max = wholeNumber(get("balanceMax"));
  if (min === "bad") problems.push({ field: "balanceMin", code: "notWhole" });
  if (max === "bad") problems.push({ field: "balanceMax", code: "notWhole" });
  if (typeof min === "number" && typeof max === "number" && max < min) {
    problems.push({ field: "balanceMax", code: "maxBelowMin" });
  }
  const monthRaw = get("birthdayMonth");
  const month = monthRaw ? Number(monthRaw) : null;
  if (month !== null && !(Number.isInteger(month) && month >= 1 && month <= 12)) {
    problems.push({ field: "birthdayMonth", code: "invalidChoice" });
  }
  const reachable = get("reachable");
  if (reachable && !["line", "sms", "email"].includes(reachable))
    problems.push({ field: "reachable", code: "invalidChoice" });
  return {
    audience: {
      tiers: tiers.filter((t) => (TIERS as readonly string[]).includes(t)),
      city: city && TAIWAN_CITY_NAMES.includes(city) ? city : null,
      lastPurchaseDays: last !== null && (LAST_PURCHASE_CHOICES as readonly number[]).includes(last) ? last : null,
      balanceMin: typeof min === "number" ? min : null,
      balanceMax: typeof max === "number" ? max : null,
      birthdayMonth: month !== null && Number.isInteger(month) && month >= 1 && month <= 12 ? month : null,
      reachable: reachable === "line" || reachable === "sms" || reachable === "email" ? reachable : null,
    },
    problems,
  };
}

/** The audience as form values (the composer's fields, the count's query string). */
export function audienceParams(a: CampaignAudience): URLSearchParams {
  const p = new URLSearchParams();
  for (const t of a.tiers ?? []) p.append("tiers", t);
  if (a.city) p.set("city", a.city);
  if (a.lastPurchaseDays) p.set("lastPurchaseDays", String(a.lastPurchaseDays));
  if (a.balanceMin !== null && a.balanceMin !== undefined) p.set("balanceMin", String(a.balanceMin));
  if (a.balanceMax !== null && a.balanceMax !== undefined) p.set("balanceMax", String(a.balanceMax));
  if (a.birthdayMonth) p.set("birthdayMonth", String(a.birthdayMonth));
  if (a.reachable) p.set("reachable", a.reachable);
  return p;
}
