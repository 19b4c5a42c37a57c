import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { errorKindOf } from "~/components/error-boundary";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { useT } from "~/lib/i18n";
import { useConsoleT } from "./use-console-t";

/** The console's error view: 403 (a permission the role lacks), 404 (no such console page), anything else. */
export function ConsoleError() {
  const error = useRouteError();
  const location = useLocation();
  const t = useConsoleT();
  const common = useT();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  if (typeof document !== "undefined" && status >= 500) console.error(error);
  const [code, title, body, testId] =
    status === 403
      ? ["403", t("console.forbidden.title"), t("console.forbidden.body"), "console-forbidden"]
      : status === 404
        ? [
            "404",
            t("console.notFound.title"),
            t("console.notFound.body", { path: location.pathname }),
            "console-not-found",
          ]
        : errorKindOf(error).kind === "badRequest"
          ? [String(status), common("error.badRequestTitle"), common("error.badRequestHint"), "bad-request"]
          : [String(status), t("console.error.title"), t("console.error.body"), "console-error"];
  return (
    <section
      className="mx-auto max-w-xl px-6 py-16 text-center"
      aria-labelledby="console-error-title"
      data-testid={testId}
    >
      <p className="font-serif text-5xl text-brand-700" aria-hidden>
        {code}
      </p>
      <h1 id="console-error-title" className="mt-4 text-2xl font-semibold">
        {title}
      </h1>
      <p className="mt-3 break-all text-muted">{body}</p>
      <Link to="/admin" className={`${buttonVariants({ variant: "primary" })} mt-8`}>
        {t("console.backHome")}
      </Link>
    </section>
  );
}
