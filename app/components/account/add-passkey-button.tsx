import { useState } from "react";
import { useRevalidator } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { Translate } from "~/lib/i18n";

/** "Add a passkey": the WebAuthn code is fetched only when pressed (it is not in the page's bundle). */
export function AddPasskeyButton({ t, defaultName }: { t: Translate; defaultName: string }) {
  const [state, setState] = useState<"idle" | "working" | "added" | "failed" | "unsupported">("idle");
  const revalidator = useRevalidator();
  const add = async () => {
    if (typeof window.PublicKeyCredential === "undefined") {
      setState("unsupported");
      return;
    }
    setState("working");
    const { registerPasskey } = await import("./passkey-webauthn");
    const outcome = await registerPasskey(defaultName);
    setState(outcome.ok ? "added" : "failed");
    if (outcome.ok) await revalidator.revalidate();
  };
  return (
    <div className="space-y-3">
      <Button type="button" variant="secondary" onClick={add} pending={state === "working"}>
        {state === "working" ? t("account.security.passkeys.adding") : t("account.security.passkeys.add")}
      </Button>
      <div aria-live="polite">
        {state === "added" ? <Alert tone="success">{t("account.security.passkeys.added")}</Alert> : null}
        {state === "failed" ? <Alert tone="error">{t("account.security.passkeys.addFailed")}</Alert> : null}
        {state === "unsupported" ? <Alert>{t("account.security.passkeys.unsupported")}</Alert> : null}
      </div>
    </div>
  );
}
