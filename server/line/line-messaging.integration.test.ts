import { createHmac, randomUUID } from "node:crypto";
import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as LineModule from "../../app/domain/line/line.server";
import type * as MessagingModule from "../../app/domain/line/messaging.server";
import type * as WebhookModule from "../../app/domain/line/webhook.server";
import { type DevApp, freePort, startDevApp } from "../testing/dev-app";
import { PRESET_USERS, testUserId } from "./local-provider";

/**
 * The LINE Messaging API (issue 16 item 1, ADR 032) against the local fake mounted on the app: the
 * webhook's signature (checked on the raw bytes before parsing), each event processed once,
 * follow / unfollow, the card keyword's reply, and the client's retry key, limits and quota.
 */

let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let messaging: typeof MessagingModule;
let webhook: typeof WebhookModule;
let line: typeof LineModule;
let secret: string;
const METRICS_TOKEN = "line-messaging-metrics-token-0123456789";

beforeAll(async () => {
  const port = await freePort();
  app = await startDevApp({ APP_ENV: "test", PORT: String(port), METRICS_TOKEN: METRICS_TOKEN }, "line_messaging");
  base = app.base;
  db = app.running.database.db;
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  messaging = (await load("/app/domain/line/messaging.server.ts")) as typeof MessagingModule;
  webhook = (await load("/app/domain/line/webhook.server.ts")) as typeof WebhookModule;
  line = (await load("/app/domain/line/line.server.ts")) as typeof LineModule;
  const config = app.running.config.lineMessaging;
  if (config.mode !== "local") throw new Error("expected the local LINE Messaging fake");
  secret = config.channelSecret;
}, 180_000);

afterAll(() => app?.stop());

const sign = (body: string, key = secret) => createHmac("sha256", key).update(body).digest("base64");

