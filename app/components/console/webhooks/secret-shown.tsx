import { Alert } from "~/components/ui/alert";
import { CopyField } from "../copy-field";
import { useConsoleT } from "../use-console-t";

/** An endpoint's signing secret, shown this once (registration or rotation; ADR 054). */
export function SecretShown({ secret, rotated }: { secret: string; rotated: boolean }) {
  const t = useConsoleT();
  return (
    <section
      className="mt-6 space-y-3 rounded-2xl border border-success-700/30 bg-white p-5"
      data-testid="webhook-secret-shown"
    >
      <Alert tone="success" title={t(rotated ? "console.webhooks.rotatedTitle" : "console.webhooks.createdTitle")}>
        {t(rotated ? "console.webhooks.rotatedBody" : "console.webhooks.createdBody")}
      </Alert>
      <CopyField
        id="webhook-secret"
        label={t("console.webhooks.secret")}
        value={secret}
        copyLabel={t("console.webhooks.copy")}
        testId="webhook-secret"
      />
    </section>
  );
}
