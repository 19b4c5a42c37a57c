import { useT } from "~/lib/i18n";
import { LineButton, OrDivider, useLineEnabled } from "./line-button";

/** "使用 LINE 註冊" on sign-up step 1 (hidden when LINE is off). */
export function LineSignupButton() {
  const t = useT();
  if (!useLineEnabled()) return null;
  return (
    <div className="mt-8 space-y-4">
      <OrDivider />
      <LineButton method="signup" label={t("line.signup")} />
    </div>
  );
}
