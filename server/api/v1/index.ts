import type { Database } from "@platform/db/client";
import type { Logger } from "@platform/logger";
import express from "express";
import { LoyaltyError } from "../../../app/domain/loyalty/errors";
import { DEFAULT_PURCHASE_WINDOW_DAYS } from "../../../app/domain/loyalty/purchases.server";
import type { ApiContext } from "./context";
import { redeemCoupon } from "./coupons";
import { apiErrorHandler, fail, plainJsonAnswers } from "./errors";
import { lookupMember, memberBalance, memberEinvoice, memberPointsQuote, sendSpendCode } from "./members";
import { API_REQUESTS_PER_MINUTE, authenticateKey } from "./middleware/authenticate";
import { idempotentWrites } from "./middleware/idempotency";
import { jsonBody } from "./middleware/json-body";
import { API_V1_ROUTES, onlyKnownPaths } from "./middleware/known-paths";
import { openApiDocument } from "./openapi";
import { bookPurchase, bookRefund } from "./purchases";
import { renderApiReference } from "./reference-page";
import { CONTROL_CHARACTER } from "./schemas";

export { API_REQUESTS_PER_MINUTE } from "./middleware/authenticate";
/**
 * The point-of-sale REST API (PRODUCT.md §6, docs/api.md). JSON only; Bearer API keys per store;
 * `Idempotency-Key` on every write; errors as `{ error: { code, message } }` with stable codes.
 *
 * Order: unknown paths (404) → the key and its rate limit (401, 429) → the body (415, 413, 400) →
 * idempotency → the endpoint. The key comes before the body: a caller without one learns nothing
 * about what it sent and costs no parsing. The handlers are thin: parse, call one domain function, answer.
 */
export { API_BODY_LIMIT } from "./middleware/json-body";
export { openApiDocument } from "./openapi";
export { EinvoiceQuery, LookupQuery, PurchaseBody, RedeemCouponBody, RefundBody } from "./schemas";

export function createApiV1Router(options: {
  db: Database;
  cardSecret: string;
  logger: Logger;
  /** PURCHASE_WINDOW_DAYS (default 90). */
  purchaseWindowDays?: number;
  /** Tests only: a smaller per-key limit. */
  requestsPerMinute?: number;
  /** Tests only: a fixed clock (the rate-limit window, card tokens, purchase times). */
  clock?: () => Date;
}): express.Router {
  const { db, logger } = options;
  const clock = options.clock ?? (() => new Date());
  const ctx: ApiContext = {
    db,
    cardSecret: options.cardSecret,
    purchaseWindowDays: options.purchaseWindowDays ?? DEFAULT_PURCHASE_WINDOW_DAYS,
    clock,
  };
  const router = express.Router();

  router.get("/openapi.json", (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=300");
    res.json(openApiDocument());
  });

  // The human-readable reference, rendered from the same document (self-contained HTML, no scripts).
  let referencePage: string | null = null;
  router.get("/docs", (_req, res) => {
    referencePage ??= renderApiReference(openApiDocument());
    res.setHeader("Cache-Control", "public, max-age=300");
    res.type("html").send(referencePage);
  });

  router.use(onlyKnownPaths);
  router.use(authenticateKey({ db, requestsPerMinute: options.requestsPerMinute ?? API_REQUESTS_PER_MINUTE, clock }));
  router.use(jsonBody);
  router.use(plainJsonAnswers);
  router.use(idempotentWrites(db));

  // A path parameter with a control character names nothing (and PostgreSQL refuses NUL in text): the
  // endpoint's own "unknown" answer, never a database error.
  const unknownIfControl =
    (code: "member_not_found" | "purchase_not_found" | "coupon_not_found", message: string) =>
    (_req: express.Request, _res: express.Response, next: express.NextFunction, value: string) =>
      next(CONTROL_CHARACTER.test(value) ? new LoyaltyError(code, message) : undefined);
  router.param("memberNumber", unknownIfControl("member_not_found", "Unknown member"));
  router.param("id", unknownIfControl("purchase_not_found", "Unknown purchase"));
  router.param("code", unknownIfControl("coupon_not_found", "Unknown coupon"));

  router.get(API_V1_ROUTES.lookup, lookupMember(ctx));
  router.get(API_V1_ROUTES.balance, memberBalance(ctx));
  router.get(API_V1_ROUTES.einvoice, memberEinvoice(ctx));
  router.get(API_V1_ROUTES.pointsQuote, memberPointsQuote(ctx));
  router.post(API_V1_ROUTES.spendCode, sendSpendCode(ctx));
  router.post(API_V1_ROUTES.purchases, bookPurchase(ctx));
  router.post(API_V1_ROUTES.refunds, bookRefund(ctx));
  router.post(API_V1_ROUTES.redeem, redeemCoupon(ctx));

  router.use((_req, res) => fail(res, "not_found", "Unknown API endpoint"));
  router.use(apiErrorHandler(logger));
  return router;
}