function postWebhook(body: string, signature: string | null) {
  return fetch(`${base}/api/line/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(signature === null ? {} : { "x-line-signature": signature }) },
    body,
  });
}

function event(type: string, userId: string, timestamp: number, extra: Record<string, unknown> = {}) {
  return {
    type,
    mode: "active",
    timestamp,
    webhookEventId: randomUUID().replace(/-/g, "").slice(0, 26).toUpperCase(),
    source: { type: "user", userId },
    deliveryContext: { isRedelivery: false },
    ...extra,
  };
}

const friendRow = async (userId: string) =>
  (await db.select().from(schema.lineFriend)).find((r) => r.lineUserId === userId) ?? null;
const eventCount = async () => (await db.select().from(schema.lineWebhookEvent)).length;

async function sentTo(userId: string) {
  const res = await fetch(`${base}/__line/messaging/sent?to=${userId}`);
  return ((await res.json()) as { sent: { kind: string; deliveredTo: string[]; messages: { text?: string }[] }[] })
    .sent;
}

const client = () => {
  const config = app.running.config.lineMessaging;
  if (config.mode === "disabled") throw new Error("disabled");
  return messaging.createLineMessagingClient(config);
};

describe("LINE webhook", () => {
  it("refuses a wrong or missing signature with 401 and records nothing", async () => {
    const body = JSON.stringify({ destination: "U0", events: [event("follow", testUserId("簽章"), Date.now())] });
    const before = await eventCount();
    expect((await postWebhook(body, null)).status).toBe(401);
    expect((await postWebhook(body, sign(body, "another-secret"))).status).toBe(401);
    expect((await postWebhook(body, "not-base64!")).status).toBe(401);
    // The signature covers the exact bytes: the same JSON re-serialised with a space is refused.
    expect((await postWebhook(body.replace(":", ": "), sign(body))).status).toBe(401);
    expect(await eventCount()).toBe(before);
    expect(await friendRow(testUserId("簽章"))).toBeNull();
  });

  it("answers LINE's verify request (no events) and refuses a signed non-payload with 400", async () => {
    const empty = JSON.stringify({ destination: "U0", events: [] });
    expect((await postWebhook(empty, sign(empty))).status).toBe(200);
    const junk = '{"destination":"U0","events":"nope"}';
    const res = await postWebhook(junk, sign(junk));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: "invalid_body", message: "not a LINE webhook payload" } });
  });

  it("processes each event of a batch on its own: a malformed one is skipped, logged and counted (200)", async () => {
    const malformedCount = async () => {
      const text = await (
        await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      return Number(/hanliving_line_webhook_events_total\{result="malformed"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const first = testUserId("同批一");
    const second = testUserId("同批二");
    const before = await eventCount();
    const malformedBefore = await malformedCount();
    const body = JSON.stringify({
      destination: "U0",
      events: [
        event("follow", first, Date.now()),
        { type: "follow", timestamp: "yesterday", source: { type: "user", userId: first } },
        // A NUL byte in the event id (issue 33 item 5): PostgreSQL could not store it.
        { ...event("follow", second, Date.now()), webhookEventId: "01H\u0000BAD" },
        "not an event",
        event("follow", second, Date.now()),
      ],
    });
    const res = await postWebhook(body, sign(body));
    expect(res.status).toBe(200);
    expect(await eventCount()).toBe(before + 2);
    expect(await friendRow(first)).toMatchObject({ following: true });
    expect(await friendRow(second)).toMatchObject({ following: true });
    expect(await malformedCount()).toBe(malformedBefore + 3);
  });

  it("answers a correctly signed event whose id or type holds a NUL with 200, storing nothing", async () => {
    const before = await eventCount();
    for (const bad of [{ webhookEventId: "A\u0000" }, { type: "fol\u0000low" }]) {
      const body = JSON.stringify({
        destination: "U0",
        events: [{ ...event("follow", testUserId("NUL"), 1), ...bad }],
      });
      expect((await postWebhook(body, sign(body))).status).toBe(200);
    }
    expect(await eventCount()).toBe(before);
    expect(await friendRow(testUserId("NUL"))).toBeNull();
  });

  it("processes a replayed event once, and an older event never overwrites a newer state", async () => {
    const userId = testUserId("重播");
    const follow = event("follow", userId, Date.now());
    const body = JSON.stringify({ destination: "U0", events: [follow] });
    const before = await eventCount();
    for (let i = 0; i < 3; i++) expect((await postWebhook(body, sign(body))).status).toBe(200);
    expect(await eventCount()).toBe(before + 1);
    expect(await friendRow(userId)).toMatchObject({ following: true });

    // An unfollow from before the follow, delivered late (LINE redelivery): the follow stands.
    const late = JSON.stringify({ destination: "U0", events: [event("unfollow", userId, follow.timestamp - 60_000)] });
    expect((await postWebhook(late, sign(late))).status).toBe(200);
    expect(await friendRow(userId)).toMatchObject({ following: true });
  });

  it("records follow and unfollow sent by the fake, signed with the channel secret", async () => {
    const userId = testUserId("追蹤者");
    const followed = await fetch(`${base}/__line/messaging/users/${userId}/follow`, { method: "POST" });
    expect(await followed.json()).toMatchObject({ status: 200 });
    expect(await webhook.followsAccount(db, userId)).toBe(true);
    expect(await client().isFollower(userId)).toBe(true);

    await fetch(`${base}/__line/messaging/users/${userId}/unfollow`, { method: "POST" });
    expect(await webhook.followsAccount(db, userId)).toBe(false);
    expect(await client().isFollower(userId)).toBe(false);
  });

  it("answers 會員卡 with the member card's address, and other texts with nothing", async () => {
    const userId = testUserId("要會員卡");
    await fetch(`${base}/__line/messaging/users/${userId}/follow`, { method: "POST" });
    const say = (text: string) =>
      fetch(`${base}/__line/messaging/users/${userId}/text`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ text }),
      });
    await say("你好");
    expect((await sentTo(userId)).filter((s) => s.kind === "reply")).toHaveLength(0);
    await say(" 會員卡 ");
    const replies = (await sentTo(userId)).filter((s) => s.kind === "reply");
    expect(replies).toHaveLength(1);
    expect(replies[0]?.messages[0]?.text).toContain(`${app.running.config.publicBaseUrl}/member-center`);
    expect(webhook.asksForCard("Member Card")).toBe(true);
    expect(webhook.asksForCard("會員卡在哪")).toBe(false);
  });
});

describe("LINE Messaging client against the fake", () => {
  it("sends once per retry key: the retry after a lost answer is 409, which counts as sent", async () => {
    const userId = testUserId("收件人");
    await fetch(`${base}/__line/messaging/users/${userId}/follow`, { method: "POST" });
    const key = randomUUID();
    const first = await client().push(userId, [{ type: "text", text: "點數即將到期" }], key);
    const again = await client().push(userId, [{ type: "text", text: "點數即將到期" }], key);
    expect(first.outcome).toBe("sent");
    expect(again).toEqual({ outcome: "already-sent", requestId: first.requestId });
    const pushes = (await sentTo(userId)).filter((s) => s.kind === "push");
    expect(pushes).toHaveLength(1);
    expect(pushes[0]?.deliveredTo).toEqual([userId]);
  });

  it("accepts a push to someone who blocked the account without delivering it (as LINE does)", async () => {
    const userId = testUserId("封鎖者");
    await fetch(`${base}/__line/messaging/users/${userId}/unfollow`, { method: "POST" });
    expect((await client().push(userId, [{ type: "text", text: "嗨" }], randomUUID())).outcome).toBe("sent");
    expect((await sentTo(userId)).at(-1)?.deliveredTo).toEqual([]);
  });

  it("keeps to LINE's limits: 500 ids a multicast, 1–5 messages, a UUID retry key", async () => {
    const ids = Array.from({ length: 501 }, (_, i) => testUserId(`多人${i}`));
    const text = [{ type: "text" as const, text: "hi" }];
    expect(() => client().multicast(ids, text, randomUUID())).toThrow(RangeError);
    expect(() => client().push(ids[0] as string, [], randomUUID())).toThrow(RangeError);
    expect(() => client().push(ids[0] as string, text, "retry-1")).toThrow(RangeError);
    expect((await client().multicast(ids.slice(0, 500), text, randomUUID())).outcome).toBe("sent");

    // The fake refuses what the client would never send, with LINE's error shape.
    const config = app.running.config.lineMessaging as MessagingModule.LineMessagingChannel;
    const raw = await fetch(`${base}/__line/v2/bot/message/multicast`, {
      method: "POST",
      headers: { authorization: `Bearer ${config.accessToken}`, "content-type": "application/json" },
      body: JSON.stringify({ to: ids, messages: text }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ details: [{ property: "to" }] });
    const noToken = await fetch(`${base}/__line/v2/bot/message/push`, {
      method: "POST",
      headers: { authorization: "Bearer wrong", "content-type": "application/json" },
      body: JSON.stringify({ to: ids[0], messages: text }),
    });
    expect(noToken.status).toBe(401);
  });

  it("reports a spent quota as a retryable 429; the same key goes through once the quota is back", async () => {
    const userId = testUserId("額度");
    const setQuota = (remaining: number | null) =>
      fetch(`${base}/__line/messaging/quota`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ remaining }),
      });
    await setQuota(0);
    const key = randomUUID();
    const refused = await client()
      .push(userId, [{ type: "text", text: "額度" }], key)
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: "DeliveryError", status: 429, retryable: true });
    await setQuota(null);
    expect((await client().push(userId, [{ type: "text", text: "額度" }], key)).outcome).toBe("sent");
    expect((await sentTo(userId)).filter((s) => s.kind === "push")).toHaveLength(1);
  });
});

describe("LINE Login offers the Official Account", () => {
  it("asks with bot_prompt=aggressive, and adding the friend on the consent screen reaches the webhook", async () => {
    const config = app.running.config.line;
    if (config.mode === "disabled") throw new Error("disabled");
    const redirectUri = `${base}/auth/line/callback`;
    const { url } = line.beginWebLogin(config, {
      method: "signin",
      redirectUri,
      redirectTo: "/member-center",
      offerOfficialAccount: true,
    });
    const query = new URL(url, base).searchParams;
    expect(query.get("bot_prompt")).toBe("aggressive");
    const page = await fetch(`${base}/__line/oauth2/v2.1/authorize?${query}`);
    expect(await page.text()).toContain("加入「漢生活」官方帳號好友");

    const user = PRESET_USERS[1] as (typeof PRESET_USERS)[number];
    const form = new URLSearchParams(query);
    form.set("decision", "allow");
    form.set("user", user.sub);
    form.set("addFriend", "on");
    const consent = await fetch(`${base}/__line/oauth2/v2.1/authorize`, {
      method: "POST",
      body: form,
      redirect: "manual",
    });
    expect(consent.status).toBe(303);
    expect(new URL(consent.headers.get("location") ?? "").searchParams.get("friendship_status_changed")).toBe("true");
    expect(await webhook.followsAccount(db, user.sub)).toBe(true);

    const without = line.beginWebLogin(config, { method: "signin", redirectUri, redirectTo: "/member-center" });
    expect(new URL(without.url, base).searchParams.has("bot_prompt")).toBe(false);
  });
});
