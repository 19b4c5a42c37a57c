import { Form, Link } from "react-router";
import { CodeField, CurrentPasswordField } from "~/components/auth/fields";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
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
        <nav
          aria-label={t("account.identity.title")}
          className="grid grid-cols-2 rounded-full border border-line bg-white p-1"
        >
          {(["password", "sms"] as const).map((m) => (
            <Link
              key={m}
              to={tabHref(m)}
              replace
              preventScrollReset
              aria-current={method === m ? "page" : undefined}
              className={cn(
                "flex min-h-10 items-center justify-center rounded-full",
                method === m ? "bg-ink text-paper" : "text-muted hover:text-ink",
              )}
            >
              {m === "password" ? t("account.identity.byPassword") : t("account.identity.bySms")}
            </Link>
          ))}
        </nav>
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
