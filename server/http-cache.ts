import { createHash } from "node:crypto";
import type { NextFunction, Request, Response } from "express";

/**
 * HTTP caching of the pages React Router renders.
 *
 * 1. Never cache member data: a request that carries a session cookie (better-auth's, plain or
 *    `__Secure-` prefixed) or a one-read toast cookie, and any response that sets a cookie, is sent
 *    `Cache-Control: private, no-store`, whatever the route asked for.
 * 2. Validators for public pages: a 200 GET whose route chose a `public` Cache-Control is buffered,
 *    given a strong ETag of its body and answered `304 Not Modified` when the browser or CDN already
 *    has it (If-None-Match). The body contains the request's CSP nonce, which differs on every
 *    response: the hash is taken with the nonce blanked, and a 304 carries no Content-Security-Policy
 *    header, so the client keeps the policy (and nonce) stored with its copy of the body.
 */
import { SESSION_COOKIE_NAMES } from "../app/lib/session-cookie";

const PRIVATE_COOKIES: readonly string[] = [...SESSION_COOKIE_NAMES, "toast"];

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

export function etagOf(body: Buffer, nonce: string | undefined): string {
  const hash = createHash("sha256");
  if (nonce) {
    const text = body.toString("utf8");
    hash.update(text.split(nonce).join(""));
  } else {
    hash.update(body);
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

export function httpCache() {
  return (req: Request, res: Response, next: NextFunction) => {
    const privateRequest = hasPrivateCookie(req.get("cookie"));
    // HEAD answers carry no body to hash; they get the same Cache-Control without an ETag.
    const cacheable = req.method === "GET";

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

    const toBuffer = (chunk: unknown, encoding?: unknown): Buffer | null => {
      if (chunk === undefined || chunk === null || typeof chunk === "function") return null;
      if (Buffer.isBuffer(chunk)) return chunk;
      if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
    };

    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      decide();
      if (mode === "pass") return write(chunk, ...rest);
      const buffer = toBuffer(chunk, rest[0]);
      if (buffer) chunks.push(buffer);
      const callback = rest.find((r) => typeof r === "function") as (() => void) | undefined;
      callback?.();
      return true;
    }) as Response["write"];

    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      decide();
      if (mode === "pass") return end(chunk, ...rest);
      const buffer = toBuffer(chunk, rest[0]);
      if (buffer) chunks.push(buffer);
      const body = Buffer.concat(chunks);
      const etag = etagOf(body, res.locals.nonce as string | undefined);
      res.setHeader("ETag", etag);
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
}
