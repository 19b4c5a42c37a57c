import type { MessageKey as Key, Translate as T } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * One audited field's name and value as staff read them: a label for the field where the catalog has one,
 * instants in Taipei time (the page says so), yes/no, lists and objects written out instead of JSON.
 */
export function fieldLabel(field: string, t: T): string {
  const key = `console.audit.field.${field}` as Key;
  const label = t(key);
  return label === key ? field : label;
}

/** An audited action's name (every one of `AUDIT_ACTIONS` has one in both catalogs). */
export function actionLabel(action: string, t: T): string {
  const key = `console.audit.act.${action}` as Key;
  const label = t(key);
  return label === key ? action : label;
}

/** What an audit row is about (`member`, `reward`…) in words; a type without one is shown as written. */
export function targetLabel(type: string, t: T): string {
  const key = `console.audit.target.${type}` as Key;
  const label = t(key);
  return label === key ? type : label;
}

export function valueWords(value: unknown, t: T, locale: string): string {
  if (value === undefined || value === null || value === "") return "—";
  if (typeof value === "boolean") return value ? t("console.audit.yes") : t("console.audit.no");
  if (typeof value === "number") return value.toLocaleString("en-US");
  if (typeof value === "string") {
    if (ISO_INSTANT.test(value)) return formatTaipei(value, locale, "dateTime");
    // A status or purpose code the catalog has words for (issued → 未使用); other text as written.
    const key = `console.audit.value.${value}` as Key;
    const words = t(key);
    return words === key ? value : words;
  }
  if (Array.isArray(value)) return value.length ? value.map((v) => valueWords(v, t, locale)).join("、") : "—";
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${k} ${valueWords(v, t, locale)}`)
      .join("；");
  }
  return String(value);
}
