import { type ReactNode, useId } from "react";
import { ErrorList } from "./field";
import { Check } from "./icons";

type CheckboxFieldProps = {
  label: ReactNode;
  name: string;
  value?: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  required?: boolean;
  errors?: readonly string[] | null;
  /** The box is one of a group whose error is shown elsewhere (the group's): marked invalid, described by it. */
  groupError?: string | null;
};

/**
 * A labelled checkbox: a real <input type=checkbox> (it submits and toggles without JavaScript),
 * drawn in the brand's style with the check mark on top.
 */
export function CheckboxField({ label, errors, groupError, onCheckedChange, ...props }: CheckboxFieldProps) {
  const id = useId();
  const own = Boolean(errors?.length);
  const errorId = own ? `${id}-error` : (groupError ?? undefined);
  const invalid = own || Boolean(groupError);
  return (
    <div>
      <div className="flex items-start gap-3">
        <span className="relative mt-0.5 flex size-6 shrink-0">
          <input
            id={id}
            type="checkbox"
            aria-invalid={invalid || undefined}
            aria-describedby={errorId}
            onChange={onCheckedChange ? (e) => onCheckedChange(e.currentTarget.checked) : undefined}
            className="peer size-6 cursor-pointer appearance-none rounded-md border border-line bg-white checked:border-ink checked:bg-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 aria-[invalid=true]:border-danger-700"
            {...props}
          />
          <Check className="pointer-events-none absolute inset-1 hidden size-4 text-paper peer-checked:block" />
        </span>
        <label htmlFor={id} className="text-base leading-relaxed text-ink">
          {label}
        </label>
      </div>
      <ErrorList id={`${id}-error`} errors={errors} />
    </div>
  );
}
