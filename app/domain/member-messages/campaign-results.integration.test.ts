import { randomUUID } from "node:crypto";
import { type Database, rowsOf } from "@platform/db/client";
import { authAccount, campaign, campaignClick, lineFriend, member, memberMessage } from "@platform/db/schema";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { insertTestStores } from "@platform/testing/stores";
import { and, eq, inArray, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { recordPurchase } from "~/domain/loyalty/purchases.server";
import { newMember } from "~/domain/loyalty/testing.server";
import { testAdminActor } from "~/domain/staff/testing.server";
import type { LineMessagingClient } from "../line/messaging.server";
import { recordingEmail, refusingSms } from "../messaging/testing";
import { campaignOutcome, upliftPoints } from "./campaign-outcomes.server";
import { createCampaign, inControlGroup, scheduleCampaign } from "./campaigns.server";
import { clickToken, readClickToken, recordClick } from "./click-links.server";
import { type DeliveryDeps, deliverDue } from "./delivery.server";

/**
 * Campaign results (issue 38 part 5, ADR 055) on PGlite and, with TEST_DATABASE_URL, on PostgreSQL: the links of
 * a campaign e-mail become each member's click links, a click is recorded once and redirects only to the stored
 * address, a forged link names nothing; the control group receives nothing and is counted; and the attribution
 * rule — the last touch wins, the window ends with the Taipei day N days after the touch, one campaign per
 * purchase.
 */
let db: Database;
useMigratedTestDatabase("campaign_results", (handle) => {
  db = handle.db;
});

const SECRET = "c".repeat(40);
const BASE = "https://members.example.test";
const taipei = (local: string) => new Date(`${local}+08:00`);
const { actor: admin, audit } = testAdminActor("results-admin");

type Mail = { to: string; text: string; html?: string };
const email = recordingEmail();
const mails: Mail[] = email.sent;
const sms = refusingSms("no text message is expected here");
const deps = (): DeliveryDeps => ({ db, line: null, sms, email, secret: SECRET, publicBaseUrl: BASE });

let receipt = 0;
async function buy(memberId: string, local: string, netAmount = 1_000) {
  const at = taipei(local);
  return recordPurchase(
    db,
    { memberId, storeId: "S1", receiptNumber: `CR-${++receipt}`, netAmount, purchasedAt: at },
    at,
  );
}

beforeAll(async () => {
  await insertTestStores(db, ["S1"]);
});

describe("a campaign e-mail with a link and a control group", () => {
  const city = "澎湖縣";
  let campaignId: string;
  let memberIds: string[];
  let emails: Map<string, string>;

  beforeAll(async () => {
    const members = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        newMember(db, { city, email: `results-${i}-${randomUUID().slice(0, 6)}@example.test`, marketingEmail: true }),
      ),
    );
    memberIds = members.map((m) => m.id);
    emails = new Map(members.map((m) => [m.email as string, m.id]));
    const at = taipei("2027-03-03T10:00:00");
    const draft = await createCampaign(
      db,
      admin,
      {
        name: "春季新品",
        audience: { city },
        lineText: null,
        smsText: null,
        emailSubject: "春季新品到店",
        emailBody: "大理石新色：https://shop.example.test/spring?utm=mail。歡迎蒞臨。",
        controlPercent: 25,
        attributionDays: 7,
      },
      audit,
      at,
    );
    campaignId = draft.id;
    await scheduleCampaign(db, admin, draft.id, draft.version, null, audit, { lineOn: false }, at);
    await deliverDue(deps(), new Date(at.getTime() + 60_000));
  });

  it("holds back a deterministic share, sends them nothing, and counts them", async () => {
    const rows = await db.select().from(memberMessage).where(eq(memberMessage.campaignId, campaignId));
    expect(rows).toHaveLength(40);
    const control = rows.filter((r) => r.status === "control");
    const sent = rows.filter((r) => r.status === "sent");
    expect(control.length).toBeGreaterThan(0);
    expect(control.length).toBeLessThan(25);
    expect(sent.length + control.length).toBe(40);
    // Nobody of the control group got a mail; everyone else got one.
    const mailed = new Set(mails.map((m) => emails.get(m.to)));
    for (const r of control) expect(mailed.has(r.memberId), r.memberId).toBe(false);
    for (const r of sent) expect(mailed.has(r.memberId), r.memberId).toBe(true);
    // The split is the hash's: asked again, the same members.
    const again = await db
      .select({ id: member.id })
      .from(member)
      .where(and(inArray(member.id, memberIds), inControlGroup(campaignId, 25)));
    expect(again.map((r) => r.id).sort()).toEqual(control.map((r) => r.memberId).sort());
    const [c] = await db.select().from(campaign).where(eq(campaign.id, campaignId));
    expect(c?.queuedCount).toBe(sent.length);
    expect(c?.status).toBe("sent");
    // A second delivery pass later still sends them nothing.
    const before = mails.length;
    await deliverDue(deps(), taipei("2027-03-04T10:00:00"));
    expect(mails.length).toBe(before);
    const outcome = await campaignOutcome(db, campaignId);
    expect(outcome?.control.members).toBe(control.length);
    expect(outcome?.treated.members).toBe(sent.length);
    expect(outcome?.delivered).toBe(sent.length);
  });

  it("carries each member's own click link, which records one click and redirects to the stored address", async () => {
    const mail = mails[0] as Mail;
    expect(mail.text).not.toContain("shop.example.test");
    const link = /https:\/\/members\.example\.test\/r\/([A-Za-z0-9_-]{39})/.exec(mail.text);
    expect(link, mail.text).not.toBeNull();
    const token = link?.[1] as string;
    expect(mail.text).toContain(`${link?.[0]}。歡迎蒞臨。`);
    const named = readClickToken(SECRET, token);
    const [row] = await db
      .select()
      .from(memberMessage)
      .where(eq(memberMessage.id, named?.messageId as string));
    expect(row?.memberId).toBe(emails.get(mail.to));
    // Another member's mail carries another token.
    expect((mails[1] as Mail).text).not.toContain(token);

    const clickedAt = taipei("2027-03-04T12:00:00");
    const first = await recordClick(db, SECRET, token, clickedAt);
    expect(first).toEqual({ url: "https://shop.example.test/spring?utm=mail", first: true });
    const again = await recordClick(db, SECRET, token, taipei("2027-03-05T12:00:00"));
    expect(again).toEqual({ url: "https://shop.example.test/spring?utm=mail", first: false });
    const clicks = await db.select().from(campaignClick).where(eq(campaignClick.campaignId, campaignId));
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.clickedAt.toISOString()).toBe(clickedAt.toISOString());
    expect((await campaignOutcome(db, campaignId))?.clicked).toBe(1);
  });

  it("refuses a forged or altered link: it names nothing and records nothing", async () => {
    const [row] = await db
      .select()
      .from(memberMessage)
      .where(and(eq(memberMessage.campaignId, campaignId), eq(memberMessage.status, "sent")))
      .limit(1);
    const messageId = row?.id as string;
    // The test above may have clicked this very message: what counts is that nothing more is recorded.
    const before = await db.select().from(campaignClick).where(eq(campaignClick.messageId, messageId));
    // Signed with another secret; a link number the campaign does not have; a message that does not exist.
    expect(await recordClick(db, SECRET, clickToken("x".repeat(40), messageId, 0))).toBeNull();
    expect(await recordClick(db, SECRET, clickToken(SECRET, messageId, 1))).toBeNull();
    expect(await recordClick(db, SECRET, clickToken(SECRET, randomUUID(), 0))).toBeNull();
    const good = clickToken(SECRET, messageId, 0);
    const altered = `${good.slice(0, 5)}${good[5] === "A" ? "B" : "A"}${good.slice(6)}`;
    expect(await recordClick(db, SECRET, altered)).toBeNull();
    expect(await recordClick(db, SECRET, "https://evil.example/")).toBeNull();
    const clicks = await db.select().from(campaignClick).where(eq(campaignClick.messageId, messageId));
    expect(clicks).toEqual(before);
    // And a forged link to a message nobody clicked records nothing either.
    const unclicked = await db.execute(sql`
      select m.id from member_message m
       where m.campaign_id = ${campaignId} and m.status = 'sent'
         and not exists (select 1 from campaign_click c where c.message_id = m.id)
       limit 1`);
    const freshId = (rowsOf<{ id: string }>(unclicked)[0]?.id ?? "") as string;
    expect(freshId).not.toBe("");
    const fresh = clickToken(SECRET, freshId, 0);
    expect(
      await recordClick(db, SECRET, `${fresh.slice(0, 5)}${fresh[5] === "A" ? "B" : "A"}${fresh.slice(6)}`),
    ).toBeNull();
    expect(await db.select().from(campaignClick).where(eq(campaignClick.messageId, freshId))).toHaveLength(0);
  });

  it("compares the buyers of both groups over the same window", async () => {
    const rows = await db.select().from(memberMessage).where(eq(memberMessage.campaignId, campaignId));
    const control = rows.filter((r) => r.status === "control").map((r) => r.memberId);
    const treated = rows.filter((r) => r.status === "sent").map((r) => r.memberId);
    // Window: from the start (3 March 10:00) to the end of 10 March, Taipei.
    await buy(control[0] as string, "2027-03-05T15:00:00");
    await buy(treated[0] as string, "2027-03-10T23:59:00");
    await buy(treated[1] as string, "2027-03-06T11:00:00");
    await buy(treated[2] as string, "2027-03-11T00:00:00"); // the day after the window: not counted
    const o = await campaignOutcome(db, campaignId);
    expect(o?.treated.buyers).toBe(2);
    expect(o?.control.buyers).toBe(1);
    expect(upliftPoints(o as NonNullable<typeof o>)).toBeCloseTo((2 / treated.length - 1 / control.length) * 100, 6);
  });
});

