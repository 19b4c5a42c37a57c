import { z } from "zod";
import { API_ERROR_CODES } from "./errors";
import { API_REQUESTS_PER_MINUTE } from "./middleware/authenticate";
import {
  BalanceAnswer,
  CouponAnswer,
  EinvoiceAnswer,
  ErrorBody,
  MemberSummary,
  PointsQuoteAnswer,
  PurchaseAnswer,
  PurchaseBody,
  RedeemCouponBody,
  RefundAnswer,
  RefundBody,
  SpendCodeAnswer,
  SpendCodeBody,
} from "./schemas";

/** The POS API's OpenAPI 3.1 document, generated from the request and answer schemas (schemas.ts). */

/** Example values, shared by the document and the reference page. */
const EXAMPLE = {
  memberNumber: "HL10000001",
  cardToken: "AbCdEfGhIjKlMnOpQrStUvWxYz0.AbCdEfGhIjKlMnOpQrStUv",
  purchaseId: "5b0f1c9e-3f7a-4c53-9d1e-0c2a4b6d8e10",
  couponCode: "K7QWPX3M9TDAHN4RBEZ2C5LUV8",
};

/** zh-TW texts beside the English ones (`x-zh-TW`): the reference page shows both. */
type Texts = { summary: string; description: string; "x-zh-TW": { summary: string; description: string } };
function texts(en: [string, string], zh: [string, string]): Texts {
  return { summary: en[0], description: en[1], "x-zh-TW": { summary: zh[0], description: zh[1] } };
}

let cachedDocument: Record<string, unknown> | null = null;

