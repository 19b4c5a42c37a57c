import { type ComponentProps, type ReactNode, useId } from "react";
import { cn } from "~/lib/cn";
import { inputClass } from "./input-class";

export { inputClass };

export function ErrorList({ id, errors }: { id?: string; errors?: readonly string[] | null }) {
  const list = errors?.filter(Boolean);
  if (!list?.length) return null;
  return (
    <ul id={id} className="mt-1.5 space-y-0.5 text-sm text-danger-700">
      {list.map((e) => (
        <li key={e}>{e}</li>
      ))}
    </ul>
  );
}

type FieldShellProps = {
  label: ReactNode;
  description?: ReactNode;
  errors?: readonly string[] | null;
  className?: string;
  children: (ids: { inputId: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
};

/** Label, control, description and errors, wired together for assistive technology. */
export function FieldShell({ label, description, errors, className, children }: FieldShellProps) {
  const inputId = useId();
  const descriptionId = `${inputId}-description`;
  const errorId = `${inputId}-error`;
  const invalid = Boolean(errors?.length);
  const describedBy =
    [description ? descriptionId : null, invalid ? errorId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <label htmlFor={inputId} className="block text-sm font-medium text-ink">
        {label}
      </label>
      {children({ inputId, describedBy, invalid })}
      {description ? (
        <p id={descriptionId} className="text-sm text-muted">
          {description}
        </p>
      ) : null}
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

type FieldProps = Omit<FieldShellProps, "children"> & { inputProps: ComponentProps<"input"> };

export function Field({ inputProps, ...shell }: FieldProps) {
  return (
    <FieldShell {...shell}>
      {({ inputId, describedBy, invalid }) => (
        <input
          id={inputId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...inputProps}
          className={cn(inputClass, inputProps.className)}
        />
      )}
    </FieldShell>
  );
}

type TextareaFieldProps = Omit<FieldShellProps, "children"> & { textareaProps: ComponentProps<"textarea"> };

/** A labelled multi-line text box, wired like Field. */
export function TextareaField({ textareaProps, ...shell }: TextareaFieldProps) {
  return (
    <FieldShell {...shell}>
      {({ inputId, describedBy, invalid }) => (
        <textarea
          id={inputId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          rows={4}
          {...textareaProps}
          className={cn(inputClass, "min-h-24 py-2 leading-relaxed", textareaProps.className)}
        />
      )}
    </FieldShell>
  );
}
