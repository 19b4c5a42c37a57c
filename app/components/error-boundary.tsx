import type { ReactNode } from "react";
import { isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { type MessageKey, useT } from "~/lib/i18n";
import { links } from "~/lib/links";

/** The kinds of error page, each with its own localized view. */
export type ErrorKind =
  | "badRequest"
  | "unauthorized"
  | "forbidden"
  | "notFound"
  | "conflict"
  | "tooManyRequests"
  | "unavailable"
  | "server";

type Action = "home" | "reload" | "login" | "back";

type ErrorView = {
  /** The localized heading. */
  title: MessageKey;
  /** A sentence in the reader's language ("{path}" for 404). */
  local: MessageKey;
  /** The specification's English line (`Page not found: {path}`, `Internal Server Error`), kept in every locale. */
  english: MessageKey;
  hint: MessageKey;
  actions: Action[];
  testId: string;
};

export const ERROR_VIEWS: Record<ErrorKind, ErrorView> = {
  badRequest: {
    title: "error.badRequestTitle",
    local: "error.badRequestLocal",
    english: "error.badRequest",
    hint: "error.badRequestHint",
    actions: ["back", "home"],
    testId: "bad-request",
  },
  unauthorized: {
    title: "error.unauthorizedTitle",
    local: "error.unauthorizedLocal",
    english: "error.unauthorized",
    hint: "error.unauthorizedHint",
    actions: ["login", "home"],
    testId: "unauthorized",
  },
  forbidden: {
    title: "error.forbiddenTitle",
    local: "error.forbiddenLocal",
    english: "error.forbidden",
    hint: "error.forbiddenHint",
    actions: ["home"],
    testId: "forbidden",
  },
  notFound: {
    title: "error.notFoundTitle",
    local: "error.notFoundLocal",
    english: "error.notFound",
    hint: "error.notFoundHint",
    actions: ["home"],
    testId: "not-found",
  },
  conflict: {
    title: "error.conflictTitle",
    local: "error.conflictLocal",
    english: "error.conflict",
    hint: "error.conflictHint",
    actions: ["reload", "home"],
    testId: "conflict",
  },
  tooManyRequests: {
    title: "error.tooManyRequestsTitle",
    local: "error.tooManyRequestsLocal",
    english: "error.tooManyRequests",
    hint: "error.tooManyRequestsHint",
    actions: ["home"],
    testId: "too-many-requests",
  },
  /** The database is away (ADR 021): the calm view of app/lib/unavailable.server.ts, for client-side navigations. */
  unavailable: {
    title: "error.unavailableTitle",
    local: "error.unavailableLocal",
    english: "error.serviceUnavailable",
    hint: "error.unavailableHint",
    actions: ["reload", "home"],
    testId: "temporarily-unavailable",
  },
  server: {
    title: "error.serverTitle",
    local: "error.serverLocal",
    english: "error.server",
    hint: "error.serverHint",
    actions: ["home", "reload"],
    testId: "server-error",
  },
};

/**
 * The status table: which view an HTTP status gets. Other 4xx (415 and 413 from form bodies, 405)
 * are a bad request; 503 is the database outage's calm view; everything else, and any thrown Error,
 * is the server error.
 */
export function errorKindOf(error: unknown): { kind: ErrorKind; status: number } {
  if (!isRouteErrorResponse(error)) return { kind: "server", status: 500 };
  const byStatus: Record<number, ErrorKind> = {
    401: "unauthorized",
    403: "forbidden",
    404: "notFound",
    409: "conflict",
    429: "tooManyRequests",
    503: "unavailable",
  };
  const kind = byStatus[error.status] ?? (error.status >= 400 && error.status < 500 ? "badRequest" : "server");
  return { kind, status: error.status };
}

/** The page title of an error (root meta): every document needs one (WCAG 2.4.2). */
export function errorTitleKey(error: unknown): MessageKey {
  return ERROR_VIEWS[errorKindOf(error).kind].title;
}

export type StatusHandler = (info: { error: unknown; status: number; kind: ErrorKind }) => ReactNode;

/**
 * One error boundary for every route (the root and the layout render it; a section such as the
 * staff console can pass its own `statusHandlers`, e.g. for 403). Each status has its own
 * localized view; details (the stack) appear only in development builds.
 */
export function GeneralErrorBoundary({
  standalone = false,
  hintKey,
  statusHandlers,
}: {
  standalone?: boolean;
  /** Replaces the view's hint (e.g. "the site was updated, reload"). */
  hintKey?: MessageKey;
  /** Per-status replacements for the default views. */
  statusHandlers?: Partial<Record<number, StatusHandler>>;
}) {
  const error = useRouteError();
  const { kind, status } = errorKindOf(error);
  if (typeof document !== "undefined" && kind === "server" && error !== undefined) console.error(error);

  const custom = statusHandlers?.[status];
  const body = custom ? (
    custom({ error, status, kind })
  ) : (
    <ErrorPage kind={kind} status={status} error={error} hintKey={hintKey} />
  );
  return standalone ? <main id="main">{body}</main> : body;
}

/** One error view: the status number, a localized title and sentence, the English line, what to do next. */
export function ErrorPage({
  kind,
  status,
  error,
  hintKey,
}: {
  kind: ErrorKind;
  status: number;
  error?: unknown;
  hintKey?: MessageKey;
}) {
  const location = useLocation();
  const t = useT();
  const view = ERROR_VIEWS[kind];
  const path =
    (kind === "notFound" && isRouteErrorResponse(error) && (error.data as { path?: string } | null)?.path) ||
    location.pathname;
  const local = t(view.local, { path });
  const english = t(view.english, { path });
  const here = location.pathname + location.search;

  const action = (which: Action, primary: boolean) => {
    const style = buttonVariants({ variant: primary ? "primary" : "secondary" });
    switch (which) {
      case "home":
        return (
          <Link key={which} to="/" className={style}>
            {t("common.backHome")}
          </Link>
        );
      case "reload":
        return (
          <a key={which} href={here} className={style}>
            {t("common.reload")}
          </a>
        );
      case "login":
        return (
          <Link
            key={which}
            to={`${links["member-login"]()}?redirectTo=${encodeURIComponent(location.pathname)}`}
            className={style}
          >
            {t("common.login")}
          </Link>
        );
      case "back":
        return (
          <button key={which} type="button" className={style} onClick={() => window.history.back()}>
            {t("common.goBack")}
          </button>
        );
    }
  };

  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center px-6 py-20 text-center"
      aria-labelledby="error-title"
      data-testid={view.testId}
      data-status={status}
    >
      <p className="font-serif text-6xl text-brand-700" aria-hidden>
        {status}
      </p>
      <h1 id="error-title" className="mt-4 font-serif text-2xl font-semibold tracking-wide">
        {t(view.title)}
      </h1>
      <p className="mt-3 text-lg break-words text-ink [overflow-wrap:anywhere]" data-testid="error-local">
        {local}
      </p>
      {english !== local ? (
        <p
          lang="en"
          className="mt-1 text-base break-words text-muted [overflow-wrap:anywhere]"
          data-testid="error-english"
        >
          {english}
        </p>
      ) : null}
      <p className="mt-4 text-muted">{t(hintKey ?? view.hint)}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {view.actions.map((which, index) => action(which, index === 0))}
      </div>
      {import.meta.env.DEV && error instanceof Error ? (
        <pre className="mt-8 max-w-full overflow-auto rounded-xl bg-sand p-4 text-left text-xs">{error.stack}</pre>
      ) : null}
    </section>
  );
}
