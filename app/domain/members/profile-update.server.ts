import type { Database } from "@platform/db/client";
import { authUser, member, memberConsent } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { findDistrict } from "./address";
import { changeMemberBirthday } from "./birthday.server";
import { MARKETING_CONSENT_VERSION, type Member } from "./members.server";
import type { ProfileInput } from "./profile.server";

export type MarketingChoice = { sms: boolean; email: boolean; line: boolean };
const CHANNEL_KIND = { sms: "marketing_sms", email: "marketing_email", line: "marketing_line" } as const;

/**
 * Sets the marketing opt-ins that changed, effective at once, and records each change as a
 * consent row with the text's version (個資法 evidence). Unchanged channels record nothing.
 */
export async function setMarketingPreferences(
  db: Database,
  input: { memberId: string; userId: string; from: MarketingChoice; to: Partial<MarketingChoice>; ip: string | null },
  now = new Date(),
): Promise<(keyof MarketingChoice)[]> {
  const changed = (Object.keys(CHANNEL_KIND) as (keyof MarketingChoice)[]).filter(
    (channel) => input.to[channel] !== undefined && input.to[channel] !== input.from[channel],
  );
  if (changed.length === 0) return [];
  const next = { ...input.from, ...input.to };
  await db
    .update(member)
    .set({ marketingSms: next.sms, marketingEmail: next.email, marketingLine: next.line, updatedAt: now })
    .where(eq(member.id, input.memberId));
  await db.insert(memberConsent).values(
    changed.map((channel) => ({
      userId: input.userId,
      kind: CHANNEL_KIND[channel],
      version: MARKETING_CONSENT_VERSION,
      granted: next[channel],
      ipAddress: input.ip,
      createdAt: now,
    })),
  );
  return changed;
}

export function marketingOf(m: Pick<Member, "marketingSms" | "marketingEmail" | "marketingLine">): MarketingChoice {
  return { sms: m.marketingSms, email: m.marketingEmail, line: m.marketingLine };
}

/**
 * Edit-info: saves every profile field except the e-mail (which changes only through a code,
 * see contact-change.server.ts). Works on the member row of `current`, which the caller loaded
 * for the session's user. The birthday goes through changeMemberBirthday (its one writer).
 */
export async function updateMemberProfile(
  db: Database,
  input: { current: Member; profile: Omit<ProfileInput, "email">; ip: string | null },
  now = new Date(),
): Promise<{ birthdayPointsWithheld: boolean }> {
  const { current, profile } = input;
  const postalCode =
    profile.city && profile.district ? (findDistrict(profile.city, profile.district)?.postalCode ?? null) : null;
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    await t
      .update(member)
      .set({
        nameZh: profile.nameZh,
        gender: profile.gender,
        companyName: profile.companyName ?? null,
        taxIdNumber: profile.taxIdNumber ?? null,
        einvoiceCarrier: profile.einvoiceCarrier ?? null,
        city: profile.city ?? null,
        district: profile.district ?? null,
        postalCode,
        street: profile.street ?? null,
        updatedAt: now,
      })
      .where(eq(member.id, current.id));
    const birthday = await changeMemberBirthday(t, current.id, profile.birthday ?? null, now);
    await setMarketingPreferences(
      t,
      {
        memberId: current.id,
        userId: current.userId,
        from: marketingOf(current),
        to: {
          sms: profile.marketingSms === "on",
          email: profile.marketingEmail === "on",
          line: profile.marketingLine === "on",
        },
        ip: input.ip,
      },
      now,
    );
    if (profile.nameZh !== current.nameZh) {
      await t.update(authUser).set({ name: profile.nameZh, updatedAt: now }).where(eq(authUser.id, current.userId));
    }
    return { birthdayPointsWithheld: birthday.pointsWithheldThisYear };
  });
}
