import type { Database } from "@platform/db/client";
import type { Logger } from "@platform/logger";
import express, { type Router } from "express";
import { createLineMessagingClient, type LineMessagingChannel } from "../../app/domain/line/messaging.server";
import { processWebhookEvents, verifyWebhookSignature, webhookPayload } from "../../app/domain/line/webhook.server";

/** Where the app mounts the webhook (server/app.ts; the metrics label its answers `/api/line/webhook/`). */
export const LINE_WEBHOOK_PATH = "/api/line/webhook";

/** Webhook bodies are small JSON documents; LINE sends at most a few events at a time. */
const WEBHOOK_BODY_LIMIT = "256kb";

/**
 * POST /api/line/webhook: the raw body is read as bytes, its x-line-signature checked before any
 * parsing (401 and nothing recorded otherwise), then the events are processed once each, each on its own.
 * LINE expects a 200 quickly: a signed body that is not a webhook payload at all is a 400; a malformed event
 * beside valid ones is skipped, logged and counted, and the batch answered 200 (issue 33 item 16). An event
 * whose processing failed (the database) makes the answer a 500, so LINE redelivers the batch: the events
 * already processed are claimed and change nothing the second time.
 */
export function lineWebhookRouter(deps: {
  db: Database;
  channel: LineMessagingChannel;
  publicBaseUrl: string;
  logger: Logger;
}): Router {
  const client = createLineMessagingClient(deps.channel);
  const router = express.Router();
  router.post("/", express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), async (req, res, next) => {
    try {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      res.setHeader("Cache-Control", "no-store");
      if (!verifyWebhookSignature(deps.channel.channelSecret, raw, req.get("x-line-signature"))) {
        deps.logger.warn({ ip: req.ip }, "LINE webhook with a bad or missing signature refused");
        res.status(401).json({ error: { code: "bad_signature", message: "x-line-signature does not match" } });
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(raw.toString("utf8"));
      } catch {
        json = undefined;
      }
      const payload = webhookPayload.safeParse(json);
      if (!payload.success) {
        res.status(400).json({ error: { code: "invalid_body", message: "not a LINE webhook payload" } });
        return;
      }
      const outcome = await processWebhookEvents(
        {
          db: deps.db,
          publicBaseUrl: deps.publicBaseUrl,
          logger: deps.logger,
          reply: (token, messages) => client.reply(token, messages),
        },
        payload.data.events,
      );
      if (payload.data.events.length > 0) deps.logger.info(outcome, "LINE webhook processed");
      if (outcome.failed > 0) {
        res.status(500).json({ error: { code: "event_failed", message: "an event could not be processed; retry" } });
        return;
      }
      res.json({ ok: true });
    } catch (error) {
      next(error);
    }
  });
  return router;
}
