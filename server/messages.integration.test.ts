import type { Database } from "@platform/db/client";
import type * as Schema from "@platform/db/schema";
import type * as Metrics from "@platform/metrics";
import { messageResults, resultsSince } from "@platform/testing/metrics";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as LoyaltyPoints from "../app/domain/loyalty/points.server";
import type * as LoyaltyPurchases from "../app/domain/loyalty/purchases.server";
import type * as Campaigns from "../app/domain/member-messages/campaigns.server";
import type * as Delivery from "../app/domain/member-messages/delivery.server";
import type * as Occasions from "../app/domain/member-messages/occasions.server";
import type * as Settings from "../app/domain/member-messages/settings.server";
import type * as Unsubscribe from "../app/domain/member-messages/unsubscribe.server";
import type * as ProfileUpdate from "../app/domain/members/profile-update.server";
import type * as Refusals from "../app/domain/refusals";
import { testAdminActor } from "../app/domain/staff/testing.server";
import { testUserId } from "./line/local-provider";
import { type DevApp, freePort, startDevApp } from "./testing/dev-app";

/**
 * Messages to members (issue 16, ADR 034) on one app with its local LINE Messaging fake, the SMS and e-mail
 * outboxes: the channel each member gets, the automatic messages once per occasion (a job run twice records
 * one), campaigns to an audience with the quiet hours, the weekly cap, a refusal after queueing, LINE's 429
 * mid-campaign (the rest later, nobody twice), a blocked LINE user learnt from the profile check, and the
 * unsubscribe tokens. The instance's own dispatcher is stopped: every pass here runs at a pinned instant.
 */

const HOOKS_SECRET = "messages-test-hooks-secret-0123456789";
let app: DevApp;
let base: string;
let db: Database;
let schema: typeof Schema;
let delivery: typeof Delivery;
let occasions: typeof Occasions;
let campaigns: typeof Campaigns;
let settings: typeof Settings;
let refusals: typeof Refusals;
let unsubscribe: typeof Unsubscribe;
let points: typeof LoyaltyPoints;
let purchases: typeof LoyaltyPurchases;
let profile: typeof ProfileUpdate;

beforeAll(async () => {
  const port = await freePort();
  app = await startDevApp({ APP_ENV: "test", PORT: String(port), TEST_HOOKS_SECRET: HOOKS_SECRET }, "messages");
  base = app.base;
  db = app.running.database.db;
  await app.running.dispatcher.stop();
  const load = (file: string) => app.vite.ssrLoadModule(file);
  schema = (await load("/platform/db/schema/index.ts")) as typeof Schema;
  delivery = (await load("/app/domain/member-messages/delivery.server.ts")) as typeof Delivery;
  occasions = (await load("/app/domain/member-messages/occasions.server.ts")) as typeof Occasions;
  campaigns = (await load("/app/domain/member-messages/campaigns.server.ts")) as typeof Campaigns;
  settings = (await load("/app/domain/member-messages/settings.server.ts")) as typeof Settings;
  refusals = (await load("/app/domain/refusals.ts")) as typeof Refusals;
  unsubscribe = (await load("/app/domain/member-messages/unsubscribe.server.ts")) as typeof Unsubscribe;
  points = (await load("/app/domain/loyalty/points.server.ts")) as typeof LoyaltyPoints;
  purchases = (await load("/app/domain/loyalty/purchases.server.ts")) as typeof LoyaltyPurchases;
  profile = (await load("/app/domain/members/profile-update.server.ts")) as typeof ProfileUpdate;
}, 180_000);

afterAll(() => app?.stop());

/** A Taipei wall-clock time as an instant (Taipei is UTC+8 all year). */
const taipei = (iso: string) => new Date(`${iso}+08:00`);

