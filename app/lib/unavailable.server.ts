import { BRAND_NAME } from "@platform/constants";
import { databaseUnavailableSince } from "@platform/db/availability";
import { data, type MiddlewareFunction } from "react-router";
import { HTML_LANG } from "~/lib/i18n";
import { catalogT, getLocale } from "~/lib/i18n.server";

/**
 * The calm page while the database cannot be reached (ADR 021): 503 with Retry-After, localized,
 * self-contained (no scripts, no assets, nothing that needs the database), and it reloads itself,
 * so an open tab recovers without the member doing anything.
 */
export const RETRY_AFTER_SECONDS = 10;

export function databaseIsUnavailable(): boolean {
  return databaseUnavailableSince() !== null;
}

/**
 * What React Router answers while the database is away: a 503 route error, which the error boundary
 * shows as the same calm, localized "temporarily unavailable" view as the full page. Full page loads
 * never get this far (server/readiness.ts, entry.server.tsx); client-side navigations (`.data`
 * requests) do, and React Router encodes the error for them.
 */
export function unavailableError() {
  return data(
    { unavailable: true },
    { status: 503, headers: { "Retry-After": String(RETRY_AFTER_SECONDS), "Cache-Control": "no-store" } },
  );
}

/**
 * First of the root middleware: while the database is known to be away, no loader or action runs;
 * and a request that finds it gone (a middleware or handler failed and the database is now marked
 * unavailable) ends the same way instead of as a server error.
 */
export const databaseOutageMiddleware: MiddlewareFunction<Response> = async (_args, next) => {
  if (databaseIsUnavailable()) throw unavailableError();
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    if (databaseIsUnavailable()) throw unavailableError();
    throw error;
  }
  if (response.status >= 500 && response.status !== 503 && databaseIsUnavailable()) throw unavailableError();
  return response;
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function unavailablePage(request: Request): Response {
  const locale = getLocale(request);
  const t = catalogT(locale);
  const url = new URL(request.url);
  const here = escapeHtml(url.pathname.replace(/\.data$/, "") + url.search);
  const html = `<!doctype html>
<html lang="${HTML_LANG[locale]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${RETRY_AFTER_SECONDS}">
<meta name="robots" content="noindex">
<title>${escapeHtml(t("error.unavailableTitle"))} | ${escapeHtml(BRAND_NAME)}</title>
<style>
  body { margin: 0; font-family: "Noto Sans TC", "PingFang TC", "Microsoft JhengHei", system-ui, sans-serif;
    background: #f7f3ec; color: #2b2724; display: flex; min-height: 100vh; align-items: center; justify-content: center; }
  main { max-width: 32rem; padding: 2rem 1.5rem; text-align: center; }
  .brand { font-family: serif; font-size: 1.25rem; color: #7a5a3a; letter-spacing: .1em; }
  h1 { font-size: 1.5rem; margin: 1.5rem 0 .75rem; }
  p { line-height: 1.7; margin: .5rem 0; }
  .hint { color: #6b635c; }
  a { display: inline-block; margin-top: 1.5rem; padding: .7rem 1.5rem; border-radius: 999px;
    background: #7a5a3a; color: #fff; text-decoration: none; }
</style>
</head>
<body>
<main id="main" data-testid="temporarily-unavailable">
  <div class="brand">${escapeHtml(BRAND_NAME)}</div>
  <h1>${escapeHtml(t("error.unavailableTitle"))}</h1>
  <p>${escapeHtml(t("error.unavailable"))}</p>
  <p class="hint">${escapeHtml(t("error.unavailableHint"))}</p>
  <a href="${here}">${escapeHtml(t("common.reload"))}</a>
</main>
</body>
</html>`;
  return new Response(html, {
    status: 503,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Retry-After": String(RETRY_AFTER_SECONDS),
    },
  });
}
