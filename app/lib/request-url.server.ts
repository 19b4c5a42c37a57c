import { BRAND_NAME } from "@platform/constants";
import { data, type MiddlewareFunction } from "react-router";
import { HTML_LANG } from "./i18n";
import { catalogT, getLocale } from "./i18n.server";

/**
 * Bad URLs (issue 33 item 5): the one place that decides whether a request's path and query can be read at all,
 * before any middleware, loader or action does any work with them. A value holding a NUL byte (PostgreSQL refuses
 * it in text), a percent-encoding that is not UTF-8 (`%FF`, `%C3%28`, a lone surrogate) or a value longer than
 * MAX_URL_VALUE_LENGTH is refused with 400, whichever route the URL names: each path segment and each query name
 * and value is checked as sent, so a route added later cannot escape it.
 */

/** The longest path segment, query name or query value read (characters, after decoding). */
export const MAX_URL_VALUE_LENGTH = 2048;

export type UrlProblem = {
  part: "path" | "query";
  /** The query parameter's name (as far as it could be read), or the path segment's position. */
  name: string;
  reason: "nul" | "encoding" | "length";
};

function problemOf(raw: string, plusIsSpace: boolean): UrlProblem["reason"] | null {
  let text: string;
  try {
    text = decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, " ") : raw);
  } catch {
    return "encoding";
  }
  if (text.includes("\u0000")) return "nul";
  if (text.length > MAX_URL_VALUE_LENGTH) return "length";
  return null;
}

/** The first thing wrong with a URL's path segments or query names and values, or null. */
export function urlProblem(url: string | URL): UrlProblem | null {
  const { pathname, search } = typeof url === "string" ? new URL(url) : url;
  const segments = pathname.split("/");
  for (const [index, segment] of segments.entries()) {
    const reason = problemOf(segment, false);
    if (reason) return { part: "path", name: String(index), reason };
  }
  for (const pair of search.slice(1).split("&")) {
    if (!pair) continue;
    const split = pair.indexOf("=");
    const rawName = split < 0 ? pair : pair.slice(0, split);
    const nameReason = problemOf(rawName, true);
    if (nameReason) return { part: "query", name: rawName.slice(0, 40), reason: nameReason };
    const reason = split < 0 ? null : problemOf(pair.slice(split + 1), true);
    if (reason) return { part: "query", name: decodeURIComponent(rawName.replace(/\+/g, " ")).slice(0, 40), reason };
  }
  return null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The 400 page of a bad URL: localized, self-contained (nothing it shows came from the URL, nothing needs the
 * database), in the console's look under /admin (its 400 view and its way back to the console) and the site's
 * elsewhere.
 */
export function badUrlPage(request: Request): Response {
  const locale = getLocale(request);
  const t = catalogT(locale);
  const console = new URL(request.url).pathname.startsWith("/admin");
  const brand = console ? t("console.brand") : BRAND_NAME;
  const back = console ? { href: "/admin", text: t("console.backHome") } : { href: "/", text: t("common.backHome") };
  const html = `<!doctype html>
<html lang="${HTML_LANG[locale]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(t("error.badRequestTitle"))}｜${escapeHtml(brand)}</title>
<style>
  body { margin: 0; font-family: "Noto Sans TC", "PingFang TC", "Microsoft JhengHei", system-ui, sans-serif;
    background: #faf8f4; color: #1f1c18; }
  header { border-bottom: 1px solid #d9d1c5; background: #fff; padding: .9rem 1.5rem; font-family: "Noto Serif TC",
    Georgia, serif; color: #7d5236; letter-spacing: .08em; }
  section { max-width: 36rem; margin: 0 auto; padding: 4rem 1.5rem; text-align: center; }
  .code { font-family: "Noto Serif TC", Georgia, serif; font-size: 3rem; color: #7d5236; margin: 0; }
  h1 { font-size: 1.5rem; font-weight: 600; margin: 1rem 0 .75rem; }
  p { line-height: 1.7; margin: .5rem 0; color: #5e574e; }
  a { display: inline-block; margin-top: 2rem; padding: .7rem 1.5rem; border-radius: .75rem; min-height: 1.5rem;
    background: #7d5236; color: #fff; text-decoration: none; }
</style>
</head>
<body>
<header>${escapeHtml(brand)}</header>
<main id="main">
<section aria-labelledby="bad-request-title" data-testid="bad-request">
  <p class="code" aria-hidden="true">400</p>
  <h1 id="bad-request-title">${escapeHtml(t("error.badRequestTitle"))}</h1>
  <p>${escapeHtml(t("error.badUrl"))}</p>
  <a href="${back.href}">${escapeHtml(back.text)}</a>
</section>
</main>
</body>
</html>`;
  return new Response(html, {
    status: 400,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex, nofollow",
    },
  });
}

/**
 * First of the root middleware: a bad URL gets no further. A page (a document request) gets the 400 page; a
 * client-side navigation (`.data`) a 400 route error, which React Router encodes for the client's error view; a
 * script's request (Sec-Fetch-Dest `empty`, e.g. the image upload) a JSON error like the console's other scripts
 * get.
 */
export const badUrlMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  const url = new URL(request.url);
  const problem = urlProblem(url);
  if (!problem) return next();
  if (url.pathname.endsWith(".data")) throw data({ badUrl: problem }, { status: 400 });
  if (request.headers.get("sec-fetch-dest") === "empty") {
    const t = catalogT(getLocale(request));
    return Response.json(
      { error: { code: "bad_url", field: problem.name, message: t("error.badUrl") } },
      { status: 400, headers: { "Cache-Control": "no-store" } },
    );
  }
  return badUrlPage(request);
};
