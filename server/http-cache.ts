import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { SESSION_COOKIE_NAMES } from "../app/lib/session-cookie";
import { countAsPage } from "./metrics";
import { callbackIn, chunkToBuffer } from "./response-chunks";

/**
 * HTTP caching of the pages React Router renders (docs/decisions/010-catalogue-and-caching.md).
 *
 * 1. Never cache member data: a request that carries a session cookie (better-auth's, plain or
 *    `__Secure-` prefixed) or a one-read toast cookie, and any response that sets a cookie, is sent
 *    `Cache-Control: private, no-store`, whatever the route asked for.
 * 2. Validators for public pages: a 200 GET whose route chose a `public` Cache-Control is buffered,
 *    given a strong ETag of its body and answered `304 Not Modified` when the browser or CDN already
 *    has it (If-None-Match). The body contains the request's CSP nonce, which differs on every
 *    response: the hash is taken with the nonce blanked, and a 304 carries no Content-Security-Policy
 *    header, so the client keeps the policy (and nonce) stored with its copy of the body.
 * 3. A render cache in front of public pages (what a CDN does with `s-maxage`, kept briefly in the
 *    instance): the same URL in the same locale is rendered at most once per `renderCacheMs`; other
 *    anonymous requests get the stored body with their own fresh nonce put in. A client's
 *    `Cache-Control: no-cache` does **not** bypass it (anyone could otherwise force a render per request,
 *    issue 17); `RENDER_CACHE_MS=0` turns it off. Under APP_ENV=test only, a request pinning the clock
 *    (X-Test-Now) is rendered, since its page depends on that time.
 */
const PRIVATE_COOKIES: readonly string[] = [...SESSION_COOKIE_NAMES, "toast"];
/** Headers that belong to one response, never to a stored page. */
const PER_RESPONSE_HEADERS = new Set([
  "content-security-policy",
  "x-request-id",
  "set-cookie",
  "content-length",
  "content-encoding",
  "date",
  "connection",
  "keep-alive",
  "transfer-encoding",
]);

export function cookieNames(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(";")
    .map((part) => part.split("=")[0]?.trim() ?? "")
    .filter(Boolean);
}

/** True when the request carries a session (or another per-visitor cookie whose page must not be shared). */
export function hasPrivateCookie(cookieHeader: string | undefined): boolean {
  return cookieNames(cookieHeader).some((name) => PRIVATE_COOKIES.includes(name));
}

function localeCookie(cookieHeader: string | undefined): string {
  const match = /(?:^|;\s*)locale=([^;]*)/.exec(cookieHeader ?? "");
  return match?.[1] ?? "";
}

