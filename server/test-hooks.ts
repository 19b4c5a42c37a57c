import { type AppConfig, opensTestHooks, TEST_HOOKS_HEADER } from "@platform/config";
import type { Database } from "@platform/db/client";
import {
  appointment,
  authAccount,
  authSession,
  member,
  memberMessage,
  reward,
  staffSession,
} from "@platform/db/schema";
import { isUploadedPhoto } from "@platform/db/schema/catalog";
import { quoteRequest } from "@platform/db/schema/quotes";
import { eq } from "drizzle-orm";
import express, { type Router } from "express";
import { z } from "zod";
import { consoleCookie } from "../app/adapters/console.server";
import { sendAppointmentMessages } from "../app/domain/appointments/messages.server";
import { bookTestAppointment } from "../app/domain/appointments/testing.server";
import { anchorStoreChains } from "../app/domain/audit/anchor.server";
import type { Auth } from "../app/domain/auth/auth.server";
import { placeholderEmail, setPassword, startSession } from "../app/domain/auth/flows.server";
import { bookHistory, type HistoryPlan, realisticHistory } from "../app/domain/demo/member-history";
import { uploadImage } from "../app/domain/images/images.server";
import { mediaStoreFor } from "../app/domain/images/storage.server";
import { photoJpeg } from "../app/domain/images/testing.server";
import { issueCardToken, resolveCardToken } from "../app/domain/loyalty/card-tokens.server";
import { memberByNumber } from "../app/domain/loyalty/member-lookup.server";
import { adjustPoints } from "../app/domain/loyalty/points.server";
import { redeemReward } from "../app/domain/loyalty/rewards.server";
import { changeRules } from "../app/domain/loyalty/rules.server";
import { startDueCampaigns } from "../app/domain/member-messages/campaigns.server";
import { type DeliveryDeps, deliverDue } from "../app/domain/member-messages/delivery.server";
import { recordExpiringCoupons, recordExpiringPoints } from "../app/domain/member-messages/occasions.server";
import { confirmMemberEmail, createMember } from "../app/domain/members/members.server";
import { createApiKey } from "../app/domain/pos/api-keys.server";
import { refreshRfm } from "../app/domain/segments/rfm.server";
import { INVITATION_PATH, inviteStaff } from "../app/domain/staff/accounts.server";
import { staffAuditContext } from "../app/domain/staff/actor";
import { createTestStaff } from "../app/domain/staff/testing.server";
import { loadStoreEditor, publishStore, saveStoreDraft } from "../app/domain/stores/console.server";
import { startOfTaipeiDay, taipeiIsoDate } from "../app/lib/time";
import { testUserId } from "./line/local-provider";

/**
 * Test fixtures over HTTP: browser tests create a member straight in the database and log in by
 * cookie, so each test starts where it needs to, on PGlite (inside the server process) and
 * PostgreSQL alike. Mounted only with APP_ENV=test and a TEST_HOOKS_SECRET (config.testHooks, which
 * production refuses), and every request must send that secret: the test runner generates one per
 * run, so APP_ENV=test set by mistake on a real server opens nothing.
 */
const newMember = z.object({
  phoneNumber: z.string().regex(/^\+8869\d{8}$/),
  password: z.string().min(8).optional(),
  name: z.string().default("測試會員"),
  email: z.email().optional(),
  /** An address given but not verified yet (member.pending_email). */
  pendingEmail: z.email().optional(),
  disabled: z.boolean().default(false),
  /** Address city (臺北市…), for campaign audiences. */
  city: z.string().max(10).optional(),
  marketing: z.object({ sms: z.boolean(), email: z.boolean(), line: z.boolean() }).partial().optional(),
  locale: z.enum(["zh-TW", "en"]).optional(),
});

