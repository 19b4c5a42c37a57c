import { useT } from "~/lib/i18n";

/** A thin rule with "or" in the middle, between a form and its alternatives (LINE, passkey). */
export function OrDivider() {
  const t = useT();
  return (
    <p className="flex items-center gap-3 text-sm text-muted" aria-hidden="true">
      <span className="h-px flex-1 bg-line" />
      {t("line.or")}
      <span className="h-px flex-1 bg-line" />
    </p>
  );
}
