import type { NextFunction, Request, Response } from "express";
import { fail } from "../errors";

/** Where the app mounts the API (server/app.ts). */
export const API_V1_PATH = "/api/v1";

/** The API's endpoints (mounted at API_V1_PATH): the router's paths, the known paths below, the metrics' route labels. */
export const API_V1_ROUTES = {
  lookup: "/members/lookup",
  balance: "/members/:memberNumber/balance",
  einvoice: "/members/einvoice",
  pointsQuote: "/members/:memberNumber/points-quote",
  spendCode: "/members/:memberNumber/spend-code",
  purchases: "/purchases",
  refunds: "/purchases/:id/refunds",
  redeem: "/coupons/:code/redeem",
} as const;

const KNOWN_PATHS = Object.values(API_V1_ROUTES).map(
  (route) => [route, new RegExp(`^${route.replace(/:\w+/g, "[^/]+")}$`)] as const,
);

/** The endpoint a path (below /api/v1) is for, as its route pattern (`/members/:memberNumber/balance`), or null. */
export function apiV1Route(path: string): string | null {
  return KNOWN_PATHS.find(([, pattern]) => pattern.test(path))?.[0] ?? null;
}

/** Unknown paths are 404 before anything else (the paths are public in the OpenAPI document anyway). */
export function onlyKnownPaths(req: Request, res: Response, next: NextFunction) {
  if (apiV1Route(req.path) !== null) return next();
  fail(res, "not_found", "Unknown API endpoint");
}
