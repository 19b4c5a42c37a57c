/**
 * Cache policy of the public pages (see docs/decisions/010-catalogue-and-caching.md).
 *
 * Public catalogue pages are the same for every anonymous visitor of a locale, so a CDN may keep
 * them briefly (`s-maxage`) and browsers revalidate with the ETag the server adds. Pages with an
 * "open now" status change with the clock: they get the short lifetime. The server turns any of
 * these into `private, no-store` when the request carries a session (server/http-cache.ts).
 */
export const CACHE_PUBLIC_SHORT = "public, max-age=0, s-maxage=60, stale-while-revalidate=300";
export const CACHE_PUBLIC_LONG = "public, max-age=0, s-maxage=600, stale-while-revalidate=3600";
export const CACHE_PRIVATE = "private, no-store";

type HeadersArgs = { loaderHeaders: Headers; errorHeaders?: Headers };

/**
 * A route `headers` export for a public page: its loader decides the policy (so a 404 thrown by the
 * loader is never cached as a page), the route passes it on for documents and data requests.
 */
export function passCacheControl({ loaderHeaders, errorHeaders }: HeadersArgs): Headers {
  const headers = new Headers();
  if (errorHeaders) {
    headers.set("Cache-Control", CACHE_PRIVATE);
    return headers;
  }
  const cacheControl = loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  const vary = loaderHeaders.get("Vary");
  if (vary) headers.set("Vary", vary);
  return headers;
}

/** Headers for a public page's loader response: the policy, and Vary on the locale cookie. */
export function publicCache(policy: string = CACHE_PUBLIC_SHORT): HeadersInit {
  return { "Cache-Control": policy, Vary: "Cookie" };
}
