import { Form } from "react-router";
import { CurrentPasswordField } from "~/components/auth/current-password-field";
import { CodeField } from "~/components/auth/fields";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tab-links";
import type { Translate } from "~/lib/i18n";
import type { useFormState } from "~/lib/use-form-state";

/**
 * Password or SMS code, the two ways to prove it is the member (tabs are links, so it works
 * without JavaScript). `children` go inside the confirming form (e.g. a confirmation checkbox).
 */
export function IdentityProof({
  t,
  form,
  method,
  maskedPhone,
  hasPassword,
  submitLabel,
  submitVariant = "primary",
  pending,
  tabHref,
  children,
}: {
  /** The page's own address with `method` set (the tabs keep the rest of the query). */
  tabHref: (method: "password" | "sms") => string;
  t: Translate;
  form: ReturnType<typeof useFormState>;
  method: "password" | "sms";
  maskedPhone: string;
  hasPassword: boolean;
  submitLabel: string;
  submitVariant?: "primary" | "danger";
  pending: boolean;
  children?: React.ReactNode;
}) {
  const codeSent = (form.state as { codeSent?: string } | undefined)?.codeSent;
  return (
    <div className="space-y-5">
      {hasPassword ? (
        <TabLinks
          label={t("account.identity.title")}
          current={method}
          items={[
            { value: "password", to: tabHref("password"), label: t("account.identity.byPassword") },
            { value: "sms", to: tabHref("sms"), label: t("account.identity.bySms") },
          ]}
        />
      ) : null}
      {method === "sms" ? (
        <Form method="post" replace preventScrollReset>
          <input type="hidden" name="method" value="sms" />
          <Button type="submit" name="intent" value="send-code" variant="secondary" block>
            {t("account.identity.sendCode", { phone: maskedPhone })}
          </Button>
        </Form>
      ) : null}
      {codeSent ? <Alert tone="success">{codeSent}</Alert> : null}
      <Form method="post" className="space-y-5" noValidate>
        <input type="hidden" name="method" value={method} />
        {method === "password" ? (
          <CurrentPasswordField errors={form.errors("password")} />
        ) : (
          <CodeField errors={form.errors("code")} />
        )}
        {children}
        <Button type="submit" name="intent" value="confirm" variant={submitVariant} block size="lg" pending={pending}>
          {submitLabel}
        </Button>
      </Form>
    </div>
  );
}
