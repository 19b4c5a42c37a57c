import { Slot } from "@radix-ui/react-slot";
import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";
import { type ButtonVariantProps, buttonVariants } from "./button-variants";
import { LoaderCircle } from "./icons";

// The classes live in their own module, so pages that only style a link as a button do not ship
// the Button component (Radix Slot, spinner icon).
export { buttonVariants };

type ButtonProps = ComponentProps<"button"> &
  ButtonVariantProps & {
    /** Renders the child element (e.g. a Link) with button styles. */
    asChild?: boolean;
    /** Shows a spinner, disables the button and announces that work is in progress. */
    pending?: boolean;
  };

export function Button({
  className,
  variant,
  size,
  block,
  asChild,
  pending,
  disabled,
  children,
  ...props
}: ButtonProps) {
  const Component = asChild ? Slot : "button";
  return (
    <Component
      className={cn(buttonVariants({ variant, size, block }), className)}
      disabled={asChild ? undefined : disabled || pending}
      aria-busy={pending || undefined}
      {...props}
    >
      {asChild ? (
        children
      ) : (
        <>
          {pending ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
          {children}
        </>
      )}
    </Component>
  );
}
