import type { useConsoleT } from "~/components/console/use-console-t";
import { ADJUSTMENT_REASONS } from "~/domain/loyalty/adjustment-input";
import type { Locale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";

type T = ReturnType<typeof useConsoleT>;

/**
 * A point entry as staff read it: the kind's name and its reason in words, never the ledger's codes
 * (`earn-purchase`, "refund of NT$1000", "goodwill: …", "cancelled in the console"). A reason the ledger
 * wrote in a person's own words stays as it is.
 */
export function ledgerWords(entry: { kind: string; reason: string | null }, t: T, locale: Locale) {
  const kind = t(`console.members.ledgerKind.${entry.kind}` as "console.members.ledgerKind.adjust");
  return { kind, reason: entry.reason ? reasonWords(entry.reason, t, locale) : null };
}

function reasonWords(reason: string, t: T, locale: Locale): string {
  const refund = /^refund of NT\$(\d+)$/.exec(reason);
  if (refund) return t("console.members.ledgerReason.refund", { amount: Number(refund[1]).toLocaleString("en-US") });
  if (reason === "cancelled in the console") return t("console.members.ledgerReason.couponCancelled");
  const expired = /^lot expired (\S+)$/.exec(reason)?.[1];
  if (expired && !Number.isNaN(Date.parse(expired))) {
    return t("console.members.ledgerReason.lotExpired", { date: formatTaipei(expired, locale, "date") });
  }
  const adjustment = /^([a-z_]+)(?:: ([\s\S]*))?$/.exec(reason);
  const code = ADJUSTMENT_REASONS.find((r) => r === adjustment?.[1]);
  if (code) {
    const label = t(`console.adjust.reason.${code}`);
    return adjustment?.[2] ? `${label}${locale === "en" ? ": " : "："}${adjustment[2]}` : label;
  }
  return reason;
}
