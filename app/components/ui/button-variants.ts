/** Button styles, also for links that look like buttons (`className={buttonVariants(...)}`). */
const BASE =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-full px-5 text-base font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-60";

const VARIANTS = {
  primary: "bg-ink text-paper hover:bg-ink/85",
  brand: "bg-brand-700 text-white hover:bg-brand-800",
  secondary: "border border-line bg-paper text-ink hover:bg-sand",
  ghost: "text-ink hover:bg-sand",
  danger: "bg-danger-700 text-white hover:bg-danger-800",
} as const;

const SIZES = { md: "", sm: "min-h-9 px-4 text-sm", lg: "min-h-12 px-7 text-lg" } as const;

export type ButtonVariantProps = {
  variant?: keyof typeof VARIANTS | null;
  size?: keyof typeof SIZES | null;
  block?: boolean | null;
};

/** A plain function instead of class-variance-authority: same classes, one less library on every page. */
export function buttonVariants({ variant, size, block }: ButtonVariantProps = {}): string {
  return [BASE, VARIANTS[variant ?? "primary"], SIZES[size ?? "md"], block ? "w-full" : ""].filter(Boolean).join(" ");
}