async function hook<T>(path: string, body?: unknown, method = "POST"): Promise<T> {
  const response = await fetch(`${base}/__test${path}`, {
    method,
    headers: { "content-type": "application/json", "x-test-hooks-secret": HOOKS_SECRET },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as T;
}

let phoneSeq = 0;
type NewMember = { userId: string; memberId: string; memberNumber: string; phone: string; lineUserId: string | null };

async function newMember(
  options: {
    name?: string;
    city?: string;
    email?: string;
    marketing?: { sms?: boolean; email?: boolean; line?: boolean };
    line?: "following" | "linked" | null;
    locale?: "zh-TW" | "en";
  } = {},
): Promise<NewMember> {
  const phone = `+8869${String(70_000_000 + process.pid * 100 + ++phoneSeq).slice(-8)}`;
  const created = await hook<{ userId: string; memberId: string; memberNumber: string }>("/members", {
    phoneNumber: phone,
    name: options.name ?? "訊息會員",
    city: options.city,
    email: options.email,
    marketing: options.marketing,
    locale: options.locale,
  });
  let lineUserId: string | null = null;
  if (options.line) {
    lineUserId = testUserId(`messages-${created.memberNumber}`);
    await db.insert(schema.authAccount).values({
      id: crypto.randomUUID(),
      accountId: lineUserId,
      providerId: "line",
      userId: created.userId,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    if (options.line === "following") {
      const res = await fetch(`${base}/__line/messaging/users/${lineUserId}/follow`, { method: "POST" });
      expect(res.status).toBe(200);
    }
  }
  return { ...created, phone, lineUserId };
}

const deps = () => app.running.delivery;

/** hanliving_messages_total for LINE, by result (the app's own registry, loaded through the same Vite server). */
async function lineCounts() {
  const { registry } = (await app.vite.ssrLoadModule("/platform/metrics.ts")) as typeof Metrics;
  return messageResults(registry, { channel: "line" });
}

async function messagesOf(memberId: string) {
  return db
    .select()
    .from(schema.memberMessage)
    .where(eq(schema.memberMessage.memberId, memberId))
    .orderBy(schema.memberMessage.createdAt);
}

async function lineSentTo(userId: string) {
  const res = await fetch(`${base}/__line/messaging/sent?to=${userId}`);
  const body = (await res.json()) as {
    sent: { kind: string; to: string[]; deliveredTo: string[]; retryKey: string | null; messages: unknown[] }[];
  };
  return body.sent;
}

async function outboxTo(recipient: string) {
  return db.select().from(schema.messageOutbox).where(eq(schema.messageOutbox.recipient, recipient));
}

const { actor: admin, audit } = testAdminActor("messages-test-admin");

describe("automatic messages", () => {
  it("a purchase sends its receipt by LINE to a member who follows the account, once, with a Flex card", async () => {
    const m = await newMember({ name: "林雅婷", line: "following" });
    const at = taipei("2027-02-03T14:00:00");
    await purchases.recordPurchase(
      db,
      {
        memberId: m.memberId,
        storeId: "xinyi-flagship",
        receiptNumber: `R-${m.memberNumber}`,
        netAmount: 12_800,
        purchasedAt: at,
      },
      at,
    );
    const report = await delivery.deliverDue(deps(), new Date(at.getTime() + 1000));
    expect(report.sent).toBeGreaterThanOrEqual(1);
    const [receipt] = (await messagesOf(m.memberId)).filter((r) => r.kind === "receipt");
    expect(receipt).toMatchObject({ status: "sent", channel: "line", purpose: "service" });
    const sent = await lineSentTo(m.lineUserId as string);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.kind).toBe("push");
    const flex = JSON.stringify(sent[0]?.messages);
    expect(flex).toContain('"type":"flex"');
    expect(flex).toContain("信義旗艦店");
    expect(flex).toContain("NT$12,800");
    expect(flex).toContain("+128 點");
    // A second pass sends nothing more.
    await delivery.deliverDue(deps(), new Date(at.getTime() + 60_000));
    expect(await lineSentTo(m.lineUserId as string)).toHaveLength(1);
  });

  it("goes by the next channel a member can be reached on, in their language; nowhere is 'unreachable'", async () => {
    const withEmail = await newMember({ name: "Amy Chen", email: `amy-${Date.now()}@example.com`, locale: "en" });
    const nothing = await newMember({ name: "無聯絡" });
    const at = taipei("2027-02-04T14:00:00");
    for (const m of [withEmail, nothing]) {
      await purchases.recordPurchase(
        db,
        {
          memberId: m.memberId,
          storeId: "banqiao",
          receiptNumber: `R-${m.memberNumber}`,
          netAmount: 3_000,
          purchasedAt: at,
        },
        at,
      );
    }
    await delivery.deliverDue(deps(), new Date(at.getTime() + 1000));
    // The receipt's channels by default are LINE and e-mail (no text message per purchase).
    const [emailed] = (await messagesOf(withEmail.memberId)).filter((r) => r.kind === "receipt");
    expect(emailed).toMatchObject({ status: "sent", channel: "email" });
    const inbox = await db
      .select()
      .from(schema.messageOutbox)
      .where(eq(schema.messageOutbox.jobId, emailed?.id ?? ""));
    expect(inbox[0]?.subject).toBe("Your purchase");
    expect(inbox[0]?.body).toContain("Thank you for your purchase of NT$3,000 at Banqiao");
    expect(inbox[0]?.headers).toBeNull();
    const [none] = (await messagesOf(nothing.memberId)).filter((r) => r.kind === "receipt");
    expect(none).toMatchObject({ status: "unreachable", channel: null });
  });

  it("points expiring in 30 days are recorded once however often the job runs, then sent once", async () => {
    const m = await newMember({ name: "到期提醒" });
    // Points earned in 2026 are good through 2027-12-31.
    await points.adjustPoints(
      db,
      { memberId: m.memberId, amount: 500, reason: "test", idempotencyKey: crypto.randomUUID() },
      taipei("2026-05-01T10:00:00"),
    );
    const dec1 = taipei("2027-12-01T10:00:00");
    const first = await occasions.recordExpiringPoints(db, dec1);
    const second = await occasions.recordExpiringPoints(db, dec1);
    expect(first.d30).toBeGreaterThanOrEqual(1);
    expect(second.d30).toBe(0);
    await hook("/messages/reminders", { at: new Date(dec1.getTime() + 3600_000).toISOString() });
    const rows = (await messagesOf(m.memberId)).filter((r) => r.kind.startsWith("points-expiring"));
    expect(rows.map((r) => r.occasion)).toEqual(["points-expiring-30:2027-12-31"]);
    await delivery.deliverDue(deps(), new Date(dec1.getTime() + 5000));
    await delivery.deliverDue(deps(), new Date(dec1.getTime() + 10_000));
    const sms = await outboxTo(m.phone);
    expect(sms).toHaveLength(1);
    expect(sms[0]?.body).toBe("【漢生活】到期提醒 您好，您有 500 點將於 2027/12/31 到期，歡迎在到期前兌換好禮。");
    // Seven days before: the second reminder, not a second 30-day one.
    const dec24 = taipei("2027-12-24T10:00:00");
    expect(await occasions.recordExpiringPoints(db, dec24)).toEqual({ d30: 0, d7: expect.any(Number) });
    expect((await messagesOf(m.memberId)).map((r) => r.occasion).filter((o) => o.startsWith("points"))).toEqual([
      "points-expiring-30:2027-12-31",
      "points-expiring-7:2027-12-31",
    ]);
  });

  it("a kind switched off sends nothing (also what was already queued), and its text is the admin's", async () => {
    const m = await newMember({ name: "生日會員", line: "following" });
    const at = taipei("2027-02-05T10:00:00");
    await occasions.recordOccasion(
      db,
      { memberId: m.memberId, occasion: "birthday:2027", kind: "birthday", data: { points: 200 } },
      at,
    );
    const before = await settings.automaticSetting(db, "birthday");
    await settings.saveAutomaticSetting(
      db,
      admin,
      "birthday",
      before.version,
      { enabled: false, text: before.text, channels: before.channels },
      audit,
      at,
    );
    await delivery.deliverDue(deps(), new Date(at.getTime() + 1000));
    expect((await messagesOf(m.memberId)).find((r) => r.kind === "birthday")).toMatchObject({ status: "cancelled" });
    const off = await settings.automaticSetting(db, "birthday");
    await settings.saveAutomaticSetting(
      db,
      admin,
      "birthday",
      off.version,
      { enabled: true, text: { "zh-TW": "{name}，生日快樂！送您 {points} 點。", en: off.text.en }, channels: ["line"] },
      audit,
      at,
    );
    await occasions.recordOccasion(
      db,
      { memberId: m.memberId, occasion: "birthday:2028", kind: "birthday", data: { points: 200 } },
      at,
    );
    await delivery.deliverDue(deps(), new Date(at.getTime() + 2000));
    const sent = await lineSentTo(m.lineUserId as string);
    expect(JSON.stringify(sent.at(-1)?.messages)).toContain("生日會員，生日快樂！送您 200 點。");
    // A stale version is told, not overwritten.
    await expect(
      settings.saveAutomaticSetting(
        db,
        admin,
        "birthday",
        off.version,
        { enabled: false, text: off.text, channels: off.channels },
        audit,
        at,
      ),
    ).rejects.toBeInstanceOf(refusals.VersionConflict);
  });

  it("a member who blocked the account without a webhook is found out by the profile check and reached by text", async () => {
    const m = await newMember({ name: "已封鎖", line: "following" });
    await fetch(`${base}/__line/messaging/users/${m.lineUserId}/unfollow?webhook=0`, { method: "POST" });
    const at = taipei("2027-02-06T10:00:00");
    await occasions.recordOccasion(
      db,
      { memberId: m.memberId, occasion: "tier-up:test", kind: "tier-up", data: { tier: "silver" } },
      at,
    );
    await delivery.deliverDue(deps(), new Date(at.getTime() + 1000));
    const [row] = (await messagesOf(m.memberId)).filter((r) => r.kind === "tier-up");
    expect(row).toMatchObject({ status: "sent", channel: "sms" });
    expect((await lineSentTo(m.lineUserId as string)).filter((s) => s.kind === "push")).toHaveLength(0);
    const [friend] = await db
      .select()
      .from(schema.lineFriend)
      .where(eq(schema.lineFriend.lineUserId, m.lineUserId as string));
    expect(friend?.following).toBe(false);
    expect((await outboxTo(m.phone))[0]?.body).toContain("您已升級為銀卡會員");
  });
});

describe("campaigns", () => {
  const texts = {
    lineText: "銀卡會員限定：大理石系列九折，本週末於各門市。",
    smsText: "銀卡會員限定：大理石系列九折，本週末於各門市。",
    emailSubject: "銀卡會員限定優惠",
    emailBody: "大理石系列九折，本週末於各門市。",
  };

  async function makeSilver(m: NewMember) {
    await db
      .insert(schema.loyaltyAccount)
      .values({ memberId: m.memberId, tier: "silver" })
      .onConflictDoUpdate({ target: schema.loyaltyAccount.memberId, set: { tier: "silver" } });
  }

  it("reaches exactly the audience on the expected channels, holds it through the quiet hours, skips who refused", async () => {
    const city = "金門縣"; // a city only this test's members live in
    const lineFan = await newMember({
      name: "LINE 會員",
      city,
      line: "following",
      marketing: { line: true, sms: true },
    });
    const texter = await newMember({ name: "簡訊會員", city, marketing: { sms: true } });
    const mailer = await newMember({
      name: "郵件會員",
      city,
      email: `mail-${Date.now()}@example.com`,
      marketing: { email: true },
    });
    const refuser = await newMember({ name: "後來拒收", city, marketing: { sms: true } });
    const noConsent = await newMember({ name: "未同意", city });
    const basic = await newMember({ name: "一般會員", city, marketing: { sms: true } });
    const elsewhere = await newMember({ name: "外縣市", city: "澎湖縣", marketing: { sms: true } });
    for (const m of [lineFan, texter, mailer, refuser, noConsent, elsewhere]) await makeSilver(m);

    const at = taipei("2027-03-01T22:00:00"); // a Monday, in the quiet hours
    const audience = { tiers: ["silver"], city };
    const count = await campaigns.countAudience(db, audience, texts, true, at);
    expect(count).toEqual({ total: 5, line: 1, sms: 2, email: 1, optedOut: 1, unreachable: 0 });
    const draft = await campaigns.createCampaign(db, admin, { name: "銀卡週末", audience, ...texts }, audit, at);
    // A time inside the quiet hours or in the past is refused; "now" is taken, and held.
    await expect(
      campaigns.scheduleCampaign(
        db,
        admin,
        draft.id,
        draft.version,
        taipei("2027-03-01T23:00:00"),
        audit,
        { lineOn: true },
        at,
      ),
    ).rejects.toMatchObject({ code: "quiet_hours" });
    await expect(
      campaigns.scheduleCampaign(
        db,
        admin,
        draft.id,
        draft.version,
        taipei("2027-03-01T10:00:00"),
        audit,
        { lineOn: true },
        at,
      ),
    ).rejects.toMatchObject({ code: "past" });
    await campaigns.scheduleCampaign(db, admin, draft.id, draft.version, null, audit, { lineOn: true }, at);

    await delivery.deliverDue(deps(), new Date(at.getTime() + 1000));
    const held = await db.select().from(schema.memberMessage).where(eq(schema.memberMessage.campaignId, draft.id));
    expect(held).toHaveLength(5);
    expect(held.every((r) => r.status === "held")).toBe(true);
    expect(held[0]?.dueAt.toISOString()).toBe(taipei("2027-03-02T09:00:00").toISOString());
    expect(held.map((r) => r.memberId)).not.toContain(basic.memberId);
    expect(held.map((r) => r.memberId)).not.toContain(elsewhere.memberId);

    // Overnight the refuser turns text messages off: the queued message is not sent.
    await profile.refuseMarketing(
      db,
      { memberId: refuser.memberId, channel: "sms", source: "member-center", ip: null },
      taipei("2027-03-02T07:00:00"),
    );
    await delivery.deliverDue(deps(), taipei("2027-03-02T08:59:00"));
    expect(
      (await db.select().from(schema.memberMessage).where(eq(schema.memberMessage.campaignId, draft.id))).every(
        (r) => r.status === "held",
      ),
    ).toBe(true);
    await delivery.deliverDue(deps(), taipei("2027-03-02T09:00:30"));

    const results = await campaigns.campaignResults(db, draft.id);
    expect(results.byStatus).toEqual({ sent: 3, "opted-out": 2 });
    expect(results.byChannel).toEqual({ line: 1, sms: 1, email: 1 });
    const [row] = await db.select().from(schema.campaign).where(eq(schema.campaign.id, draft.id));
    expect(row?.status).toBe("sent");
    expect(row?.queuedCount).toBe(5);
    // LINE: the text and the way to refuse; SMS: brand, text, the refusal instruction; e-mail: RFC 8058 headers.
    const line = await lineSentTo(lineFan.lineUserId as string);
    expect(JSON.stringify(line.at(-1)?.messages)).toContain("/member-center/privacy#marketing");
    expect((await outboxTo(texter.phone))[0]?.body).toBe(
      "【漢生活】銀卡會員限定：大理石系列九折，本週末於各門市。 拒收請至會員中心「隱私與資料」關閉簡訊優惠",
    );
    expect(await outboxTo(refuser.phone)).toHaveLength(0);
    const [mail] = await db
      .select()
      .from(schema.messageOutbox)
      .where(and(eq(schema.messageOutbox.channel, "email"), eq(schema.messageOutbox.subject, "銀卡會員限定優惠")));
    expect(mail?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail?.headers?.["List-Unsubscribe"]).toMatch(/^<http:\/\/[^>]+\/unsubscribe\/[^>]+>$/);
    expect(mail?.html).toContain(mail?.headers?.["List-Unsubscribe"]?.slice(1, -1));
  });

  it("refuses an empty audience", async () => {
    const at = taipei("2027-03-03T10:00:00");
    const draft = await campaigns.createCampaign(
      db,
      admin,
      { name: "沒有人", audience: { city: "連江縣", tiers: ["gold"] }, ...texts },
      audit,
      at,
    );
    await expect(
      campaigns.scheduleCampaign(db, admin, draft.id, draft.version, null, audit, { lineOn: true }, at),
    ).rejects.toMatchObject({ code: "empty_audience" });
  });

  it("caps marketing at two a Taipei week per member", async () => {
    const city = "嘉義市";
    const m = await newMember({ name: "常收訊息", city, marketing: { sms: true } });
    const at = taipei("2027-03-08T10:00:00"); // Monday
    for (let i = 1; i <= 3; i++) {
      const c = await campaigns.createCampaign(
        db,
        admin,
        { name: `第 ${i} 則`, audience: { city }, ...texts, lineText: null, emailSubject: null, emailBody: null },
        audit,
        at,
      );
      await campaigns.scheduleCampaign(db, admin, c.id, c.version, null, audit, { lineOn: true }, at);
      await delivery.deliverDue(deps(), new Date(at.getTime() + i * 60_000));
    }
    const statuses = (await messagesOf(m.memberId)).filter((r) => r.kind === "campaign").map((r) => r.status);
    expect(statuses).toEqual(["sent", "sent", "capped"]);
    // The next week counts again.
    const c4 = await campaigns.createCampaign(
      db,
      admin,
      { name: "下週", audience: { city }, ...texts, lineText: null, emailSubject: null, emailBody: null },
      audit,
      at,
    );
    const nextWeek = taipei("2027-03-15T10:00:00");
    await campaigns.scheduleCampaign(db, admin, c4.id, c4.version, null, audit, { lineOn: true }, nextWeek);
    await delivery.deliverDue(deps(), new Date(nextWeek.getTime() + 1000));
    expect((await messagesOf(m.memberId)).filter((r) => r.kind === "campaign").map((r) => r.status)).toEqual([
      "sent",
      "sent",
      "capped",
      "sent",
    ]);
  });

  it("a 429 from LINE mid-campaign: the rest goes later with the same retry key, nobody twice", async () => {
    const city = "新竹市";
    const fans: NewMember[] = [];
    for (let i = 0; i < 3; i++)
      fans.push(await newMember({ name: `粉絲${i}`, city, line: "following", marketing: { line: true } }));
    const at = taipei("2027-03-22T10:00:00");
    const c = await campaigns.createCampaign(
      db,
      admin,
      { name: "限額", audience: { city }, ...texts, smsText: null, emailSubject: null, emailBody: null },
      audit,
      at,
    );
    await campaigns.scheduleCampaign(db, admin, c.id, c.version, null, audit, { lineOn: true }, at);
    const countsBefore = await lineCounts();
    await fetch(`${base}/__line/messaging/quota`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ remaining: 0 }),
    });
    await delivery.deliverDue(deps(), new Date(at.getTime() + 1000));
    const waiting = await db.select().from(schema.memberMessage).where(eq(schema.memberMessage.campaignId, c.id));
    expect(waiting.every((r) => r.status === "queued" && r.error === "line:quota_or_rate")).toBe(true);
    const keys = new Set(waiting.map((r) => r.retryKey));
    expect(keys.size).toBe(1);
    await fetch(`${base}/__line/messaging/quota`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ remaining: null }),
    });
    // Not before its back-off; then once.
    await delivery.deliverDue(deps(), new Date(at.getTime() + 5000));
    expect((await campaigns.campaignResults(db, c.id)).byStatus.sent ?? 0).toBe(0);
    await delivery.deliverDue(deps(), new Date(at.getTime() + 60_000));
    await delivery.deliverDue(deps(), new Date(at.getTime() + 120_000));
    expect((await campaigns.campaignResults(db, c.id)).byStatus).toEqual({ sent: 3 });
    // In /metrics the 429 is a retry, not a failure (the "messages failing" alert is for messages that are lost).
    expect(resultsSince(countsBefore, await lineCounts())).toEqual({ sent: 1, retry: 1, failed: 0 });
    for (const f of fans) {
      const sent = (await lineSentTo(f.lineUserId as string)).filter((s) => s.kind === "multicast");
      expect(sent).toHaveLength(1);
      expect(sent[0]?.retryKey).toBe([...keys][0]);
    }
  });
});

