import { toNodeHandler } from "better-auth/node";
import type { Express, NextFunction, Request, Response } from "express";
import type { Auth } from "../app/domain/auth/auth.server";

/** Where better-auth's HTTP router is mounted (its `basePath`). */
export const AUTH_BASE_PATH = "/api/auth";

/**
 * The better-auth endpoints our pages call over HTTP (ADR 019). Every other login, password,
 * session and account operation runs through our own actions, which call `auth.api.*` on the
 * server with our rules (password strength, fresh login, limits); the library's public endpoints for
 * the same things would bypass them (e.g. /change-password accepts "password" and keeps other
 * sessions; /list-sessions hands every session token to page scripts). So only these are served;
 * anything else under /api/auth answers 404.
 *
 * Callers: app/components/account/passkey-webauthn.ts (adding a passkey on the security page,
 * logging in with one on the login page).
 */
export const AUTH_HTTP_ALLOWLIST: readonly { method: "GET" | "POST"; path: string }[] = [
  { method: "GET", path: "/passkey/generate-register-options" },
  { method: "POST", path: "/passkey/verify-registration" },
  { method: "GET", path: "/passkey/generate-authenticate-options" },
  { method: "POST", path: "/passkey/verify-authentication" },
];

const allowed = new Set(AUTH_HTTP_ALLOWLIST.map(({ method, path }) => `${method} ${AUTH_BASE_PATH}${path}`));

/** Whether a request (method and path, no query) may reach better-auth's HTTP router. */
export function isAllowedAuthRequest(method: string, path: string): boolean {
  // HEAD is answered like GET by HTTP routers; the library never needs it from us.
  return allowed.has(`${method.toUpperCase()} ${path}`);
}

/**
 * Mounts better-auth behind the allowlist. The comparison is on the exact path Express saw (no
 * trailing slash, case or encoding variants), so nothing reaches the library by another spelling.
 */
export function mountAuthEndpoints(app: Express, auth: Auth): void {
  const handler = toNodeHandler(auth);
  app.all(`${AUTH_BASE_PATH}/{*splat}`, (req: Request, res: Response, _next: NextFunction) => {
    if (!isAllowedAuthRequest(req.method, req.path)) {
      res.setHeader("Cache-Control", "no-store");
      res.status(404).json({ error: { code: "not_found", message: "Not found" } });
      return;
    }
    return handler(req, res);
  });
}
