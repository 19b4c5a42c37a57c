import type { ComponentProps, ReactNode } from "react";
import { Form, useSubmit } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import { QrScan } from "../qr-scan";
import { useConsoleT } from "../use-console-t";
import { panelClass } from "./ui";

/**
 * The counter's form pieces (ADR 022): large fields for a till (a receipt number, an amount, a code), the one-field
 * find form, the camera-or-type finder and the booking form with its key.
 */

const KINDS = {
  text: { type: "text", maxLength: 60, className: "min-h-12 text-lg" },
  receipt: { type: "text", maxLength: 40, autoCapitalize: "characters", className: "min-h-12 text-lg" },
  amount: { type: "text", inputMode: "numeric", maxLength: 16, className: "min-h-12 text-2xl tabular-nums" },
  code: {
    type: "text",
    maxLength: 64,
    autoCapitalize: "characters",
    spellCheck: false,
    className: "min-h-12 font-mono text-lg",
  },
} as const satisfies Record<string, ComponentProps<"input">>;

export type CounterFieldProps = {
  kind: keyof typeof KINDS;
  name: string;
  label: string;
  description?: string;
  errors?: readonly string[] | null;
  className?: string;
  input?: ComponentProps<"input">;
};

/** A required field of the counter, large to read and tap, never autocompleted. */
export function CounterField({ kind, name, label, description, errors, className, input }: CounterFieldProps) {
  return (
    <Field
      className={className}
      label={label}
      description={description}
      errors={errors}
      inputProps={{ name, autoComplete: "off", required: true, ...KINDS[kind], ...input }}
    />
  );
}

/** One field and its button on a line (below each other on a phone): find a member, a receipt, a coupon. */
export function FindForm({
  method,
  field,
  submit,
  hidden,
  pending,
  className,
}: {
  method: "get" | "post";
  field: CounterFieldProps;
  submit: { label: string; variant?: "primary" | "secondary" };
  hidden?: Record<string, string>;
  pending?: boolean;
  className?: string;
}) {
  return (
    <Form method={method} className={cn("flex flex-col gap-3 sm:flex-row sm:items-start", className)}>
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <CounterField {...field} className="flex-1" />
      <Button type="submit" size="lg" variant={submit.variant} className="sm:mt-7" pending={pending}>
        {submit.label}
      </Button>
    </Form>
  );
}

/** The camera (a scanned code is posted as `scanned`), "or", and the same thing typed. */
export function ScanOrFind({
  scan,
  children,
}: {
  scan: { label: string; testId: string; fields: (text: string) => Record<string, string> };
  children: ReactNode;
}) {
  const t = useConsoleT();
  const submit = useSubmit();
  return (
    <>
      <QrScan
        label={scan.label}
        testId={scan.testId}
        onResult={(text) => submit(scan.fields(text), { method: "post" })}
      />
      <p className="my-4 flex items-center gap-3 text-sm text-muted" aria-hidden>
        <span className="h-px flex-1 bg-line" />
        {t("console.counter.find.or")}
        <span className="h-px flex-1 bg-line" />
      </p>
      {children}
    </>
  );
}

/**
 * The form that books (ADR 022): the key it was rendered with, the line above it when the last try was refused,
 * the details it books as hidden fields, and the page's own fields and button.
 */
export function BookingForm({
  formKey,
  hidden,
  formError,
  strong,
  testId,
  children,
}: {
  formKey: string;
  hidden?: Record<string, string | number>;
  formError: string | null;
  strong?: boolean;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" className={cn("mt-6 space-y-4", panelClass(strong))} data-testid={testId}>
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      <input type="hidden" name="formKey" value={formKey} />
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
    </Form>
  );
}
