import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import { Label } from "@radix-ui/react-label";
import { Check } from "lucide-react";
import { type ReactNode, useId } from "react";
import { ErrorList } from "./field";

type CheckboxFieldProps = {
  label: ReactNode;
  name: string;
  value?: string;
  checked?: boolean;
  defaultChecked?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  required?: boolean;
  errors?: readonly string[] | null;
};

export function CheckboxField({ label, errors, onCheckedChange, ...props }: CheckboxFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const invalid = Boolean(errors?.length);
  return (
    <div>
      <div className="flex items-start gap-3">
        <CheckboxPrimitive.Root
          id={id}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? errorId : undefined}
          onCheckedChange={(c) => onCheckedChange?.(c === true)}
          className="mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-md border border-line bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 aria-[invalid=true]:border-danger-700 data-[state=checked]:border-ink data-[state=checked]:bg-ink data-[state=checked]:text-paper"
          {...props}
        >
          <CheckboxPrimitive.Indicator>
            <Check aria-hidden className="size-4" />
          </CheckboxPrimitive.Indicator>
        </CheckboxPrimitive.Root>
        <Label htmlFor={id} className="text-base leading-relaxed text-ink">
          {label}
        </Label>
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}
