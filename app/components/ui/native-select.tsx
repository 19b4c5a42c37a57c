import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/cn";
import { FieldShell, inputClass } from "./field";

/**
 * A labelled native select: works without JavaScript and on every phone's own picker. Drawn like
 * the selects of /our-store (the text-input box with the brand's chevron, `select-chevron` in
 * app.css), not as the platform's grey control.
 */
export function NativeSelectField({
  label,
  description,
  errors,
  children,
  selectProps,
}: {
  label: ReactNode;
  description?: ReactNode;
  errors?: readonly string[] | null;
  children: ReactNode;
  selectProps: ComponentProps<"select">;
}) {
  return (
    <FieldShell label={label} description={description} errors={errors}>
      {({ inputId, describedBy, invalid }) => (
        <select
          id={inputId}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          {...selectProps}
          className={cn(
            inputClass,
            "select-chevron cursor-pointer truncate disabled:cursor-not-allowed disabled:text-muted",
            selectProps.className,
          )}
        >
          {children}
        </select>
      )}
    </FieldShell>
  );
}
