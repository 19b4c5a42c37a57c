import { Link } from "~/components/ui/link";

/** Numbered pages of a short console list: previous, "page N of M", next (the links keep the list's filters). */
export function PageNumbers(props: {
  label: string;
  status: string;
  prevHref: string | null;
  nextHref: string | null;
  prevLabel: string;
  nextLabel: string;
}) {
  return (
    <nav aria-label={props.label} className="mt-6 flex items-center justify-center gap-4 text-sm">
      {props.prevHref ? (
        <Link to={props.prevHref} rel="prev" className="underline underline-offset-4">
          {props.prevLabel}
        </Link>
      ) : null}
      <span className="tabular-nums text-muted">{props.status}</span>
      {props.nextHref ? (
        <Link to={props.nextHref} rel="next" className="underline underline-offset-4">
          {props.nextLabel}
        </Link>
      ) : null}
    </nav>
  );
}

/** The next page of a keyset-paged console list ("more"), when there is one. */
export function MoreLink({ href, label }: { href: string | null; label: string }) {
  if (!href) return null;
  return (
    <p className="mt-6 text-center">
      <Link to={href} className="underline underline-offset-4">
        {label}
      </Link>
    </p>
  );
}
