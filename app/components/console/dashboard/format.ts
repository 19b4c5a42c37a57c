import { useMemo } from "react";
import { useLocale } from "~/lib/i18n";

/** The dashboard's numbers in the reader's locale: counts, NT$, shares, months. */
export function useFigureFormat() {
  const locale = useLocale();
  return useMemo(() => {
    const tag = locale === "en" ? "en-US" : "zh-TW";
    const num = new Intl.NumberFormat(tag);
    const pct = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 });
    return {
      n: (v: number) => num.format(v),
      ntd: (v: number) => `NT$${num.format(v)}`,
      pct: (v: number | null) => (v === null ? "—" : pct.format(v)),
      month: (iso: string) => iso.slice(0, 7),
    };
  }, [locale]);
}
