import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { useT } from "~/lib/i18n";

/**
 * "Log in with a passkey" on the login page. Kept small on purpose: the WebAuthn code
 * (@simplewebauthn/browser) is imported only when the button is pressed, so the login page's
 * bundle does not grow. After a successful login the page navigates in full to `redirectTo`
 * (the new session cookie then applies to every loader).
 */
export function PasskeyLoginButton({ redirectTo }: { redirectTo: string }) {
  const t = useT();
  const [state, setState] = useState<"idle" | "working" | "failed" | "unsupported">("idle");
  const login = async () => {
    if (typeof window.PublicKeyCredential === "undefined") {
      setState("unsupported");
      return;
    }
    setState("working");
    const { authenticateWithPasskey } = await import("~/components/account/passkey-webauthn");
    const outcome = await authenticateWithPasskey();
    if (outcome.ok) window.location.assign(redirectTo);
    else setState(outcome.reason === "cancelled" ? "idle" : "failed");
  };
  return (
    <div className="space-y-3">
      <Button type="button" variant="secondary" block size="lg" onClick={login} pending={state === "working"}>
        {t("auth.passkey.login")}
      </Button>
      <div aria-live="polite">
        {state === "failed" ? <Alert tone="error">{t("auth.passkey.failed")}</Alert> : null}
        {state === "unsupported" ? <Alert>{t("auth.passkey.unsupported")}</Alert> : null}
      </div>
    </div>
  );
}
