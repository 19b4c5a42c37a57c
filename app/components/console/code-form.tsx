import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import { useFormState } from "~/lib/use-form-state";
import { useConsoleT } from "./use-console-t";

/**
 * The form of every console sign-in step (login, invitation, code): the refusal above the fields (or, without
 * one, the step's `notice`), the fields, and one full-width submit button that shows it is sending.
 */
export function ConsoleAuthForm({
  submitLabel,
  formError,
  notice,
  className,
  children,
}: {
  submitLabel: string;
  formError?: string | null;
  /** An information line shown when nothing was refused (a session that ended). */
  notice?: string | null;
  className?: string;
  children: ReactNode;
}) {
  const pending = useNavigation().state === "submitting";
  return (
    <Form method="post" className={cn("space-y-5", className)}>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      {!formError && notice ? <Alert tone="info">{notice}</Alert> : null}
      {children}
      <Button type="submit" block pending={pending}>
        {submitLabel}
      </Button>
    </Form>
  );
}

/**
 * The code form of the console's sign-in steps (the enrolment's first code, the login's code and the
 * step-up): one `code` field with its errors beside it, and the submit button.
 */
export function ConsoleCodeForm({
  submitLabel,
  maxLength,
  inputMode,
  inputClassName,
  className,
}: {
  submitLabel: string;
  maxLength: number;
  /** "numeric" where only the app's six digits fit; "text" where a recovery code is welcome too. */
  inputMode: "numeric" | "text";
  inputClassName?: string;
  className?: string;
}) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsoleAuthForm submitLabel={submitLabel} className={className}>
      <Field
        label={t("console.verify.code")}
        errors={form.errors("code")}
        inputProps={{
          name: "code",
          type: "text",
          inputMode,
          autoComplete: "one-time-code",
          required: true,
          maxLength,
          className: inputClassName,
        }}
      />
    </ConsoleAuthForm>
  );
}
