import type { ComponentProps, ReactNode } from "react";
import { Field } from "~/components/ui/field";
import { cn } from "~/lib/cn";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";

/**
 * The fields the catalogue's editors (materials and categories) are made of. Every piece reads the form through
 * `FormFields`: a field's value (as typed after a refused save, else the saved one) and its messages.
 */
export type FormFields = { value: (name: string) => string; errors: (name: string) => string[] | null };

type InputProps = Omit<ComponentProps<"input">, "name" | "maxLength" | "defaultValue">;

/** A one-line text field, required unless told otherwise. */
export function TextField({
  fields,
  name,
  label,
  max,
  description,
  ...input
}: { fields: FormFields; name: string; label: string; max: number; description?: string } & InputProps) {
  return (
    <Field
      label={label}
      description={description}
      errors={fields.errors(name)}
      inputProps={{
        name,
        type: "text",
        required: true,
        maxLength: max,
        defaultValue: fields.value(name),
        autoComplete: "off",
        ...input,
      }}
    />
  );
}

/** A text in both languages side by side (`nameZh`, `nameEn`), labelled `${labels}.nameZh` and `…En`. */
export function LanguagePair({
  fields,
  field,
  max,
  labels = "console.materials.field",
}: {
  fields: FormFields;
  field: string;
  max: number;
  labels?: "console.materials.field" | "console.categories.field";
}) {
  const t = useConsoleT();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {(["Zh", "En"] as const).map((lang) => (
        <TextField
          key={lang}
          fields={fields}
          name={`${field}${lang}`}
          label={t(`${labels}.${field}${lang}` as MessageKey)}
          max={max}
        />
      ))}
    </div>
  );
}

/** The id of something new: the slug of its public address (it cannot be changed later). */
export function SlugField({ fields, label, description }: { fields: FormFields; label: string; description?: string }) {
  return (
    <TextField
      fields={fields}
      name="id"
      label={label}
      description={description}
      max={64}
      pattern="[a-z0-9]+(-[a-z0-9]+)*"
      spellCheck={false}
    />
  );
}

/** A checkbox with its label on the right (`on` when ticked). */
export function CheckField({
  name,
  label,
  checked,
  value,
  invalid,
  errorId,
  className = "min-h-11",
}: {
  name: string;
  label: ReactNode;
  checked: boolean;
  value?: string;
  /** The boxes of a list share one error message (`errorId`). */
  invalid?: boolean;
  errorId?: string;
  className?: string;
}) {
  return (
    <label className={cn("flex items-center gap-3 text-sm", className)}>
      <input
        type="checkbox"
        name={name}
        value={value}
        defaultChecked={checked}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? errorId : undefined}
        className="size-5 accent-brand-700"
      />
      {label}
    </label>
  );
}

/** The picture at a same-site path, small, beside its path field (nothing for another site's address). */
export function Thumbnail({ src, lazy = false }: { src: string; lazy?: boolean }) {
  return (
    <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg bg-sand">
      {src.startsWith("/") && !src.startsWith("//") ? (
        <img src={src} alt="" className="size-full object-cover" loading={lazy ? "lazy" : undefined} />
      ) : null}
    </div>
  );
}

/** Published or not (a material's status, a category shown or hidden), as a chip. */
export function StatusChip({
  on,
  children,
  large,
  testId,
}: {
  on: boolean;
  children: ReactNode;
  large?: boolean;
  testId?: string;
}) {
  return (
    <span
      className={cn(
        "rounded-full",
        large ? "px-3 py-1 text-sm" : "px-2 py-0.5 text-xs",
        on ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
      )}
      data-testid={testId}
    >
      {children}
    </span>
  );
}