describe("a LINE campaign with a link", () => {
  it("goes as one push per member, each with their own click link; without a link, as one multicast", async () => {
    const city = "連江縣";
    const calls: Array<{ kind: "push" | "multicast"; to: string[]; text: string; key: string }> = [];
    const textOf = (messages: unknown[]) => (messages[0] as { text: string }).text;
    const line = {
      async push(to: string, messages: unknown[], key: string) {
        calls.push({ kind: "push", to: [to], text: textOf(messages), key });
      },
      async multicast(to: string[], messages: unknown[], key: string) {
        calls.push({ kind: "multicast", to, text: textOf(messages), key });
      },
      async isFollower() {
        return true;
      },
    } as unknown as LineMessagingClient;
    const members = await Promise.all(Array.from({ length: 3 }, () => newMember(db, { city, marketingLine: true })));
    for (const m of members) {
      const lineUserId = `U${randomUUID().replace(/-/g, "")}`;
      await db.insert(authAccount).values({
        id: randomUUID(),
        accountId: lineUserId,
        providerId: "line",
        userId: m.userId,
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      await db.insert(lineFriend).values({ lineUserId, following: true, changedAt: new Date() });
    }
    const send = async (name: string, lineText: string, local: string) => {
      const at = taipei(local);
      const draft = await createCampaign(
        db,
        admin,
        { name, audience: { city }, lineText, smsText: null, emailSubject: null, emailBody: null },
        audit,
        at,
      );
      await scheduleCampaign(db, admin, draft.id, draft.version, null, audit, { lineOn: true }, at);
      await deliverDue({ ...deps(), line }, new Date(at.getTime() + 60_000));
    };
    await send("LINE 連結", "新品看這裡 https://shop.example.test/line", "2027-03-15T10:00:00");
    expect(calls.map((c) => c.kind)).toEqual(["push", "push", "push"]);
    expect(new Set(calls.map((c) => c.key)).size).toBe(3);
    const tokens = calls.map((c) => /\/r\/([A-Za-z0-9_-]{39})/.exec(c.text)?.[1]);
    expect(new Set(tokens).size).toBe(3);
    for (const c of calls) expect(c.text).not.toContain("shop.example.test");
    calls.length = 0;
    await send("LINE 無連結", "本週末門市活動", "2027-03-16T10:00:00");
    expect(calls.map((c) => [c.kind, c.to.length])).toEqual([["multicast", 3]]);
  });
});

describe("the attribution rule", () => {
  /** A sent campaign and its delivery to each member at `sentLocal` (Taipei). */
  async function sentCampaign(name: string, memberIds: string[], sentLocal: string, attributionDays = 7) {
    const sentAt = taipei(sentLocal);
    const [c] = await db
      .insert(campaign)
      .values({
        name,
        status: "sent",
        audience: {},
        emailSubject: name,
        emailBody: name,
        createdBy: "results-admin",
        startedAt: sentAt,
        scheduledAt: sentAt,
        attributionDays,
      })
      .returning();
    const id = c?.id as string;
    const messages = await db
      .insert(memberMessage)
      .values(
        memberIds.map((memberId) => ({
          memberId,
          occasion: `campaign:${id}`,
          kind: "campaign",
          campaignId: id,
          purpose: "marketing" as const,
          status: "sent" as const,
          channel: "email" as const,
          sentAt,
        })),
      )
      .returning();
    return { id, messages };
  }

  const attributed = async (id: string) => {
    const o = await campaignOutcome(db, id);
    return { purchases: o?.purchases, revenue: o?.revenue, pointsUsed: o?.pointsUsed };
  };

  it("ends the window with the Taipei day N days after the touch, and starts it at the touch", async () => {
    const [a, b, c] = await Promise.all([newMember(db), newMember(db), newMember(db)]);
    const ids = [a, b, c].map((m) => m?.id as string);
    // Delivered at 23:59 Taipei on 1 April: the 7-day window runs to the end of 8 April, Taipei.
    const edge = await sentCampaign("窗口邊界", ids, "2027-04-01T23:59:00");
    await buy(ids[0] as string, "2027-04-08T23:59:59", 1_200); // the last minute of the window: in
    await buy(ids[1] as string, "2027-04-09T00:00:00", 1_300); // the first instant after it: out
    await buy(ids[2] as string, "2027-04-01T23:58:00", 1_400); // before the delivery: out
    expect(await attributed(edge.id)).toEqual({ purchases: 1, revenue: 1_200, pointsUsed: 0 });
    // 16:00 UTC is midnight in Taipei: the same instants with a 1-day window.
    const short = await newMember(db);
    const one = await sentCampaign("一天", [short.id], "2027-04-20T00:00:00", 1);
    await buy(short.id, "2027-04-21T23:59:00", 500); // day D + 1: in
    await buy(short.id, "2027-04-22T00:00:00", 700); // day D + 2: out
    expect(await attributed(one.id)).toEqual({ purchases: 1, revenue: 500, pointsUsed: 0 });
  });

  it("gives a purchase to the last touch only: a later delivery, or a later click on an earlier campaign", async () => {
    const m = await newMember(db);
    const first = await sentCampaign("第一檔", [m.id], "2027-05-01T10:00:00");
    const second = await sentCampaign("第二檔", [m.id], "2027-05-03T10:00:00");
    await buy(m.id, "2027-05-02T12:00:00", 100); // only the first had touched: first
    await buy(m.id, "2027-05-04T12:00:00", 200); // the second is the last touch: second
    // The member clicks the first campaign's link on 5 May: it is the last touch again.
    await db.insert(campaignClick).values({
      messageId: first.messages[0]?.id as string,
      campaignId: first.id,
      memberId: m.id,
      linkIdx: 0,
      clickedAt: taipei("2027-05-05T09:00:00"),
    });
    await buy(m.id, "2027-05-05T20:00:00", 400); // first (its click)
    // 14 May: the second's window (to the end of 10 May) is over; the first's click window runs to the end of 12
    // May: over too. Nobody's.
    await buy(m.id, "2027-05-14T12:00:00", 800);
    expect(await attributed(first.id)).toEqual({ purchases: 2, revenue: 500, pointsUsed: 0 });
    expect(await attributed(second.id)).toEqual({ purchases: 1, revenue: 200, pointsUsed: 0 });
  });

  it("falls back to an earlier campaign whose window still holds the purchase when the last touch's is over", async () => {
    const m = await newMember(db);
    const long = await sentCampaign("長窗口", [m.id], "2027-06-01T10:00:00", 30);
    const brief = await sentCampaign("短窗口", [m.id], "2027-06-03T10:00:00", 1);
    await buy(m.id, "2027-06-10T10:00:00", 900);
    expect(await attributed(brief.id)).toEqual({ purchases: 0, revenue: 0, pointsUsed: 0 });
    expect(await attributed(long.id)).toEqual({ purchases: 1, revenue: 900, pointsUsed: 0 });
  });

  it("counts a purchase for at most one campaign, whatever the overlaps", async () => {
    const members = await Promise.all(Array.from({ length: 4 }, () => newMember(db)));
    const ids = members.map((m) => m.id);
    const campaigns = [
      await sentCampaign("重疊一", ids, "2027-07-01T10:00:00"),
      await sentCampaign("重疊二", ids.slice(0, 3), "2027-07-02T10:00:00"),
      await sentCampaign("重疊三", ids.slice(1), "2027-07-03T10:00:00"),
    ];
    for (const [i, id] of ids.entries()) {
      await buy(id, `2027-07-0${4 + i}T12:00:00`, 1_000);
      await buy(id, "2027-07-02T12:00:00", 100);
    }
    const totals = await Promise.all(campaigns.map((c) => attributed(c.id)));
    expect(totals.reduce((sum, t) => sum + (t.purchases ?? 0), 0)).toBe(8);
    expect(totals.reduce((sum, t) => sum + (t.revenue ?? 0), 0)).toBe(4 * 1_100);
    // 2 July at noon: the second for the three it reached, the first for the fourth. Later: the second for the
    // member the third did not reach, the third for the others.
    expect(totals.map((t) => t.purchases)).toEqual([1, 4, 3]);
    const purchases = await db
      .select()
      .from(memberMessage)
      .where(
        inArray(
          memberMessage.campaignId,
          campaigns.map((c) => c.id),
        ),
      );
    expect(purchases).toHaveLength(4 + 3 + 3);
  });
});
