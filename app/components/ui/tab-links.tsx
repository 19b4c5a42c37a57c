import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";

/**
 * Two or three ways to do one thing (phone or e-mail, password or SMS code) as links that change
 * the query string: each choice has its own address, works without JavaScript and keeps history.
 */
export function TabLinks<T extends string>({
  label,
  items,
  current,
  className,
}: {
  label: string;
  items: readonly { value: T; to: string; label: string }[];
  current: T;
  className?: string;
}) {
  return (
    <nav
      aria-label={label}
      className={cn("grid grid-flow-col auto-cols-fr rounded-full border border-line bg-white p-1", className)}
    >
      {items.map((item) => (
        <Link
          key={item.value}
          to={item.to}
          replace
          preventScrollReset
          aria-current={current === item.value ? "page" : undefined}
          className={cn(
            "flex min-h-10 items-center justify-center rounded-full",
            current === item.value ? "bg-ink text-paper" : "text-muted hover:text-ink",
          )}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
