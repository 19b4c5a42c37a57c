import { and, eq, notExists } from "drizzle-orm";
import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { issueCode, verifyCode } from "~/domain/auth/one-time-codes.server";
import { moveLineLoginToMember } from "~/domain/line/line.server";
import { findMemberByPhone } from "~/domain/members/members.server";
import { getApp } from "~/lib/context.server";
import { flowCookie } from "~/lib/flow-cookie.server";
import type { Translate } from "~/lib/i18n";
import { authUser, member } from "../../../server/db/schema";

/**
 * Step 3 of a LINE sign-up also verifies a phone number (members are found at the counter by
 * phone). The number the code went to travels in this cookie; once verified and already a
 * member's, `memberUserId` holds the member the LINE login may move to (the SMS code was the proof).
 */
export const linePhoneCookie = flowCookie(
  "signup_line_phone",
  z.object({
    phone: z.string(),
    consentAt: z.string(),
    resendAt: z.number(),
    verifiedMemberUserId: z.string().optional(),
  }),
  15 * 60,
);

export async function sendLinePhoneCode(
  context: Readonly<RouterContextProvider>,
  input: { phone: string; t: Translate },
) {
  const app = getApp(context);
  const issued = await issueCode(app.db, {
    purpose: "signup",
    target: input.phone,
    ip: app.ip,
    secret: app.config.secrets.session,
  });
  if (issued.ok) {
    await app.messaging.sendSms({
      to: input.phone,
      text: input.t("lineSignup.sms", { code: issued.code, minutes: 5 }),
    });
  }
  return issued;
}

export type LinePhoneVerified =
  | { ok: true; existingMemberUserId: string | null }
  | { ok: false; reason: "invalid" | "expired" | "too_many_attempts" };

/**
 * Checks the code. A number that is no member's becomes this user's phone (an abandoned phone
 * sign-up holding it is removed); a member's number is only remembered for the link offer.
 */
export async function verifyLinePhoneCode(
  context: Readonly<RouterContextProvider>,
  input: { userId: string; phone: string; code: string },
): Promise<LinePhoneVerified> {
  const app = getApp(context);
  const verified = await verifyCode(app.db, {
    purpose: "signup",
    target: input.phone,
    code: input.code,
    secret: app.config.secrets.session,
  });
  if (!verified.ok) return verified;
  const existing = await findMemberByPhone(app.db, input.phone);
  if (existing) return { ok: true, existingMemberUserId: existing.userId };
  await app.db.transaction(async (tx) => {
    await tx
      .delete(authUser)
      .where(
        and(
          eq(authUser.phoneNumber, input.phone),
          notExists(tx.select({ id: member.id }).from(member).where(eq(member.userId, authUser.id))),
        ),
      );
    await tx
      .update(authUser)
      .set({ phoneNumber: input.phone, phoneNumberVerified: true, updatedAt: new Date() })
      .where(eq(authUser.id, input.userId));
  });
  return { ok: true, existingMemberUserId: null };
}

export async function linkLineToExistingMember(
  context: Readonly<RouterContextProvider>,
  input: { fromUserId: string; toUserId: string },
): Promise<boolean> {
  return moveLineLoginToMember(getApp(context).db, input);
}
