import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { StepUpField } from "../step-up-field";

/**
 * The small posts of the staff, API key and approval pages: a button that posts its hidden fields (a row's
 * revoke, a staff member's disable), the same post again with the step-up code when the server asked for it,
 * and the page's done and error notices.
 */

export function HiddenForm({
  fields,
  className,
  testId,
  children,
}: {
  fields: Record<string, string>;
  className?: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className={className} data-testid={testId}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}

/** The button's post again, with the code field: asked when the last code is old (ADR 023). */
export function StepUpConfirm({
  fields,
  label,
  errors,
  variant,
  pending,
  className = "space-y-4 rounded-2xl border border-line bg-white p-5",
  testId,
}: {
  fields: Record<string, string>;
  label: string;
  errors: string[] | null;
  variant?: "primary" | "secondary" | "danger";
  pending?: boolean;
  className?: string;
  testId?: string;
}) {
  return (
    <HiddenForm fields={fields} className={className} testId={testId}>
      <StepUpField show errors={errors} />
      <Button type="submit" variant={variant} pending={pending}>
        {label}
      </Button>
    </HiddenForm>
  );
}

/**
 * An approve-or-reject decision's step-up (ADR 023): the button names what is decided when the card is still shown
 * (`inCard`: inside it, under a rule), or says only approve/reject above the list when it is not.
 */
export function ApproveRejectStepUp({
  fields,
  reject,
  label,
  errors,
  inCard,
  testId,
}: {
  fields: Record<string, string>;
  reject: boolean;
  label: string;
  errors: string[] | null;
  inCard: boolean;
  testId: string;
}) {
  const submitting = useNavigation().state === "submitting";
  return (
    <StepUpConfirm
      fields={fields}
      label={label}
      variant={reject ? "secondary" : "primary"}
      errors={errors}
      pending={submitting}
      className={inCard ? "mt-4 space-y-4 border-t border-line pt-4" : undefined}
      testId={testId}
    />
  );
}

/** What the last step did (after its redirect), or why the last post was refused. */
export function PageNotices({
  done,
  error,
  children,
}: {
  done: string | null;
  error: string | null;
  children?: ReactNode;
}) {
  return (
    <>
      {done ? <Alert tone="success">{done}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {children}
    </>
  );
}
