import { isDatabaseUnavailableError } from "@platform/db/availability";
import type { Logger } from "@platform/logger";
import type { NextFunction, Request, Response } from "express";
import type { z } from "zod";
import { LOYALTY_ERRORS, LoyaltyError, type LoyaltyErrorCode } from "../../../app/domain/loyalty/errors";
import { en } from "../../../app/locales/en";
import { zhTW } from "../../../app/locales/zh-TW";
import { sendApiUnavailable } from "../../readiness";

/**
 * The POS API's errors: `{ error: { code, message } }` with a stable code. Two tables, one per area:
 * the API's own codes (transport: body, key, idempotency, limits) below, and the loyalty rules' codes
 * from app/domain/loyalty/errors.ts, whose statuses and texts are the ones the member center and the
 * console use too. API_ERROR_CODES joins them into the one list the OpenAPI document carries
 * (`x-error-codes`) and the reference page renders; a test checks every code the API sends is in it.
 */
export type ErrorCodeDoc = { status: number; code: string; zh: string; en: string };

const API_ERRORS = {
  invalid_body: {
    status: 400,
    zh: "請求內容欄位有誤（訊息指出欄位）",
    en: "A body field is missing or wrong (the message names it)",
  },
  invalid_query: { status: 400, zh: "查詢會員時請只給一個條件", en: "Give exactly one lookup parameter" },
  malformed_json: { status: 400, zh: "內容不是有效的 JSON", en: "The body is not valid JSON" },
  idempotency_key_required: {
    status: 400,
    zh: "寫入請求需要 Idempotency-Key 標頭",
    en: "Writes need an Idempotency-Key header",
  },
  bad_request: { status: 400, zh: "無法讀取請求內容", en: "The request body could not be read" },
  unauthorized: { status: 401, zh: "API 金鑰缺少、錯誤或已撤銷", en: "The API key is missing, unknown or revoked" },
  // E-invoice carrier at the till (ADR 041).
  scope_missing: {
    status: 403,
    zh: "此 API 金鑰未獲授權此功能（例如 einvoice:read），請管理員於主控台授權",
    en: "The API key lacks the scope this endpoint needs (e.g. einvoice:read); an admin grants it in the console",
  },
  not_found: { status: 404, zh: "沒有這個 API 路徑", en: "Unknown API endpoint" },
  idempotency_key_reused: {
    status: 409,
    zh: "此 Idempotency-Key 已用於不同的請求",
    en: "This Idempotency-Key was used with a different request",
  },
  request_in_progress: {
    status: 409,
    zh: "相同 Idempotency-Key 的請求仍在處理中，請稍後重試",
    en: "A request with this key is still running; retry shortly",
  },
  payload_too_large: { status: 413, zh: "請求內容超過 32 KB", en: "The body is larger than 32 KB" },
  unsupported_media_type: { status: 415, zh: "請以 application/json 傳送", en: "Send the body as application/json" },
  rate_limited: {
    status: 429,
    zh: "請求過於頻繁（每把金鑰每分鐘 600 次），請依 Retry-After 等待",
    en: "Too many requests (600 a minute per key); wait for Retry-After",
  },
  internal_error: {
    status: 500,
    zh: "系統錯誤；可用相同 Idempotency-Key 安全重試",
    en: "Server error; safe to retry with the same Idempotency-Key",
  },
  service_unavailable: {
    status: 503,
    zh: "系統暫時無法使用（資料庫連線中斷）；請依 Retry-After 稍後以相同 Idempotency-Key 重試",
    en: "Temporarily unavailable (the database is unreachable); retry after Retry-After with the same Idempotency-Key",
  },
} as const satisfies Record<string, Omit<ErrorCodeDoc, "code">>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** The loyalty codes a POS request can meet (the member-only ones, such as insufficient_points, cannot). */
const LOYALTY_CODES_AT_THE_TILL = [
  "invalid_amount",
  "invalid_input",
  "member_not_found",
  "purchase_not_found",
  "coupon_not_found",
  "receipt_conflict",
  "idempotency_conflict",
  "coupon_used",
  "coupon_cancelled",
  "coupon_revoked",
  "member_disabled",
  "purchase_too_old",
  "refund_exceeds_purchase",
  "coupon_expired",
  "coupon_wrong_store",
  "card_token_expired",
  "card_token_forged",
  "card_token_malformed",
  // The offline member card (ADR 043).
  "card_token_future",
  "card_token_replayed",
  "card_device_revoked",
  "card_device_unknown",
  "staff_code_unknown",
  "invalid_points",
  "points_exceed_balance",
  "points_exceed_share",
  // A spend the member confirms with a code (ADR 052).
  "spend_code_required",
  "spend_code_wrong",
  "spend_code_expired",
  "spend_code_mismatch",
  "spend_code_used",
  "spend_code_locked",
  "spend_code_send_limit",
] as const satisfies readonly LoyaltyErrorCode[];

