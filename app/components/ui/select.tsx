import * as SelectPrimitive from "@radix-ui/react-select";
import { cn } from "~/lib/cn";
import { FieldShell, inputClass } from "./field";
import { Check, ChevronDown } from "./icons";

export type SelectOption = { value: string; label: string };

type SelectFieldProps = {
  label: string;
  name: string;
  options: readonly SelectOption[];
  value?: string;
  defaultValue?: string;
  onValueChange?: (value: string) => void;
  placeholder?: string;
  description?: string;
  errors?: readonly string[] | null;
  required?: boolean;
  disabled?: boolean;
};

/** A labelled select; Radix keeps a native select in the form so it submits without JavaScript too. */
export function SelectField({ label, name, options, placeholder, description, errors, ...props }: SelectFieldProps) {
  return (
    <FieldShell label={label} description={description} errors={errors}>
      {({ inputId, describedBy, invalid }) => (
        <SelectPrimitive.Root name={name} {...props}>
          <SelectPrimitive.Trigger
            id={inputId}
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            className={cn(inputClass, "flex items-center justify-between text-left data-[placeholder]:text-muted")}
          >
            <SelectPrimitive.Value placeholder={placeholder} />
            <SelectPrimitive.Icon>
              <ChevronDown aria-hidden className="size-4 text-muted" />
            </SelectPrimitive.Icon>
          </SelectPrimitive.Trigger>
          <SelectPrimitive.Portal>
            <SelectPrimitive.Content
              position="popper"
              sideOffset={6}
              className="z-50 max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-xl border border-line bg-white shadow-lg"
            >
              <SelectPrimitive.Viewport className="p-1">
                {options.map((option) => (
                  <SelectPrimitive.Item
                    key={option.value}
                    value={option.value}
                    className="relative flex min-h-10 cursor-pointer select-none items-center rounded-lg py-2 pr-3 pl-8 text-base text-ink outline-none data-[highlighted]:bg-sand"
                  >
                    <SelectPrimitive.ItemIndicator className="absolute left-2">
                      <Check aria-hidden className="size-4" />
                    </SelectPrimitive.ItemIndicator>
                    <SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
                  </SelectPrimitive.Item>
                ))}
              </SelectPrimitive.Viewport>
            </SelectPrimitive.Content>
          </SelectPrimitive.Portal>
        </SelectPrimitive.Root>
      )}
    </FieldShell>
  );
}
