import { type ComponentProps, cloneElement, isValidElement, type ReactElement } from "react";
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
  const classes = cn(buttonVariants({ variant, size, block }), className);
  if (asChild && isValidElement(children)) {
    // The child (e.g. a Link) becomes the button: our props first, the child's win, classes add up.
    // A few lines instead of Radix Slot, which every page would download with the button.
    const child = children as ReactElement<Record<string, unknown> & { className?: string }>;
    return cloneElement(child, {
      ...props,
      ...child.props,
      "aria-busy": pending || undefined,
      className: cn(classes, child.props.className),
    });
  }
  return (
    <button className={classes} disabled={disabled || pending} aria-busy={pending || undefined} {...props}>
      {pending ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
      {children}
    </button>
  );
}
