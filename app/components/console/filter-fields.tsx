import { ErrorList } from "~/components/ui/field";
import { inputClass } from "~/components/ui/input-class";
import { cn } from "~/lib/cn";
import { useConsoleT } from "./use-console-t";

/** The filter fields of the console's lists (GET forms: the filters live in the URL). */

export function FilterSelect({
  name,
  label,
  value,
  options,
  errors,
  anyOption = true,
}: {
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  errors?: string[];
  /** Offer 全部 (no filter) first; not for a choice that always has a value (a sort) or lists its own 全部. */
  anyOption?: boolean;
}) {
  const t = useConsoleT();
  const errorId = `filter-${name}-error`;
  return (
    <label className="text-sm">
      <span className="block font-medium">{label}</span>
      <select
        name={name}
        defaultValue={value}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        className={cn(inputClass, "select-chevron mt-1")}
      >
        {anyOption ? <option value="">{t("console.audit.any")}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <ErrorList id={errorId} errors={errors} />
    </label>
  );
}

export function FilterInput({
  name,
  label,
  value,
  errors,
  type = "text",
  placeholder,
}: {
  name: string;
  label: string;
  value: string;
  errors?: string[];
  type?: "text" | "date" | "search";
  /** A hint of what may be typed (what the search looks in). */
  placeholder?: string;
}) {
  const errorId = `filter-${name}-error`;
  return (
    <label className="text-sm">
      <span className="block font-medium">{label}</span>
      <input
        type={type}
        name={name}
        defaultValue={value}
        placeholder={placeholder}
        maxLength={200}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? errorId : undefined}
        className={cn(inputClass, "mt-1")}
      />
      <ErrorList id={errorId} errors={errors} />
    </label>
  );
}
