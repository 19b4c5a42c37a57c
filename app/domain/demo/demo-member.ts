import type { Database } from "@platform/db/client";
import type { Auth } from "../auth/auth.server";
import { placeholderEmail, setPassword } from "../auth/flows.server";
import { createMember, findMemberByPhone } from "../members/members.server";
import { bookHistory, realisticHistory, seedDemoRewards } from "./member-history";

/**
 * The demo member of a development database (never production: see server/app.ts): log in at
 * /member-login with 0912-345-678 and the password below to see a member center with a year of
 * history (silver tier, points expiring at the end of next year, coupons used, expired and unused).
 */
export const DEMO_MEMBER = {
  phoneNumber: "+886912345678",
  password: "HanLiving-Demo-2026",
  name: "林雅婷",
} as const;

export async function seedDemoMember({ db, auth }: { db: Database; auth: Auth }, now = new Date()): Promise<boolean> {
  await seedDemoRewards(db);
  if (await findMemberByPhone(db, DEMO_MEMBER.phoneNumber)) return false;
  const ctx = await auth.$context;
  const user = await ctx.internalAdapter.createUser(
    {
      name: DEMO_MEMBER.name,
      email: placeholderEmail(DEMO_MEMBER.phoneNumber),
      phoneNumber: DEMO_MEMBER.phoneNumber,
      phoneNumberVerified: true,
    },
    { method: "phone-number" },
  );
  await setPassword({ auth }, user.id, DEMO_MEMBER.password);
  const created = await createMember(db, {
    userId: user.id,
    phoneNumber: DEMO_MEMBER.phoneNumber,
    signupMethod: "phone",
    ip: null,
    profile: {
      nameZh: DEMO_MEMBER.name,
      gender: "female",
      marketingSms: true,
      marketingEmail: false,
      marketingLine: false,
    },
  });
  await bookHistory(
    db,
    created.id,
    realisticHistory(now, { entries: 40, coupons: 5, months: 13, seed: 11, prefix: "DEMO", amountScale: 0.45 }),
  );
  return true;
}
