import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import express, { type Request, type Response } from "express";
import { z } from "zod";
import { mountLocalRichMenus } from "./local-rich-menus";

/**
 * A local fake of the LINE Messaging API (the brand's Official Account) for development and tests:
 * the endpoints this app calls, with LINE's request checks, status codes and error bodies, and the
 * other half of the protocol — webhooks (follow, unfollow, a text message) signed with the channel
 * secret and POSTed to the app. Mounted under /__line beside the local LINE Login provider, only
 * when no Messaging channel is configured and APP_ENV is not production (server/app.ts).
 *
 * What it enforces, as LINE does: the Bearer channel access token; `X-Line-Retry-Key` (a UUID; a
 * key already accepted answers 409 with `X-Line-Accepted-Request-Id`, nothing sent twice); 1–5
 * message objects; 1–500 ids for a multicast; single-use reply tokens; a monthly quota (when one is
 * set) answering 429. A push to someone who blocked the account is accepted (200) and not delivered,
 * as on LINE: the app learns it from the unfollow webhook or a 404 from the profile endpoint.
 *
 * State lives in this process (a development tool, one instance). Its own controls and the record of
 * what was sent are under /__line/messaging/.
 */
export type LocalMessagingOptions = {
  channelSecret: string;
  accessToken: string;
  /** The app's webhook URL (its own /api/line/webhook). */
  webhookUrl: (req: Request) => string;
  now?: () => Date;
};

export type SentMessage = {
  requestId: string;
  kind: "push" | "multicast" | "reply";
  to: string[];
  /** Recipients who follow the account (the others blocked it or never added it). */
  deliveredTo: string[];
  messages: unknown[];
  retryKey: string | null;
  at: string;
};

const RETRY_KEY_TTL_MS = 24 * 3600_000;
const REPLY_TOKEN_TTL_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const USER_ID = /^U[0-9a-f]{32}$/;

/** LINE's shape for a message object, loosely: a type and, for text, at most 5,000 characters. */
const messageObject = z
  .object({ type: z.enum(["text", "flex", "image", "sticker", "template"]) })
  .passthrough()
  .refine((m) => m.type !== "text" || (typeof m.text === "string" && m.text.length >= 1 && m.text.length <= 5000), {
    message: "text must be 1 to 5000 characters",
  })
  .refine(
    (m) => m.type !== "flex" || (typeof m.altText === "string" && m.altText.length >= 1 && m.altText.length <= 1500),
    {
      message: "altText must be 1 to 1500 characters",
    },
  );
const messages = z.array(messageObject).min(1).max(5);

export function signWebhookBody(channelSecret: string, body: string): string {
  return createHmac("sha256", channelSecret).update(body).digest("base64");
}

