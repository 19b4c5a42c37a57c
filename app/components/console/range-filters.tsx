import { useLocale } from "~/lib/i18n";
import { type Localized, pick } from "~/lib/localized";
import type { FilterField } from "./console-list";
import { useConsoleT } from "./use-console-t";

/**
 * The Taipei date range (from, to) and the store, as the dashboard and the per-clerk reports filter them: the
 * range's refusal (`console.dashboard.error.<code>`) beside the field it concerns, the store list with "all" (or
 * "my stores") first.
 */
export function useRangeAndStoreFields(
  filters: { from: string; to: string; store: string },
  error: string | null | undefined,
  stores: ReadonlyArray<{ id: string; name: Localized }>,
  anyStoreLabel: string,
): FilterField[] {
  const t = useConsoleT();
  const locale = useLocale();
  const errorText = error ? [t(`console.dashboard.error.${error}` as "console.dashboard.error.reversed")] : undefined;
  const errorAt = (field: "from" | "to" | "store") =>
    (error === "invalid_from" ? "from" : error === "unknown_store" ? "store" : "to") === field ? errorText : undefined;
  return [
    ...(["from", "to"] as const).map((name) => ({
      name,
      type: "date" as const,
      label: t(`console.dashboard.${name}`),
      value: filters[name],
      errors: errorAt(name),
    })),
    {
      name: "store",
      label: t("console.dashboard.store"),
      value: filters.store,
      errors: errorAt("store"),
      anyOption: false,
      options: [
        { value: "", label: anyStoreLabel },
        ...stores.map((s) => ({ value: s.id, label: pick(s.name, locale) })),
      ],
    },
  ];
}
