import { eq } from "drizzle-orm";
import express, { type Router } from "express";
import { z } from "zod";
import type { Auth } from "../app/domain/auth/auth.server";
import { placeholderEmail, setPassword, startSession } from "../app/domain/auth/flows.server";
import { confirmMemberEmail, createMember } from "../app/domain/members/members.server";
import type { Database } from "./db/client";
import { authSession, member } from "./db/schema";

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

export function testHooks({ db, auth }: { db: Database; auth: Auth }): Router {
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

  return router;
}