const instant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** A member's history: explicit steps, or a realistic one (`entries` ledger entries, `coupons` coupons). */
const history = z.object({
  now: instant.optional(),
  realistic: z
    .object({ entries: z.number().int().min(1).max(2000), coupons: z.number().int().min(0).max(100) })
    .optional(),
  welcomeAt: instant.nullable().optional(),
  purchases: z
    .array(
      z.object({
        storeId: z.string().default("xinyi-flagship"),
        receiptNumber: z.string().min(1),
        netAmount: z.number().int().positive(),
        at: instant,
      }),
    )
    .default([]),
  adjustments: z.array(z.object({ amount: z.number().int(), reason: z.string().min(1), at: instant })).default([]),
  redemptions: z
    .array(
      z.object({
        rewardId: z.uuid(),
        at: instant,
        usedAt: instant.nullable().optional(),
        storeId: z.string().optional(),
      }),
    )
    .default([]),
  favourites: z.array(z.string()).default([]),
});

const newReward = z.object({
  name: z.string().min(1),
  kind: z.enum(["amount-off", "gift"]).default("amount-off"),
  amountOff: z.number().int().positive().nullable().default(null),
  pointsCost: z.number().int().positive(),
  stock: z.number().int().min(0).nullable().default(null),
  perMemberLimit: z.number().int().positive().nullable().default(null),
  couponValidDays: z.number().int().positive().default(90),
});