describe("unsubscribe tokens", () => {
  it("accepts its own token, refuses a forged, altered or expired one", () => {
    const secret = "unsubscribe-test-secret";
    const memberId = "7a1f3c2e-0b4d-4e5f-8a9b-0c1d2e3f4a5b";
    const now = new Date("2027-01-01T00:00:00Z");
    const token = unsubscribe.unsubscribeToken(secret, { memberId, channel: "email" }, now);
    expect(unsubscribe.checkUnsubscribeToken(secret, token, now)).toEqual({ ok: true, memberId, channel: "email" });
    expect(unsubscribe.checkUnsubscribeToken("another-secret", token, now)).toEqual({ ok: false, reason: "invalid" });
    const altered = token.replace(memberId, "7a1f3c2e-0b4d-4e5f-8a9b-0c1d2e3f4a5c");
    expect(unsubscribe.checkUnsubscribeToken(secret, altered, now)).toEqual({ ok: false, reason: "invalid" });
    expect(unsubscribe.checkUnsubscribeToken(secret, "not.a.token", now)).toEqual({ ok: false, reason: "invalid" });
    const later = new Date(now.getTime() + (unsubscribe.UNSUBSCRIBE_TOKEN_DAYS + 1) * 86_400_000);
    expect(unsubscribe.checkUnsubscribeToken(secret, token, later)).toEqual({ ok: false, reason: "expired" });
  });
});
