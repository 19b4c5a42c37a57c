import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import { LoaderCircle } from "lucide-react";
import type { ComponentProps } from "react";
import { cn } from "~/lib/cn";

export const buttonVariants = cva(
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-5 text-base font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-60",
  {
    variants: {
      variant: {
        primary: "bg-ink text-paper hover:bg-ink/85",
        brand: "bg-brand-700 text-white hover:bg-brand-800",
        secondary: "border border-line bg-paper text-ink hover:bg-sand",
        ghost: "text-ink hover:bg-sand",
        danger: "bg-danger-700 text-white hover:bg-danger-800",
      },
      size: {
        md: "",
        sm: "min-h-9 px-4 text-sm",
        lg: "min-h-12 px-7 text-lg",
      },
      block: { true: "w-full" },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

type ButtonProps = ComponentProps<"button"> &
  VariantProps<typeof buttonVariants> & {
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
