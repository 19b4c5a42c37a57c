/**
 * Every `error.code` the POS API answers, with its status and a short explanation in both languages.
 * One list: the OpenAPI document carries it (`x-error-codes`) and the reference page renders it, and a
 * test checks that every code the API can send is here.
 */
export type ErrorCodeDoc = { status: number; code: string; zh: string; en: string };

export const API_ERROR_CODES: ErrorCodeDoc[] = [
  {
    status: 400,
    code: "invalid_amount",
    zh: "金額必須是 1 以上的整數（新台幣元）",
    en: "The amount must be a whole number of NT$, at least 1",
  },
  {
    status: 400,
    code: "invalid_body",
    zh: "請求內容欄位有誤（訊息指出欄位）",
    en: "A body field is missing or wrong (the message names it)",
  },
  { status: 400, code: "invalid_query", zh: "查詢會員時請只給一個條件", en: "Give exactly one lookup parameter" },
  {
    status: 400,
    code: "invalid_input",
    zh: "輸入不正確（例如購買時間在未來）",
    en: "Invalid input (e.g. a purchase time in the future)",
  },
  { status: 400, code: "malformed_json", zh: "內容不是有效的 JSON", en: "The body is not valid JSON" },
  {
    status: 400,
    code: "idempotency_key_required",
    zh: "寫入請求需要 Idempotency-Key 標頭",
    en: "Writes need an Idempotency-Key header",
  },
  { status: 400, code: "bad_request", zh: "無法讀取請求內容", en: "The request body could not be read" },
  {
    status: 401,
    code: "unauthorized",
    zh: "API 金鑰缺少、錯誤或已撤銷",
    en: "The API key is missing, unknown or revoked",
  },
  { status: 404, code: "member_not_found", zh: "查無此會員", en: "Unknown member" },
  {
    status: 404,
    code: "purchase_not_found",
    zh: "查無此消費（或屬於其他門市）",
    en: "Unknown purchase (or another store's)",
  },
  { status: 404, code: "coupon_not_found", zh: "查無此優惠券", en: "Unknown coupon" },
  { status: 404, code: "not_found", zh: "沒有這個 API 路徑", en: "Unknown API endpoint" },
  {
    status: 409,
    code: "receipt_conflict",
    zh: "此發票號碼已以不同內容入帳",
    en: "This receipt was booked with other details",
  },
  {
    status: 409,
    code: "idempotency_key_reused",
    zh: "此 Idempotency-Key 已用於不同的請求",
    en: "This Idempotency-Key was used with a different request",
  },
  {
    status: 409,
    code: "request_in_progress",
    zh: "相同 Idempotency-Key 的請求仍在處理中，請稍後重試",
    en: "A request with this key is still running; retry shortly",
  },
  {
    status: 409,
    code: "idempotency_conflict",
    zh: "重試的內容與第一次不同",
    en: "A retry did not match the first request",
  },
  { status: 409, code: "coupon_used", zh: "優惠券已使用", en: "The coupon was already used" },
  { status: 409, code: "coupon_cancelled", zh: "優惠券已取消", en: "The coupon was cancelled" },
  { status: 413, code: "payload_too_large", zh: "請求內容超過 32 KB", en: "The body is larger than 32 KB" },
  {
    status: 415,
    code: "unsupported_media_type",
    zh: "請以 application/json 傳送",
    en: "Send the body as application/json",
  },
  { status: 422, code: "member_disabled", zh: "會員已停用", en: "The member is disabled" },
  {
    status: 422,
    code: "refund_exceeds_purchase",
    zh: "退貨總額超過原消費金額",
    en: "Refunds would exceed the purchase",
  },
  { status: 422, code: "coupon_expired", zh: "優惠券已過期", en: "The coupon has expired" },
  {
    status: 422,
    code: "coupon_wrong_store",
    zh: "此優惠券不適用於本門市",
    en: "The coupon is not valid at this store",
  },
  {
    status: 422,
    code: "card_token_expired",
    zh: "會員卡條碼已過期，請會員重新出示",
    en: "The card QR has expired; ask for a fresh one",
  },
  { status: 422, code: "card_token_forged", zh: "會員卡條碼無效", en: "The card QR is not genuine" },
  { status: 422, code: "card_token_malformed", zh: "會員卡條碼格式錯誤", en: "The card QR is malformed" },
  {
    status: 429,
    code: "rate_limited",
    zh: "請求過於頻繁（每把金鑰每分鐘 600 次），請依 Retry-After 等待",
    en: "Too many requests (600 a minute per key); wait for Retry-After",
  },
  {
    status: 500,
    code: "internal_error",
    zh: "系統錯誤；可用相同 Idempotency-Key 安全重試",
    en: "Server error; safe to retry with the same Idempotency-Key",
  },
];