/** Every `error.code` the POS API answers, with its status and a short explanation in both languages, by status. */
export const API_ERROR_CODES: ErrorCodeDoc[] = [
  ...Object.entries(API_ERRORS).map(([code, e]) => ({ code, status: e.status, zh: e.zh, en: e.en })),
  ...LOYALTY_CODES_AT_THE_TILL.map((code) => ({
    code,
    status: LOYALTY_ERRORS[code].status,
    zh: zhTW[`loyalty.error.${code}`],
    en: en[`loyalty.error.${code}`],
  })),
]
  .map((doc, index) => ({ doc, index }))
  .sort((a, b) => a.doc.status - b.doc.status || a.index - b.index)
  .map(({ doc }) => doc);

/** A refusal of the API itself (not of a loyalty rule). */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
    this.status = API_ERRORS[code].status;
  }
}

/**
 * `res.json` for the API's writes (POST): the same body and Content-Type, written with its length. Express's own
 * `res.send` also hashes every body into an ETag, which a write's answer has no use for (it is never cached nor
 * revalidated: `no-store`); ADR 060. Reads keep Express's `res.json` (and their ETags).
 */
export function plainJsonAnswers(req: Request, res: Response, next: NextFunction): void {
  if (req.method === "POST") {
    res.json = (body: unknown) => {
      const text = body instanceof JsonText ? body.text : JSON.stringify(body);
      res.setHeader("Content-Type", "application/json; charset=utf-8");
      res.setHeader("Content-Length", Buffer.byteLength(text));
      res.end(text);
      return res;
    };
  }
  next();
}

/**
 * An answer already serialised (a purchase's, kept in its row as this very text, ADR 039): a write's `res.json`
 * sends the text as it is instead of serialising the answer a second time. Anything else that serialises it
 * (Express's own `res.json`, a stored copy) gets the same value through `toJSON`.
 */
export class JsonText {
  constructor(readonly text: string) {}
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

export function send(res: Response, status: number, body: unknown): void {
  res.status(status).setHeader("Cache-Control", "no-store").json(body);
}

export function fail(res: Response, code: ApiErrorCode | LoyaltyErrorCode, message: string): void {
  const status =
    code in API_ERRORS ? API_ERRORS[code as ApiErrorCode].status : LOYALTY_ERRORS[code as LoyaltyErrorCode].status;
  send(res, status, { error: { code, message } });
}

/** A body parsed with its schema, or 400: `invalid_amount` for an amount field, `invalid_body` otherwise. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join(".") || "body";
    const isAmount = issue?.path[0] === "netAmount" || issue?.path[0] === "amount";
    const message = `${path}: ${issue?.message ?? "invalid"}`;
    if (isAmount) throw new LoyaltyError("invalid_amount", message);
    if (issue?.path[0] === "pointsToSpend") throw new LoyaltyError("invalid_points", message);
    throw new ApiError("invalid_body", message);
  }
  return parsed.data;
}

/** The router's last word: every error becomes its code; anything unexpected is a logged 500. */
export function apiErrorHandler(logger: Logger) {
  return function answerError(error: unknown, _req: Request, res: Response, _next: NextFunction) {
    if (error instanceof ApiError || error instanceof LoyaltyError) return fail(res, error.code, error.message);
    if (isDatabaseUnavailableError(error)) return sendApiUnavailable(res);
    const type = (error as { type?: string }).type;
    if (type === "entity.parse.failed") return fail(res, "malformed_json", "The body is not valid JSON");
    if (type === "entity.too.large") return fail(res, "payload_too_large", "Request body is too large");
    if (type) return fail(res, "bad_request", "The request body could not be read");
    logger.error({ err: error, reqId: res.locals.requestId }, "api error");
    fail(res, "internal_error", "Something went wrong; retry with the same Idempotency-Key");
  };
}
