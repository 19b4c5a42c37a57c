import type { ReactNode } from "react";
import { FieldShell, inputClass } from "~/components/ui/field";
import { cn } from "~/lib/cn";

/**
 * The console's detail and editor pages are cards of sections, each with a title and an optional lead line
 * (ADR 037, "The console page frame and list query"). A section of inputs that belong together is a `fieldset`
 * named by its `legend` (`as="fieldset"`, the material editor); a part of the page is a `section` named by its
 * `<h2>` (give it an `id` for `aria-labelledby`).
 */
export function DetailSection({
  title,
  lead,
  id,
  as = "section",
  action,
  className,
  testId,
  children,
}: {
  title: ReactNode;
  lead?: ReactNode;
  id?: string;
  /** A button or link on the title's right (a section only). */
  action?: ReactNode;
  as?: "section" | "fieldset";
  className?: string;
  testId?: string;
  children?: ReactNode;
}) {
  // min-w-0: in a grid a card may be narrower than its table, which then scrolls in its own box (not the page).
  const card = cn("min-w-0 space-y-4 rounded-2xl border border-line bg-white p-5", className);
  if (as === "fieldset") {
    return (
      <fieldset className={card} data-testid={testId}>
        <legend className="px-1 font-serif text-lg font-semibold">{title}</legend>
        {lead ? <p className="text-sm text-muted">{lead}</p> : null}
        {children}
      </fieldset>
    );
  }
  const heading = (
    <h2 id={id} className="text-lg font-semibold">
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={id} className={card} data-testid={testId}>
      {action ? (
        <div className="flex flex-wrap items-center justify-between gap-3">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {lead ? <p className="-mt-2 text-sm text-muted">{lead}</p> : null}
      {children}
    </section>
  );
}

/** One label and value of a detail list (`<dl>`): the label muted, the value below it. */
export function FieldRow({
  label,
  children,
  className,
  testId,
  extra,
}: {
  label: ReactNode;
  children: ReactNode;
  /** Classes of the value (`tabular-nums`, `break-all`, …). */
  className?: string;
  testId?: string;
  /** More `<dd>`s under the value (a status chip). */
  extra?: ReactNode;
}) {
  return (
    <div>
      <dt className="text-muted">{label}</dt>
      <dd className={cn("mt-1", className)} data-testid={testId}>
        {children}
      </dd>
      {extra}
    </div>
  );
}

/** A multi-line text field of a console form, with its label, hint and errors (`FieldShell`). */
export function TextArea({
  label,
  name,
  value,
  errors,
  max,
  rows = 3,
  required = true,
  description,
}: {
  label: string;
  name: string;
  value: string;
  errors: string[] | null;
  max: number;
  rows?: number;
  required?: boolean;
  description?: string;
}) {
  return (
    <FieldShell label={label} errors={errors} description={description}>
      {({ inputId, describedBy, invalid }) => (
        <textarea
          id={inputId}
          name={name}
          rows={rows}
          required={required}
          maxLength={max}
          defaultValue={value}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={cn(inputClass, "min-h-24 py-2 leading-relaxed")}
        />
      )}
    </FieldShell>
  );
}
