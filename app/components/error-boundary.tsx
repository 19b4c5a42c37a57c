import { isRouteErrorResponse, Link, useLocation, useRouteError } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { type MessageKey, useT } from "~/lib/i18n";

/**
 * One error boundary for every route: 404 → "Page not found: {path}", anything else →
 * "Internal Server Error". Details (the stack) appear only in development builds.
 */
export function GeneralErrorBoundary({
  standalone = false,
  hintKey,
}: {
  standalone?: boolean;
  /** Replaces the generic hint under the message (e.g. "the site was updated, reload"). */
  hintKey?: MessageKey;
}) {
  const error = useRouteError();
  const location = useLocation();
  const t = useT();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const path = (notFound && (error.data as { path?: string } | null)?.path) || location.pathname;

  if (typeof document !== "undefined" && !notFound && error !== undefined) console.error(error);

  const title = notFound ? t("error.notFoundTitle") : t("error.serverTitle");
  const message = notFound ? t("error.notFound", { path }) : t("error.server");
  const hint = t(hintKey ?? (notFound ? "error.notFoundHint" : "error.serverHint"));

  const body = (
    <section
      className="mx-auto flex max-w-xl flex-col items-center px-6 py-20 text-center"
      aria-labelledby="error-title"
      data-testid={notFound ? "not-found" : "server-error"}
    >
      <p className="font-serif text-6xl text-brand-700" aria-hidden>
        {notFound ? "404" : "500"}
      </p>
      <h1 id="error-title" className="mt-4 text-2xl font-semibold">
        {title}
      </h1>
      <p className="mt-3 break-all text-lg text-ink">{message}</p>
      <p className="mt-2 text-muted">{hint}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/" className={buttonVariants({ variant: "primary" })}>
          {t("common.backHome")}
        </Link>
        {notFound ? null : (
          <a href={location.pathname + location.search} className={buttonVariants({ variant: "secondary" })}>
            {t("common.reload")}
          </a>
        )}
      </div>
      {import.meta.env.DEV && error instanceof Error ? (
        <pre className="mt-8 max-w-full overflow-auto rounded-xl bg-sand p-4 text-left text-xs">{error.stack}</pre>
      ) : null}
    </section>
  );

  return standalone ? <main id="main">{body}</main> : body;
}