export function createLocalLineMessaging(options: LocalMessagingOptions) {
  const now = options.now ?? (() => new Date());
  const acceptedRetryKeys = new Map<string, { requestId: string; at: number }>();
  const replyTokens = new Map<string, { userId: string; expiresAt: number }>();
  const following = new Map<string, boolean>();
  const sent: SentMessage[] = [];
  /** Messages left this month; null = no quota. Each recipient of each call counts once, as LINE counts. */
  let quota: number | null = null;

  const router = express.Router();
  const json = express.json({ limit: "2mb" });

  function error(res: Response, status: number, message: string, details?: { message: string; property: string }[]) {
    res.status(status).json(details ? { message, details } : { message });
  }

  function authorized(req: Request, res: Response): boolean {
    const presented = Buffer.from(req.get("authorization") ?? "");
    const expected = Buffer.from(`Bearer ${options.accessToken}`);
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) return true;
    error(res, 401, "Authentication failed. Confirm that the access token in the authorization header is valid.");
    return false;
  }

  /**
   * The retry key and the quota, in LINE's order: a key already accepted answers 409 (and uses no
   * quota); a call over the quota answers 429 and leaves its key unclaimed, so it can be retried.
   * Returns the key (or null without one), or false when the answer has been sent.
   */
  function accept(req: Request, res: Response, requestId: string, recipients: number): string | null | false {
    const key = req.get("x-line-retry-key")?.toLowerCase() ?? null;
    if (key !== null && !UUID.test(key)) {
      error(res, 400, "The value of the X-Line-Retry-Key header is invalid");
      return false;
    }
    const at = now().getTime();
    for (const [k, v] of acceptedRetryKeys) if (at - v.at > RETRY_KEY_TTL_MS) acceptedRetryKeys.delete(k);
    const accepted = key === null ? undefined : acceptedRetryKeys.get(key);
    if (accepted) {
      res.setHeader("x-line-accepted-request-id", accepted.requestId);
      error(res, 409, "The retry key is already accepted");
      return false;
    }
    if (quota !== null && quota < recipients) {
      error(res, 429, "You have reached your monthly limit.");
      return false;
    }
    if (quota !== null) quota -= recipients;
    if (key !== null) acceptedRetryKeys.set(key, { requestId, at });
    return key;
  }

  function record(
    kind: SentMessage["kind"],
    to: string[],
    body: unknown[],
    retryKey: string | null,
    requestId: string,
  ) {
    sent.push({
      requestId,
      kind,
      to,
      deliveredTo: to.filter((id) => following.get(id) === true),
      messages: body,
      retryKey,
      at: now().toISOString(),
    });
  }

  function invalid(res: Response, issues: z.ZodIssue[]) {
    error(
      res,
      400,
      `The request body has ${issues.length} error(s)`,
      issues.map((i) => ({ message: i.message, property: i.path.join(".") })),
    );
  }

  router.post("/v2/bot/message/push", json, (req, res) => {
    if (!authorized(req, res)) return;
    const body = z.object({ to: z.string().regex(USER_ID, "invalid user id"), messages }).safeParse(req.body);
    if (!body.success) return invalid(res, body.error.issues);
    const requestId = randomUUID();
    res.setHeader("x-line-request-id", requestId);
    const retryKey = accept(req, res, requestId, 1);
    if (retryKey === false) return;
    record("push", [body.data.to], body.data.messages, retryKey, requestId);
    res.json({ sentMessages: body.data.messages.map(() => ({ id: randomUUID(), quoteToken: randomUUID() })) });
  });

  router.post("/v2/bot/message/multicast", json, (req, res) => {
    if (!authorized(req, res)) return;
    const body = z
      .object({
        to: z.array(z.string().regex(USER_ID, "invalid user id")).min(1).max(500, "size must be between 1 and 500"),
        messages,
      })
      .safeParse(req.body);
    if (!body.success) return invalid(res, body.error.issues);
    const requestId = randomUUID();
    res.setHeader("x-line-request-id", requestId);
    const retryKey = accept(req, res, requestId, body.data.to.length);
    if (retryKey === false) return;
    record("multicast", body.data.to, body.data.messages, retryKey, requestId);
    res.json({});
  });

  router.post("/v2/bot/message/reply", json, (req, res) => {
    if (!authorized(req, res)) return;
    if (req.get("x-line-retry-key") !== undefined) {
      error(res, 400, "X-Line-Retry-Key is not supported for this API");
      return;
    }
    const body = z.object({ replyToken: z.string().min(1), messages }).safeParse(req.body);
    if (!body.success) return invalid(res, body.error.issues);
    const token = replyTokens.get(body.data.replyToken);
    replyTokens.delete(body.data.replyToken);
    if (!token || token.expiresAt < now().getTime()) {
      error(res, 400, "Invalid reply token");
      return;
    }
    const requestId = randomUUID();
    res.setHeader("x-line-request-id", requestId);
    record("reply", [token.userId], body.data.messages, null, requestId);
    res.json({ sentMessages: body.data.messages.map(() => ({ id: randomUUID(), quoteToken: randomUUID() })) });
  });

  // A user's profile: 404 unless they follow the account (LINE answers so for blocked users too).
  router.get("/v2/bot/profile/:userId", (req, res) => {
    if (!authorized(req, res)) return;
    const userId = String(req.params.userId);
    if (following.get(userId) !== true) return error(res, 404, "Not found");
    res.json({ userId, displayName: "LINE user", language: "zh-TW" });
  });

  // Rich menus (ADR 049): LINE's endpoints and the fake's controls, in their own file.
  const richMenus = mountLocalRichMenus(router, { authorized, error, invalid });

  // ---- The fake's own controls (development and tests) ----

  async function sendWebhook(req: Request, event: Record<string, unknown>) {
    const body = JSON.stringify({
      destination: "Ulocalofficialaccount00000000000",
      events: [
        {
          ...event,
          mode: "active",
          timestamp: now().getTime(),
          webhookEventId: randomUUID().replace(/-/g, "").toUpperCase().slice(0, 26),
          deliveryContext: { isRedelivery: false },
        },
      ],
    });
    const response = await fetch(options.webhookUrl(req), {
      method: "POST",
      headers: {
        "content-type": "application/json; charset=utf-8",
        "x-line-signature": signWebhookBody(options.channelSecret, body),
        "user-agent": "LineBotWebhook/2.0",
      },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: JSON.parse(body) as unknown };
  }

  const userParam = z.string().regex(USER_ID);

  /** The user adds the account as a friend (or unblocks it): the follow webhook goes to the app. */
  async function follow(req: Request, userId: string) {
    const wasBlocked = following.get(userId) === false;
    following.set(userId, true);
    const replyToken = randomUUID().replace(/-/g, "");
    replyTokens.set(replyToken, { userId, expiresAt: now().getTime() + REPLY_TOKEN_TTL_MS });
    return sendWebhook(req, {
      type: "follow",
      replyToken,
      source: { type: "user", userId },
      follow: { isUnblocked: wasBlocked },
    });
  }

  router.post("/messaging/users/:userId/follow", async (req, res) => {
    const userId = userParam.safeParse(req.params.userId);
    if (!userId.success) return error(res, 400, "invalid user id");
    res.json(await follow(req, userId.data));
  });

  router.post("/messaging/users/:userId/unfollow", async (req, res) => {
    const userId = userParam.safeParse(req.params.userId);
    if (!userId.success) return error(res, 400, "invalid user id");
    following.set(userId.data, false);
    // `?webhook=0`: the block happens and no webhook reaches the app (a lost delivery, an outage): the app must
    // learn it from the profile endpoint's 404 before it pushes.
    if (req.query.webhook === "0") {
      res.json({ status: null });
      return;
    }
    res.json(await sendWebhook(req, { type: "unfollow", source: { type: "user", userId: userId.data } }));
  });

  router.post("/messaging/users/:userId/text", json, async (req, res) => {
    const userId = userParam.safeParse(req.params.userId);
    const text = z.object({ text: z.string().min(1).max(5000) }).safeParse(req.body);
    if (!userId.success || !text.success) return error(res, 400, "invalid user id or text");
    const replyToken = randomUUID().replace(/-/g, "");
    replyTokens.set(replyToken, { userId: userId.data, expiresAt: now().getTime() + REPLY_TOKEN_TTL_MS });
    res.json(
      await sendWebhook(req, {
        type: "message",
        replyToken,
        source: { type: "user", userId: userId.data },
        message: { id: String(now().getTime()), type: "text", quoteToken: randomUUID(), text: text.data.text },
      }),
    );
  });

  router.get("/messaging/sent", (req, res) => {
    const to = typeof req.query.to === "string" ? req.query.to : null;
    res.setHeader("Cache-Control", "no-store");
    res.json({ sent: to ? sent.filter((s) => s.to.includes(to)) : sent, quota });
  });

  router.post("/messaging/quota", json, (req, res) => {
    const body = z.object({ remaining: z.number().int().min(0).nullable() }).safeParse(req.body);
    if (!body.success) return error(res, 400, "remaining must be a whole number or null");
    quota = body.data.remaining;
    res.json({ quota });
  });

  return { router, sent, following, follow, richMenus };
}