export function openApiDocument(): Record<string, unknown> {
  if (cachedDocument) return cachedDocument;
  const schema = (s: z.ZodType) => z.toJSONSchema(s, { target: "draft-2020-12", io: "input" });
  const errors = (...statuses: number[]) =>
    Object.fromEntries(
      statuses.map((status) => {
        const first = API_ERROR_CODES.find((e) => e.status === status);
        const codes = API_ERROR_CODES.filter((e) => e.status === status).map((e) => e.code);
        return [
          String(status),
          {
            description: `Error: ${codes.join(", ")}`,
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Error" },
                example: { error: { code: first?.code ?? "bad_request", message: first?.en ?? "Error" } },
              },
            },
          },
        ];
      }),
    );
  const json = (s: z.ZodType, description: string, example: unknown) => ({
    description,
    content: { "application/json": { schema: schema(s), example } },
  });
  const body = (s: z.ZodType, example: unknown) => ({
    required: true,
    content: { "application/json": { schema: schema(s), example } },
  });
  const idempotencyKey = {
    name: "Idempotency-Key",
    in: "header",
    required: true,
    description: "1–200 visible ASCII characters, e.g. a UUID; the same key with the same body replays the answer",
    schema: { type: "string", minLength: 1, maxLength: 200 },
    example: "9b6e2c1a-8f0d-4c7e-a1b2-3c4d5e6f7a80",
  };
  const memberSummary = { memberNumber: EXAMPLE.memberNumber, maskedName: "王○明", tier: "silver", balance: 1234 };
  cachedDocument = {
    openapi: "3.1.0",
    info: {
      title: "Han Living point-of-sale API",
      version: "1.0.0",
      description:
        "JSON over HTTPS for the stores' tills: look up members, book purchases and refunds, use coupons. " +
        "Every write needs an Idempotency-Key; errors carry a stable code.",
      "x-zh-TW": {
        title: "漢生活 POS 收銀系統 API",
        description:
          "門市收銀系統使用的 JSON API：查詢會員、登錄消費與退貨、核銷優惠券。每個寫入請求都需要 Idempotency-Key；錯誤一律附穩定的代碼。",
      },
    },
    servers: [{ url: "/api/v1" }],
    security: [{ bearer: [] }],
    "x-error-codes": API_ERROR_CODES,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: `A store's API key (hlpos_…), shown once when created. ${API_REQUESTS_PER_MINUTE} requests a minute per key.`,
        },
      },
      schemas: { Error: schema(ErrorBody) },
    },
    paths: {
      "/members/lookup": {
        get: {
          operationId: "lookupMember",
          ...texts(
            [
              "Look up a member",
              "By the member card QR (cardToken: the member center's, valid 45 s, or the offline card's HLD1 code, 30 s ± one step, accepted once), the member number, or the mobile number — exactly one. The name is masked.",
            ],
            [
              "查詢會員",
              "以會員卡 QR 碼（cardToken：會員中心的條碼 45 秒內有效；離線會員卡的 HLD1 條碼每 30 秒更換、前後一步內有效、只能使用一次）、會員編號或手機號碼查詢，三者擇一。姓名會遮蔽。",
            ],
          ),
          parameters: [
            ["cardToken", "The scanned member card QR", EXAMPLE.cardToken],
            ["memberNumber", "e.g. HL10000001", EXAMPLE.memberNumber],
            ["phone", "e.g. 0912345678", "0912345678"],
          ].map(([name, description, example]) => ({
            name,
            in: "query",
            required: false,
            description,
            schema: { type: "string" },
            example,
          })),
          responses: { "200": json(MemberSummary, "The member", memberSummary), ...errors(400, 401, 404, 422, 429) },
        },
      },
      "/members/{memberNumber}/balance": {
        get: {
          operationId: "memberBalance",
          ...texts(
            ["Balance and recent ledger", "The balance, the tier and the newest 20 ledger entries."],
            ["點數餘額與近期明細", "點數餘額、會員等級與最近 20 筆點數明細。"],
          ),
          parameters: [
            {
              name: "memberNumber",
              in: "path",
              required: true,
              schema: { type: "string" },
              example: EXAMPLE.memberNumber,
            },
          ],
          responses: {
            "200": json(BalanceAnswer, "Balance and recent ledger", {
              memberNumber: EXAMPLE.memberNumber,
              balance: 1234,
              tier: "silver",
              entries: [{ kind: "earn-purchase", amount: 300, createdAt: "2026-11-22T02:00:00.000Z" }],
            }),
            ...errors(401, 404, 422, 429),
          },
        },
      },
      // E-invoice carrier at the till (ADR 041).
      "/members/einvoice": {
        get: {
          operationId: "memberEinvoice",
          ...texts(
            [
              "E-invoice carrier and tax ID (scope einvoice:read)",
              "The member's mobile barcode carrier (手機條碼) and 統編 with the company name, so the till issues the e-invoice to them; by the member card QR (cardToken) or the member number — exactly one. Needs a key with the einvoice:read scope (else 403 scope_missing, audited). Every answer is audited. A member who turned sharing off gets 200 with sharing: false and nulls.",
            ],
            [
              "電子發票載具與統編（需 einvoice:read 權限）",
              "回傳會員的手機條碼載具與統一編號、公司名稱，供收銀開立電子發票；以會員卡 QR 碼（cardToken）或會員編號查詢，二者擇一。金鑰須具 einvoice:read 權限（否則 403 scope_missing，並記錄稽核）。每次查詢皆記錄稽核。會員關閉「提供載具與統編給門市結帳」時回 200，sharing 為 false，其餘欄位為 null。",
            ],
          ),
          parameters: [
            ["cardToken", "The scanned member card QR", EXAMPLE.cardToken],
            ["memberNumber", "e.g. HL10000001", EXAMPLE.memberNumber],
          ].map(([name, description, example]) => ({
            name,
            in: "query",
            required: false,
            description,
            schema: { type: "string" },
            example,
          })),
          responses: {
            "200": json(EinvoiceAnswer, "The carrier and 統編 (nulls when not on record or not shared)", {
              memberNumber: EXAMPLE.memberNumber,
              sharing: true,
              carrier: "/ABC+123",
              taxIdNumber: "04595257",
              companyName: "漢生活股份有限公司",
            }),
            ...errors(400, 401, 403, 404, 422, 429),
          },
        },
      },
      "/members/{memberNumber}/points-quote": {
        get: {
          operationId: "pointsQuote",
          ...texts(
            [
              "How many points can pay (pay with points)",
              "How many points this member may spend on a purchase of NT$ amount: at most the balance and the share of the net amount the programme allows (default 1 point = NT$1, at most 50 %), their value and the amount left to pay. With points=N it checks N (points_exceed_balance, points_exceed_share, invalid_points). The purchase decides again when it is booked.",
            ],
            [
              "點數折抵試算",
              "會員在新台幣 amount 元的消費中最多可用多少點折抵：不超過點數餘額，也不超過方案規定的淨額比例（預設 1 點 = 1 元、最多 50%），並回覆折抵金額與應付金額。加上 points=N 則檢查 N 點是否可用。實際登錄消費時會再判斷一次。",
            ],
          ),
          parameters: [
            {
              name: "memberNumber",
              in: "path",
              required: true,
              schema: { type: "string" },
              example: EXAMPLE.memberNumber,
            },
            {
              name: "amount",
              in: "query",
              required: true,
              description: "Net amount in NT$ (a whole number)",
              schema: { type: "string" },
              example: "3280",
            },
            {
              name: "points",
              in: "query",
              required: false,
              description: "Points the member would spend (a whole number, 0 or more)",
              schema: { type: "string" },
              example: "500",
            },
          ],
          responses: {
            "200": json(PointsQuoteAnswer, "What points can pay", {
              memberNumber: EXAMPLE.memberNumber,
              amount: 3280,
              balance: 1234,
              maxPoints: 1234,
              maxValue: 1234,
              amountToPay: 2046,
              pointValue: 1,
              maxSharePercent: 50,
              points: 500,
              value: 500,
              toPay: 2780,
            }),
            ...errors(400, 401, 404, 409, 422, 429),
          },
        },
      },
      "/members/{memberNumber}/spend-code": {
        post: {
          operationId: "sendSpendCode",
          ...texts(
            [
              "Ask the member to confirm a spend of points",
              "A till that found the member by number (no card scanned) needs the member's confirmation to spend points: this shows the member, in their member center, the store, the points and the amount with a 6-digit code. The member reads it out; the purchase sends it as spendCode with the same pointsToSpend and netAmount. The code is good for 5 minutes, for this key only, once; asking again replaces it. At most 5 codes an hour per member (30 per key): spend_code_send_limit. A purchase by cardToken needs no code.",
            ],
            [
              "請會員確認點數折抵",
              "以會員編號（未掃描會員卡）查到會員時，折抵點數需要會員確認：會員會在會員中心看到門市、點數、金額與 6 位數確認碼，唸給店員；登錄消費時以 spendCode 帶入，pointsToSpend 與 netAmount 須相同。確認碼 5 分鐘內有效，只限這把金鑰、只能用一次；重新索取會取代舊的。每位會員每小時最多 5 次（每把金鑰 30 次）：spend_code_send_limit。以 cardToken 登錄的消費不需確認碼。",
            ],
          ),
          parameters: [
            {
              name: "memberNumber",
              in: "path",
              required: true,
              schema: { type: "string" },
              example: EXAMPLE.memberNumber,
            },
            idempotencyKey,
          ],
          requestBody: body(SpendCodeBody, { netAmount: 3280, pointsToSpend: 500 }),
          responses: {
            "201": json(SpendCodeAnswer, "The code is waiting in the member's member center", {
              memberNumber: EXAMPLE.memberNumber,
              pointsToSpend: 500,
              netAmount: 3280,
              expiresAt: "2026-12-06T10:05:00.000Z",
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      "/purchases": {
        post: {
          operationId: "recordPurchase",
          ...texts(
            [
              "Record a purchase",
              "Books the purchase for the key's store and earns points (1 per NT$100 of net amount × the tier multiplier). With pointsToSpend, points pay part of it in the same transaction (the lots that expire first); only the amount paid in money earns points. The same receipt number at the same store is one purchase: sending it again answers 200 with the first result; the same receipt with other details (pointsToSpend too) is receipt_conflict. The member is given by memberNumber or by cardToken (the card's code as scanned); points spent for a member given by number need the member's spendCode (POST /members/{memberNumber}/spend-code), by card none.",
            ],
            [
              "登錄消費",
              "以金鑰所屬門市登錄消費並累積點數（淨額每滿新台幣 100 元 1 點 × 等級倍數）。帶 pointsToSpend 時以點數折抵部分金額（同一交易內，先用最早到期的點數）；只有以金錢支付的部分累積點數。同一門市的同一發票號碼只算一筆：重送會以 200 回覆第一次的結果；同一發票號碼但內容（含折抵點數）不同則回覆 receipt_conflict。會員以 memberNumber 或 cardToken（掃描的會員卡條碼）指定；以會員編號指定時折抵點數需帶會員的 spendCode（POST /members/{memberNumber}/spend-code），以會員卡指定則不需要。",
            ],
          ),
          parameters: [idempotencyKey],
          requestBody: body(PurchaseBody, {
            memberNumber: EXAMPLE.memberNumber,
            receiptNumber: "A-0001",
            netAmount: 25000,
            purchasedAt: "2026-11-22T10:00:00+08:00",
            pointsToSpend: 500,
            spendCode: "042917",
          }),
          responses: {
            "201": json(PurchaseAnswer, "Booked", {
              purchaseId: EXAMPLE.purchaseId,
              receiptNumber: "A-0001",
              pointsEarned: 294,
              pointsSpent: 500,
              pointsSpentValue: 500,
              amountPaid: 24500,
              balance: 1028,
              tier: "silver",
            }),
            "200": json(PurchaseAnswer, "This receipt was already booked", {
              purchaseId: EXAMPLE.purchaseId,
              receiptNumber: "A-0001",
              pointsEarned: 294,
              pointsSpent: 500,
              pointsSpentValue: 500,
              amountPaid: 24500,
              balance: 1028,
              tier: "silver",
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      "/purchases/{id}/refunds": {
        post: {
          operationId: "refundPurchase",
          ...texts(
            [
              "Refund a purchase (full or partial)",
              "Reverses the points earned and gives back the points that paid part of it (as new lots with their original expiry, at least 30 days), both in proportion to the amount. The refunds of a purchase can never add up to more than the purchase.",
            ],
            [
              "退貨（全部或部分）",
              "依退貨金額比例扣回累積的點數，並退回折抵用掉的點數（保留原到期日，至少 30 天）。同一筆消費的退貨總額不得超過原消費金額。",
            ],
          ),
          parameters: [
            {
              name: "id",
              in: "path",
              required: true,
              description: "purchaseId from the purchase's answer",
              schema: { type: "string" },
              example: EXAMPLE.purchaseId,
            },
            idempotencyKey,
          ],
          requestBody: body(RefundBody, { amount: 5000 }),
          responses: {
            "201": json(RefundAnswer, "Refund booked", {
              refundId: "0d9c8b7a-6f5e-4d3c-2b1a-098765432100",
              pointsReversed: 58,
              pointsReturned: 100,
              balance: 1070,
              refundedAmount: 5000,
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
      "/coupons/{code}/redeem": {
        post: {
          operationId: "redeemCoupon",
          ...texts(
            [
              "Use (redeem) a coupon",
              "Marks the member's coupon used at the key's store, once. Used, cancelled, expired and other stores' coupons are refused with their code.",
            ],
            [
              "核銷優惠券",
              "在金鑰所屬門市核銷會員的優惠券，只能使用一次。已使用、已取消、已過期或不適用本門市的優惠券會以對應代碼拒絕。",
            ],
          ),
          parameters: [
            { name: "code", in: "path", required: true, schema: { type: "string" }, example: EXAMPLE.couponCode },
            idempotencyKey,
          ],
          requestBody: body(RedeemCouponBody, {}),
          responses: {
            "200": json(CouponAnswer, "Coupon used", {
              code: EXAMPLE.couponCode,
              status: "used",
              usedAt: "2026-11-22T02:05:00.000Z",
            }),
            ...errors(400, 401, 404, 409, 413, 415, 422, 429),
          },
        },
      },
    },
  };
  return cachedDocument;
}
