import type { ComponentProps, ReactNode } from "react";
import { cn } from "~/lib/cn";
import { FieldShell, inputClass } from "./field";

/** A labelled native select: works without JavaScript and on every phone's own picker. */
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
          className={cn(inputClass, "appearance-auto pr-8", selectProps.className)}
        >
          {children}
        </select>
      )}
    </FieldShell>
  );
}
