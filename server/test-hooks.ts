import { eq } from "drizzle-orm";
import express, { type Router } from "express";
import { z } from "zod";
import type { Auth } from "../app/domain/auth/auth.server";
import { placeholderEmail, setPassword, startSession } from "../app/domain/auth/flows.server";
import { issueCardToken } from "../app/domain/loyalty/card-tokens.server";
import { adjustPoints } from "../app/domain/loyalty/points.server";
import { redeemReward } from "../app/domain/loyalty/rewards.server";
import { confirmMemberEmail, createMember } from "../app/domain/members/members.server";
import { createApiKey } from "../app/domain/pos/api-keys.server";
import type { Database } from "./db/client";
import { member, reward } from "./db/schema";

/**
 * Test fixtures over HTTP, mounted only when APP_ENV=test (never in development or production):
 * browser tests create a member straight in the database and log in by cookie, so each test starts
 * where it needs to, on PGlite (inside the server process) and PostgreSQL alike.
 */
const newMember = z.object({
  phoneNumber: z.string().regex(/^\+8869\d{8}$/),
  password: z.string().min(8).optional(),
  name: z.string().default("測試會員"),
  email: z.email().optional(),
  disabled: z.boolean().default(false),
});

export function testHooks({ db, auth, cardSecret }: { db: Database; auth: Auth; cardSecret: string }): Router {
  const router = express.Router();
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
      profile: { nameZh: input.name, gender: "male", marketingSms: false, marketingEmail: false, marketingLine: false },
    });
    if (input.email) await confirmMemberEmail(db, user.id, input.email.toLowerCase());
    if (input.disabled) await db.update(member).set({ disabled: true }).where(eq(member.userId, user.id));
    res.json({ userId: user.id, memberNumber: created.memberNumber });
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

  // The POS side: a store's API key (what `npm run api-key -- create` prints).
  router.post("/api-keys", async (req, res) => {
    const input = z.object({ storeId: z.string().min(1), name: z.string().default("e2e till") }).parse(req.body);
    const { key, secret } = await createApiKey(db, input);
    res.json({ id: key.id, secret });
  });

  async function memberByNumber(memberNumber: string) {
    const [found] = await db.select().from(member).where(eq(member.memberNumber, memberNumber));
    if (!found) throw new Error(`no member ${memberNumber}`);
    return found;
  }

  // What the member card page shows as a QR code (the member center renders the same token).
  router.post("/card-tokens", async (req, res) => {
    const { memberNumber } = z.object({ memberNumber: z.string() }).parse(req.body);
    const found = await memberByNumber(memberNumber);
    res.json(issueCardToken(cardSecret, found.id));
  });

  // A member who has points and redeems them for a coupon (the member center's redeem step).
  router.post("/coupons", async (req, res) => {
    const input = z
      .object({ memberNumber: z.string(), pointsCost: z.number().int().positive().default(100) })
      .parse(req.body);
    const found = await memberByNumber(input.memberNumber);
    const key = crypto.randomUUID();
    await adjustPoints(db, { memberId: found.id, amount: input.pointsCost, reason: "e2e", idempotencyKey: key });
    const [item] = await db
      .insert(reward)
      .values({ name: "NT$100 折價券", kind: "amount-off", amountOff: 100, pointsCost: input.pointsCost })
      .returning();
    const { coupon } = await redeemReward(db, { memberId: found.id, rewardId: item!.id, idempotencyKey: key });
    res.json({ code: coupon.code });
  });

  return router;
}
