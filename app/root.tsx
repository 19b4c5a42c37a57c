import { useEffect, useState } from "react";
import {
  data,
  Links,
  Meta,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLocation,
  useMatches,
  useOutlet,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { getApp } from "./adapters/context.server";
import { getMemberSession, memberSessionMiddleware } from "./adapters/current-member.server";
import { errorTitleKey, GeneralErrorBoundary } from "./components/error-boundary";
import { LoadingOverlay } from "./components/layout/loading-overlay";
import { SiteFooter } from "./components/layout/site-footer";
import { SiteHeader } from "./components/layout/site-header";
import { Toaster } from "./components/ui/toaster";
import { LiveAnnouncer } from "./lib/announcer";
import { requestNow } from "./lib/clock.server";
import { isUpdateAvailable, startBuildPolling } from "./lib/deploy";
import {
  CATALOG_LINK_ATTRIBUTE,
  catalogPaths,
  HTML_LANG,
  type Locale,
  loadCatalog,
  shellCatalog,
  translator,
  useLocale,
} from "./lib/i18n";
import { getLocale, shellCatalogPath } from "./lib/i18n.server";
import { LIFF_META } from "./lib/liff-detect";
import { lineClientSettings } from "./lib/line-settings.server";
import { useNonce } from "./lib/nonce";
import { badUrlMiddleware } from "./lib/request-url.server";
import { taipeiParts } from "./lib/time";
import { readToast } from "./lib/toast.server";
import { databaseOutageMiddleware } from "./lib/unavailable.server";

/** A bad URL first (nothing reads it, issue 33), then the database outage, then the member session. */
export const middleware: Route.MiddlewareFunction[] = [
  badUrlMiddleware,
  databaseOutageMiddleware,
  memberSessionMiddleware,
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { config } = getApp(context);
  const locale = getLocale(request);
  const member = getMemberSession(context)?.member;
  const { toast, headers } = await readToast({ secret: config.secrets.session, secure: config.isProduction }, request);
  return data(
    {
      locale,
      /** The path of the shell catalog file (i18n.ts): the messages themselves are not in every page. */
      catalog: shellCatalogPath(locale),
      toast,
      appEnv: config.appEnv,
      member: member ? { name: member.nameZh, level: member.memberLevel } : null,
      line: lineClientSettings(config),
      /** The footer's copyright year (Taipei). */
      year: taipeiParts(requestNow(request, config)).year,
    },
    { headers: headers ?? undefined },
  );
}

/**
 * A navigation or a revalidation shows its new data only once the message catalogs that data names are loaded
 * (a page's own namespace, or the root's catalog after a language switch or across a deploy): no page with keys
 * instead of texts, none with texts of two languages. Every loader still answers in one single fetch. A catalog
 * that cannot load is the navigation's error, like its data failing to load.
 */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [
  async (_args, next) => {
    const results = await next();
    const paths = Object.values(results).flatMap((r) => (r.type === "data" ? catalogPaths(r.result) : []));
    await Promise.all(paths.map((path) => loadCatalog(path)));
  },
];

/**
 * Default title, and the title of the error pages (one per status view): pages set their own in their
 * `meta`; an error page has no page meta, and a document without a title fails WCAG 2.4.2.
 */
export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  const t = translator(shellCatalog(loaderData?.catalog));
  if (!error) return [{ title: t("brand.name") }];
  return [{ title: `${t(errorTitleKey(error))}｜${t("brand.name")}` }];
};

/**
 * The root re-runs after form submissions (toasts, locale, login) and when a redirect left a toast
 * cookie, but not on plain navigations (its catalog does not change).
 */
export function shouldRevalidate({ formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (formMethod !== undefined && formMethod !== "GET") return defaultShouldRevalidate;
  return typeof document !== "undefined" && /(?:^|;\s*)toast=/.test(document.cookie);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const locale = useLocale();
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof loader>("root");
  const line = root?.line;
  // The page's catalogs (its own and the root's), preloaded for the document's first load: entry.client waits
  // for them. Later ones are loaded by the clientMiddleware, so the links keep their first paths rather than
  // preloading a new one a second time.
  const matches = useMatches();
  const [catalogs] = useState(() => [...new Set(matches.flatMap((match) => catalogPaths(match.loaderData)))]);
  return (
    <html lang={HTML_LANG[locale as Locale]} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#faf8f4" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {catalogs.map((path) => (
          <link
            key={path}
            rel="preload"
            href={path}
            as="fetch"
            crossOrigin="anonymous"
            {...{ [CATALOG_LINK_ATTRIBUTE]: "" }}
          />
        ))}
        {/* Read by entry.client before hydration: inside LINE, LIFF starts before the router reads the URL. */}
        {line?.liffId ? <meta name={LIFF_META} content={line.liffId} data-mock={line.mock ? "1" : undefined} /> : null}
        <Meta />
        <Links />
      </head>
      <body className="bg-paper text-ink antialiased">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** After a new build is detected, the next navigation loads the new build with a full page load. */
function DeploymentWatcher() {
  const location = useLocation();
  useEffect(() => startBuildPolling(), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation, keyed on the location
  useEffect(() => {
    if (isUpdateAvailable()) window.location.reload();
  }, [location.key]);
  return null;
}

/**
 * A page's code chunk failed to load inside the reload guard window (app/lib/deploy.ts): the router
 * then finishes the navigation with the page's route still unloaded and renders nothing below the
 * root. Show the error page, in the site frame, with a reload button instead of a blank screen.
 */
function ChunkLoadFailure() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
      <main id="main" className="flex-1">
        <GeneralErrorBoundary hintKey="error.chunkReloadFailed" />
      </main>
      <SiteFooter />
    </div>
  );
}

export default function App() {
  const rootData = useRouteLoaderData<typeof loader>("root");
  // Every page renders under the layout route, so the root's outlet is empty only when a route
  // module could not be loaded.
  const outlet = useOutlet();
  return (
    <>
      {outlet ?? <ChunkLoadFailure />}
      <LoadingOverlay />
      <DeploymentWatcher />
      <Toaster toast={rootData?.toast ?? null} />
      <LiveAnnouncer />
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary standalone />;
}
