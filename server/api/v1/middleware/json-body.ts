import express, { type NextFunction, type Request, type Response } from "express";
import { fail } from "../errors";

export const API_BODY_LIMIT = "32kb";

/** Writes send JSON only (415 otherwise), at most 32 KB, parsed strictly (objects and arrays). */
export const jsonBody = [
  function jsonOnly(req: Request, res: Response, next: NextFunction) {
    if (req.method !== "POST") return next();
    if (!req.is("application/json")) {
      fail(res, "unsupported_media_type", "Send the body as application/json");
      return;
    }
    next();
  },
  express.json({ limit: API_BODY_LIMIT, strict: true }),
];
