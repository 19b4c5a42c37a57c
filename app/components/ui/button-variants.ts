import { cva } from "class-variance-authority";

/** Button styles, also for links that look like buttons (`className={buttonVariants(...)}`). */
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
