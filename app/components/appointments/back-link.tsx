import { ChevronLeft } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";

/** The way back from an appointments page (to the member center or to the list). */
export function BackLink({ to, label }: { to: string; label: string }) {
  return (
    <Link
      to={to}
      className="mb-6 inline-flex min-h-11 items-center gap-1 text-muted underline-offset-4 hover:text-ink hover:underline"
    >
      <ChevronLeft aria-hidden className="size-4" />
      {label}
    </Link>
  );
}