export function etagOf(body: Buffer, nonce: string | undefined): string {
  const hash = createHash("sha256");
  if (!nonce) hash.update(body);
  else {
    // The bytes between the nonce's occurrences, hashed in place: no string copy of the page.
    const needle = Buffer.from(nonce, "utf8");
    let start = 0;
    for (let at = body.indexOf(needle, start); at !== -1; at = body.indexOf(needle, start)) {
      hash.update(body.subarray(start, at));
      start = at + needle.length;
    }
    hash.update(body.subarray(start));
  }
  return `"${hash.digest("base64url").slice(0, 27)}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .includes(etag);
}

type StoredPage = {
  expires: number;
  etag: string;
  headers: [string, string | string[]][];
  /** The body split at its nonce, joined again with each response's own nonce. */
  parts: string[] | null;
  raw: Buffer | null;
};

export type HttpCacheOptions = {
  /** How long a rendered public page is reused within this instance; 0 turns the render cache off. */
  renderCacheMs?: number;
  /** APP_ENV=test: a request pinning the clock (X-Test-Now) is rendered for that time, never from the cache. */
  testClock?: boolean;
  /** Most pages kept (least recently stored go first). */
  maxEntries?: number;
  /**
   * The catalogue's version (ADR 027), as last read from the database (every couple of seconds): when
   * it moves on (a publish on any instance), every stored page is dropped, so a published change is
   * rendered anew within the poll interval here and on every other instance.
   */
  contentVersion?: () => number;
};

export function httpCache({
  renderCacheMs = 5_000,
  maxEntries = 500,
  testClock = false,
  contentVersion,
}: HttpCacheOptions = {}) {
  const store = new Map<string, StoredPage>();
  let storedVersion = contentVersion?.() ?? 0;

  const remember = (key: string, page: StoredPage) => {
    store.delete(key);
    store.set(key, page);
    while (store.size > maxEntries) {
      const oldest = store.keys().next().value;
      if (oldest === undefined) break;
      store.delete(oldest);
    }
  };

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    const cookieHeader = req.get("cookie");
    const privateRequest = hasPrivateCookie(cookieHeader);
    // HEAD answers carry no body to hash; they get the same Cache-Control without an ETag.
    const cacheable = req.method === "GET";
    const nonce = res.locals.nonce as string | undefined;
    const renderCacheable = cacheable && renderCacheMs > 0 && !privateRequest && !(testClock && req.get("x-test-now"));
    const key = `${localeCookie(cookieHeader)}|${req.originalUrl}`;
    const version = contentVersion?.() ?? 0;
    if (version !== storedVersion) {
      store.clear();
      storedVersion = version;
    }

    if (renderCacheable) {
      const hit = store.get(key);
      if (hit && hit.expires > Date.now()) {
        countAsPage(res);
        for (const [name, value] of hit.headers) res.setHeader(name, value);
        res.setHeader("X-Render-Cache", "hit");
        if (matches(req.get("if-none-match"), hit.etag)) {
          res.removeHeader("Content-Security-Policy");
          res.removeHeader("Content-Type");
          res.status(304).end();
          return;
        }
        const body = hit.parts ? hit.parts.join(nonce ?? "") : (hit.raw as Buffer);
        res.status(200).end(body);
        return;
      }
      if (hit) store.delete(key);
    }

    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let mode: "undecided" | "pass" | "buffer" = "undecided";
    const chunks: Buffer[] = [];

    /** Decided once, when the handler first writes: the headers are final by then. */
    const decide = () => {
      if (mode !== "undecided") return;
      const cacheControl = String(res.getHeader("Cache-Control") ?? "");
      const setsCookie = res.getHeader("Set-Cookie") !== undefined;
      if (privateRequest || setsCookie) {
        if (cacheControl.includes("public") || privateRequest) res.setHeader("Cache-Control", "private, no-store");
        mode = "pass";
        return;
      }
      mode = cacheable && res.statusCode === 200 && /\bpublic\b/.test(cacheControl) ? "buffer" : "pass";
    };

    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      decide();
      if (mode === "pass") return write(chunk, ...rest);
      const buffer = chunkToBuffer(chunk, rest[0]);
      if (buffer) chunks.push(buffer);
      callbackIn(rest)?.();
      return true;
    }) as Response["write"];

    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      decide();
      if (mode === "pass") return end(chunk, ...rest);
      const buffer = chunkToBuffer(chunk, rest[0]);
      if (buffer) chunks.push(buffer);
      const body = Buffer.concat(chunks);
      const etag = etagOf(body, nonce);
      res.setHeader("ETag", etag);
      // A page rendered before a publish that landed meanwhile is not kept.
      if (renderCacheable && version === storedVersion) {
        const text = nonce ? body.toString("utf8") : null;
        remember(key, {
          expires: Date.now() + renderCacheMs,
          etag,
          headers: Object.entries(res.getHeaders())
            .filter(([name]) => !PER_RESPONSE_HEADERS.has(name))
            .map(([name, value]) => [name, Array.isArray(value) ? value : String(value)]),
          parts: text !== null && nonce ? text.split(nonce) : null,
          raw: text === null ? body : null,
        });
      }
      if (matches(req.get("if-none-match"), etag)) {
        res.statusCode = 304;
        res.removeHeader("Content-Security-Policy");
        res.removeHeader("Content-Type");
        res.removeHeader("Content-Length");
        return end();
      }
      res.setHeader("Content-Length", body.length);
      return end(body);
    }) as Response["end"];

    next();
  };
  /**
   * Forgets every stored page of this instance: called after a catalogue change is published in the
   * console (ADR 033), so this instance renders the next request afresh; other instances drop theirs
   * within `renderCacheMs` as for any other change.
   */
  const clear = () => store.clear();
  return Object.assign(middleware, { clear });
}
