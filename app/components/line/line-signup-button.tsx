import { useT } from "~/lib/i18n";
import { LineButton, useLineEnabled } from "./line-button";

/** "使用 LINE 註冊" on sign-up step 1 (hidden when LINE is off). */
export function LineSignupButton() {
  const t = useT();
  if (!useLineEnabled()) return null;
  return (
    <div className="mt-8 space-y-4">
      <p className="flex items-center gap-3 text-sm text-muted" aria-hidden="true">
        <span className="h-px flex-1 bg-line" />
        {t("line.or")}
        <span className="h-px flex-1 bg-line" />
      </p>
      <LineButton method="signup" label={t("line.signup")} />
    </div>
  );
}
