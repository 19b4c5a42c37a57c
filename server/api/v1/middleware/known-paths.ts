import type { NextFunction, Request, Response } from "express";
import { fail } from "../errors";

const KNOWN_PATHS = [
  /^\/members\/lookup$/,
  /^\/members\/[^/]+\/balance$/,
  /^\/purchases$/,
  /^\/purchases\/[^/]+\/refunds$/,
  /^\/coupons\/[^/]+\/redeem$/,
];

/** Unknown paths are 404 before anything else (the paths are public in the OpenAPI document anyway). */
export function onlyKnownPaths(req: Request, res: Response, next: NextFunction) {
  if (KNOWN_PATHS.some((pattern) => pattern.test(req.path))) return next();
  fail(res, "not_found", "Unknown API endpoint");
}
