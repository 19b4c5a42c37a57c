import { Field } from "~/components/ui/field";
import { useFormState } from "~/lib/use-form-state";
import { ConsoleAuthForm } from "../code-form";
import { useConsoleT } from "../use-console-t";

/** The console login's form: e-mail or mobile number, and the password (never sent back after a refusal). */
export function ConsoleLoginForm({ ended }: { ended: boolean }) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsoleAuthForm
      submitLabel={t("console.login.submit")}
      formError={form.formError}
      notice={ended ? t("console.login.sessionEnded") : null}
    >
      <Field
        label={t("console.login.identifier")}
        errors={form.errors("identifier")}
        inputProps={{
          name: "identifier",
          type: "text",
          autoComplete: "username",
          required: true,
          maxLength: 254,
          defaultValue: form.value("identifier"),
        }}
      />
      <Field
        label={t("console.login.password")}
        errors={form.errors("password")}
        inputProps={{
          name: "password",
          type: "password",
          autoComplete: "current-password",
          required: true,
          maxLength: 128,
        }}
      />
    </ConsoleAuthForm>
  );
}
