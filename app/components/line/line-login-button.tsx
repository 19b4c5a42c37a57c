import { useT } from "~/lib/i18n";
import { LineButton, OrDivider, useLineEnabled } from "./line-button";

/** "LINE 登入" on /member-login, under the password form (hidden when LINE is off). */
export function LineLoginButton({ redirectTo, offerSignup }: { redirectTo?: string; offerSignup?: boolean }) {
  const t = useT();
  if (!useLineEnabled()) return null;
  return (
    <div className="mt-6 space-y-4">
      <OrDivider />
      <LineButton method="signin" label={t("line.login")} redirectTo={redirectTo} />
      {offerSignup ? (
        <div className="rounded-2xl border border-line bg-white p-4" data-testid="line-signup-offer">
          <p className="mb-3 text-center text-muted">{t("line.signupOffer")}</p>
          <LineButton method="signup" label={t("line.signup")} />
        </div>
      ) : null}
    </div>
  );
}
