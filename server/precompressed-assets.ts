import { readdirSync } from "node:fs";
import path from "node:path";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { type ContentCoding, preferredCoding } from "./content-coding";

/** The file name suffix of each coding's copy, as the build writes them (platform/bundling/precompress-assets.ts). */
export const CODING_SUFFIX: Record<ContentCoding, string> = { br: ".br", gzip: ".gz" };
const ENCODED_COPY = /\.(?:br|gz)$/;

/**
 * Serves the build's hashed assets from the copies the build compressed once (brotli 11, gzip 9), instead of
 * compressing them again on every request (issue 17; ADR 031).
 *
 * A request for `/x.js` from a client that takes brotli is answered with `x.js.br` as `Content-Encoding: br`,
 * the type of `x.js`, and the copy's length and ETag; one that takes only gzip, with `x.js.gz`; any other, with
 * `x.js` itself. `serve` (express.static over the same folder) does the sending, with its caching headers,
 * ranges and 304s. The copies are listed once, at start: the folder is the build's and does not change while
 * the process runs. A copy's own name (`x.js.br`) is not served.
 */
export function precompressedAssets(dir: string, serve: RequestHandler): RequestHandler {
  const copies = listCopies(dir);
  return (req: Request, res: Response, next: NextFunction) => {
    const requested = req.path;
    if (ENCODED_COPY.test(requested)) return next();
    const available = copies.get(requested);
    if (!available || (req.method !== "GET" && req.method !== "HEAD")) return serve(req, res, next);
    res.vary("Accept-Encoding");
    const coding = preferredCoding(req.headers["accept-encoding"], available);
    if (!coding) return serve(req, res, next);
    const url = req.url;
    const query = url.indexOf("?");
    req.url =
      query === -1 ? url + CODING_SUFFIX[coding] : url.slice(0, query) + CODING_SUFFIX[coding] + url.slice(query);
    res.type(path.extname(requested));
    res.setHeader("Content-Encoding", coding);
    serve(req, res, (err?: unknown) => {
      // The copy was not there after all: the original, unencoded.
      req.url = url;
      res.removeHeader("Content-Encoding");
      res.removeHeader("Content-Type");
      if (err) next(err);
      else serve(req, res, next);
    });
  };
}

/** `/name` → the codings whose copy `name.br` / `name.gz` sits beside `name` in `dir`, best first. */
function listCopies(dir: string): Map<string, ContentCoding[]> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return new Map();
  }
  const present = new Set(names);
  const copies = new Map<string, ContentCoding[]>();
  for (const name of names) {
    if (ENCODED_COPY.test(name)) continue;
    const codings = (Object.keys(CODING_SUFFIX) as ContentCoding[]).filter((coding) =>
      present.has(name + CODING_SUFFIX[coding]),
    );
    if (codings.length > 0) copies.set(`/${name}`, codings);
  }
  return copies;
}