export function testHooks({
  db,
  auth,
  cardSecret,
  config,
  delivery,
}: {
  db: Database;
  auth: Auth;
  cardSecret: string;
  config: Pick<AppConfig, "testHooks" | "isProduction" | "media">;
  delivery: DeliveryDeps;
}): Router {
  if (!config.testHooks) throw new Error("the test hooks need APP_ENV=test and TEST_HOOKS_SECRET");
  if (config.isProduction) throw new Error("the test hooks must never run in production");
  const router = express.Router();
  // Without the run's secret the hooks do not exist (404, like any unknown path).
  router.use((req, res, next) => {
    if (opensTestHooks(config, req.get(TEST_HOOKS_HEADER))) return next();
    res.status(404).json({ error: { code: "not_found" } });
  });
  router.use(express.json({ limit: "10kb" }));

  router.post("/members", async (req, res) => {
    const input = newMember.parse(req.body);
    const ctx = await auth.$context;
    const user = await ctx.internalAdapter.createUser(
      {
        name: input.name,
        email: placeholderEmail(input.phoneNumber),
        phoneNumber: input.phoneNumber,
        phoneNumberVerified: true,
      },
      { method: "phone-number" },
    );
    if (input.password) await setPassword({ auth }, user.id, input.password);
    const created = await createMember(db, {
      userId: user.id,
      phoneNumber: input.phoneNumber,
      signupMethod: "phone",
      ip: null,
      locale: input.locale,
      profile: {
        nameZh: input.name,
        gender: "male",
        city: input.city,
        marketingSms: input.marketing?.sms ?? false,
        marketingEmail: input.marketing?.email ?? false,
        marketingLine: input.marketing?.line ?? false,
      },
    });
    if (input.email) await confirmMemberEmail(db, user.id, input.email.toLowerCase());
    if (input.pendingEmail) {
      await db.update(member).set({ pendingEmail: input.pendingEmail.toLowerCase() }).where(eq(member.userId, user.id));
    }
    if (input.disabled) await db.update(member).set({ disabled: true }).where(eq(member.userId, user.id));
    res.json({ userId: user.id, memberId: created.id, memberNumber: created.memberNumber });
  });

  router.post("/sessions", async (req, res) => {
    const { userId } = z.object({ userId: z.string() }).parse(req.body);
    const headers = await startSession(
      { db, auth },
      userId,
      new Headers({ "user-agent": req.get("user-agent") ?? "e2e" }),
    );
    res.json({ setCookie: headers.getSetCookie() });
  });

  // Ages a user's sessions, so a test can reach "your login is older than 15 minutes".
  router.post("/sessions/age", async (req, res) => {
    const { userId, minutes } = z
      .object({
        userId: z.string(),
        minutes: z
          .number()
          .int()
          .min(1)
          .max(60 * 24 * 30),
      })
      .parse(req.body);
    const at = new Date(Date.now() - minutes * 60_000);
    await db.update(authSession).set({ createdAt: at }).where(eq(authSession.userId, userId));
    res.json({ ok: true });
  });

  /** Books a history for a member (by user id) through the loyalty engine. */
  router.post("/members/:userId/history", async (req, res) => {
    const input = history.parse(req.body);
    const [found] = await db.select({ id: member.id }).from(member).where(eq(member.userId, req.params.userId));
    if (!found) {
      res.status(404).json({ error: { code: "member_not_found" } });
      return;
    }
    const plan: HistoryPlan = input.realistic
      ? realisticHistory(input.now ?? new Date(), { ...input.realistic, prefix: found.id.slice(0, 8) })
      : {
          welcomeAt: input.welcomeAt ?? null,
          purchases: input.purchases,
          adjustments: input.adjustments,
          redemptions: input.redemptions,
          favourites: input.favourites,
        };
    res.json(await bookHistory(db, found.id, plan));
  });

  /** A points adjustment now (e.g. to spend points behind an open page's back). */
  router.post("/members/:userId/adjust", async (req, res) => {
    const { amount, at } = z.object({ amount: z.number().int(), at: instant.optional() }).parse(req.body);
    const [found] = await db.select({ id: member.id }).from(member).where(eq(member.userId, req.params.userId));
    if (!found) {
      res.status(404).json({ error: { code: "member_not_found" } });
      return;
    }
    const entry = await adjustPoints(
      db,
      { memberId: found.id, amount, reason: "test", idempotencyKey: crypto.randomUUID() },
      at ?? new Date(),
    );
    res.json({ entryId: entry.id });
  });

  // Messages to members (ADR 034): a delivery pass or the daily reminders at a pinned instant, and what a member got.
  router.post("/messages/deliver", async (req, res) => {
    const { at, only, batches } = z
      .object({
        at: instant.optional(),
        only: z.literal("start").optional(),
        batches: z.number().int().min(1).optional(),
      })
      .parse(req.body);
    const now = at ?? new Date();
    // `only: "start"`: the campaigns due are queued (their audience taken) and nothing is sent (the bench times it).
    if (only === "start") {
      const started = Date.now();
      res.json({ started: await startDueCampaigns(db, now), ms: Date.now() - started });
      return;
    }
    // `batches`: at most that many claims (the bench interleaves delivery with page load).
    res.json(await deliverDue(delivery, now, { maxBatches: batches }));
  });

  // Showroom appointments (issue 37): one pass of the confirmations and reminders at a given instant.
  router.post("/appointments/messages", async (req, res) => {
    const { at } = z.object({ at: instant.optional() }).parse(req.body);
    res.json(await sendAppointmentMessages(delivery, at ?? new Date()));
  });

  // One booking by its reference: where it was booked (web or LIFF) and its state.
  router.get("/appointments/:reference", async (req, res) => {
    const [row] = await db
      .select({ source: appointment.source, status: appointment.status, memberId: appointment.memberId })
      .from(appointment)
      .where(eq(appointment.reference, req.params.reference));
    if (!row) {
      res.status(404).json({ error: { code: "not_found" } });
      return;
    }
    res.json(row);
  });

  // The nightly RFM summary (ADR 056) as of a given instant's Taipei day.
  router.post("/rfm/refresh", async (req, res) => {
    const { at } = z.object({ at: instant.optional() }).parse(req.body);
    res.json(await refreshRfm(db, at ?? new Date()));
  });

  router.post("/messages/reminders", async (req, res) => {
    const { at } = z.object({ at: instant.optional() }).parse(req.body);
    const now = at ?? new Date();
    res.json({ ...(await recordExpiringPoints(db, now)), coupons: await recordExpiringCoupons(db, now) });
  });

  // A member linked to a LINE test user of the local provider, who adds the Official Account (the fake sends the
  // follow webhook, as LINE does); the LINE user id comes back. The real linking is a browser journey of its own.
  router.post("/members/:userId/line", async (req, res) => {
    const { name, follow } = z
      .object({ name: z.string().min(1).max(80), follow: z.boolean().default(true) })
      .parse(req.body);
    const lineUserId = testUserId(name);
    await db.insert(authAccount).values({
      id: crypto.randomUUID(),
      accountId: lineUserId,
      providerId: "line",
      userId: req.params.userId,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    if (follow) {
      const answer = await fetch(`${req.protocol}://${req.get("host")}/__line/messaging/users/${lineUserId}/follow`, {
        method: "POST",
      });
      if (!answer.ok) throw new Error(`the LINE fake refused the follow: ${answer.status}`);
    }
    res.json({ lineUserId });
  });

  router.get("/members/:userId/messages", async (req, res) => {
    const [found] = await db.select({ id: member.id }).from(member).where(eq(member.userId, req.params.userId));
    if (!found) {
      res.status(404).json({ error: { code: "member_not_found" } });
      return;
    }
    const rows = await db
      .select({
        occasion: memberMessage.occasion,
        kind: memberMessage.kind,
        status: memberMessage.status,
        channel: memberMessage.channel,
        dueAt: memberMessage.dueAt,
        error: memberMessage.error,
      })
      .from(memberMessage)
      .where(eq(memberMessage.memberId, found.id))
      .orderBy(memberMessage.createdAt);
    res.json({ messages: rows });
  });

  /**
   * The trade accounts' multiplier in force from now (ADR 057): a browser test cannot save a rules version for today
   * through the console when another journey of its worker has already scheduled a later one.
   */
  router.post("/rules/trade-multiplier", async (req, res) => {
    const { permille } = z.object({ permille: z.number().int().min(1000).max(3000) }).parse(req.body);
    const rules = await changeRules(db, { tradeMultiplierPermille: permille, note: "browser test" });
    res.json({ id: rules.id });
  });

  router.post("/rewards", async (req, res) => {
    const [created] = await db.insert(reward).values(newReward.parse(req.body)).returning();
    res.json({ rewardId: created?.id });
  });

  /** What a scanner would get for a card token at an instant (the POS API checks at the real time). */
  router.post("/card-tokens/resolve", async (req, res) => {
    const { token, now } = z.object({ token: z.string().max(200), now: instant.optional() }).parse(req.body);
    const resolved = await resolveCardToken(db, cardSecret, token, now ?? new Date());
    res.json(resolved.ok ? { ok: true, memberNumber: resolved.member.memberNumber } : resolved);
  });

  // The minute's job's first step: the stores' audit chains that moved are anchored into the global chain.
  router.post("/audit/anchor-store-chains", async (_req, res) => {
    res.json({ problem: await anchorStoreChains(db, new Date()) });
  });

  // The POS side: a store's API key (what `npm run api-key -- create` prints).
  router.post("/api-keys", async (req, res) => {
    const input = z.object({ storeId: z.string().min(1), name: z.string().default("e2e till") }).parse(req.body);
    const { key, secret } = await createApiKey(db, input);
    res.json({ id: key.id, secret });
  });

  async function existingMember(memberNumber: string) {
    const found = await memberByNumber(db, memberNumber);
    if (!found) throw new Error(`no member ${memberNumber}`);
    return found;
  }

  // What the member card page shows as a QR code (the member center renders the same token).
  router.post("/card-tokens", async (req, res) => {
    const { memberNumber } = z.object({ memberNumber: z.string() }).parse(req.body);
    const found = await existingMember(memberNumber);
    res.json(issueCardToken(cardSecret, found.id));
  });

  // A booking of today at a store (issue 37 part 2: the showroom's journey), straight in the database: from 10
  // minutes ago (or the Taipei day's start, if later) for an hour, so it is today's and no no-show yet.
  router.post("/appointments", async (req, res) => {
    const input = z
      .object({
        storeId: z.string(),
        memberNumber: z.string(),
        kind: z.enum(["visit", "consultation", "measuring"]).default("visit"),
        note: z.string().optional(),
        materialIds: z.array(z.string()).optional(),
      })
      .parse(req.body);
    const found = await existingMember(input.memberNumber);
    const now = Date.now();
    const startsAt = new Date(Math.max(now - 10 * 60_000, startOfTaipeiDay(new Date(now)).getTime()));
    const row = await bookTestAppointment(db, {
      storeId: input.storeId,
      kind: input.kind,
      startsAt,
      memberId: found.id,
      note: input.note ?? null,
      materialIds: input.materialIds ?? [],
    });
    res.json({ id: row.id, reference: row.reference });
  });

  // A member who has points and redeems them for a coupon (the member center's redeem step).
  router.post("/coupons", async (req, res) => {
    const input = z
      .object({ memberNumber: z.string(), pointsCost: z.number().int().positive().default(100) })
      .parse(req.body);
    const found = await existingMember(input.memberNumber);
    const key = crypto.randomUUID();
    await adjustPoints(db, { memberId: found.id, amount: input.pointsCost, reason: "e2e", idempotencyKey: key });
    const [item] = await db
      .insert(reward)
      .values({ name: "NT$100 折價券", kind: "amount-off", amountOff: 100, pointsCost: input.pointsCost })
      .returning();
    const { coupon } = await redeemReward(db, { memberId: found.id, rewardId: item!.id, idempotencyKey: key });
    res.json({ code: coupon.code });
  });

  // A staff invitation as `npm run staff:create-admin` makes one (admins) or an admin would (others).
  router.post("/staff-invitations", async (req, res) => {
    const input = z
      .object({
        contact: z.string(),
        displayName: z.string(),
        role: z.enum(["staff", "manager", "admin"]),
        storeIds: z.array(z.string()).default([]),
      })
      .parse(req.body);
    const { token } = await inviteStaff(db, "bootstrap", input, {
      actorType: "system",
      label: "test-hooks",
      ip: null,
      userAgent: null,
      requestId: null,
    });
    res.json({ path: `${INVITATION_PATH}/${token}` });
  });

  // A staff member with a role, stores, an enrolled authenticator and a console session that has passed the
  // second factor (log in by cookie). The TOTP secret is returned, so a test can give codes (the step-up).
  router.post("/staff", async (req, res) => {
    const input = z
      .object({
        role: z.enum(["staff", "manager", "admin"]),
        storeIds: z.array(z.string()).default([]),
        displayName: z.string().min(1).max(60).optional(),
      })
      .parse(req.body);
    // cardSecret is the session secret, which also seals the TOTP secrets (ADR 020).
    const staff = await createTestStaff(db, cardSecret, input);
    res.json({
      userId: staff.userId,
      displayName: staff.displayName,
      totpSecret: staff.totpSecret,
      setCookie: [consoleCookie(staff.token, false)],
    });
  });

  // A store shows an uploaded phone photo first (the benches' "public pages with uploaded photos", issue 14):
  // a width × height JPEG goes through the real pipeline (uploadImage), then the console's own draft and
  // publish put it in front of the store's photos.
  router.post("/stores/:storeId/uploaded-photo", async (req, res) => {
    const { width, height } = z
      .object({ width: z.number().int().min(16).max(6000), height: z.number().int().min(16).max(6000) })
      .parse(req.body);
    const staff = await createTestStaff(db, cardSecret, { role: "admin", displayName: "測試管理員" });
    const actor = {
      userId: staff.userId,
      role: "admin" as const,
      displayName: staff.displayName,
      storeIds: [],
      currentStoreId: null,
      sessionId: "test-hooks",
      secondFactorAt: new Date(),
    };
    const audit = staffAuditContext(actor, { ip: null, userAgent: null, requestId: null });
    const now = new Date();
    const { image } = await uploadImage(
      db,
      actor,
      { bytes: await photoJpeg(width, height), alt: { altZh: "門市實景照片", altEn: "The showroom" } },
      mediaStoreFor(config.media),
      audit,
      now,
    );
    const id = req.params.storeId;
    const editor = await loadStoreEditor(db, actor, id, now);
    const { photos, ...content } = editor.content;
    const tokens = [
      { kind: "image" as const, id: image.id },
      ...photos.map((p) =>
        isUploadedPhoto(p) ? { kind: "image" as const, id: p.imageId } : { kind: "static" as const, src: p.src },
      ),
    ];
    const version = await saveStoreDraft(db, actor, id, editor.draft.version, content, audit, now, tokens);
    await publishStore(db, actor, id, version, audit, now);
    res.json({ imageId: image.id });
  });

  // Ages the second factor of a staff member's console sessions (a sensitive action then asks again).
  router.post("/staff/:userId/second-factor-age", async (req, res) => {
    const { minutes } = z.object({ minutes: z.number().int().min(1).max(600) }).parse(req.body);
    await db
      .update(staffSession)
      .set({ secondFactorAt: new Date(Date.now() - minutes * 60_000) })
      .where(eq(staffSession.userId, req.params.userId));
    res.json({ ok: true });
  });

  // Appointments as they ended up (ADR 048: the dashboard's showroom figures), straight in the table; the booking
  // itself has its own pages. Taipei date from the start; a check-in at the start for a kept one.
  router.post("/report-appointments", async (req, res) => {
    const rows = z
      .array(
        z.object({
          userId: z.string().min(1),
          storeId: z.string().min(1).max(200),
          kind: z.enum(["visit", "consultation"]),
          startsAt: instant,
          status: z.enum(["booked", "cancelled", "checked_in", "no_show"]),
        }),
      )
      .min(1)
      .max(50)
      .parse(req.body);
    for (const r of rows) {
      const [found] = await db.select({ id: member.id }).from(member).where(eq(member.userId, r.userId));
      if (!found) {
        res.status(404).json({ error: { code: "member_not_found" } });
        return;
      }
      await db.insert(appointment).values({
        reference: crypto.randomUUID().slice(0, 10).toUpperCase(),
        storeId: r.storeId,
        kind: r.kind,
        startsAt: r.startsAt,
        endsAt: new Date(r.startsAt.getTime() + 30 * 60_000),
        localDate: taipeiIsoDate(r.startsAt),
        memberId: found.id,
        status: r.status,
        checkedInAt: r.status === "checked_in" ? r.startsAt : null,
      });
    }
    res.json({ ok: true });
  });

  // An answered quote as it ended up (ADR 048: the dashboard's quotes figures), straight in the table; asking and
  // answering have their own pages.
  router.post("/report-quote", async (req, res) => {
    const r = z
      .object({ userId: z.string().min(1), storeId: z.string().min(1).max(200), askedAt: instant, answeredAt: instant })
      .parse(req.body);
    const [found] = await db.select({ id: member.id }).from(member).where(eq(member.userId, r.userId));
    if (!found) {
      res.status(404).json({ error: { code: "member_not_found" } });
      return;
    }
    await db.insert(quoteRequest).values({
      reference: crypto.randomUUID().slice(0, 8).toUpperCase(),
      memberId: found.id,
      storeId: r.storeId,
      status: "answered",
      createdAt: r.askedAt,
      answeredAt: r.answeredAt,
      validUntil: taipeiIsoDate(new Date(r.answeredAt.getTime() + 30 * 86_400_000)),
      total: 6_000,
    });
    res.json({ ok: true });
  });

  return router;
}
