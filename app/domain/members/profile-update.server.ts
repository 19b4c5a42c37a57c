import type { Database } from "@platform/db/client";
import { authUser, member, memberConsent } from "@platform/db/schema";
import { and, eq } from "drizzle-orm";
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
  input: {
    memberId: string;
    userId: string;
    from: MarketingChoice;
    to: Partial<MarketingChoice>;
    ip: string | null;
    /** How it was changed (the consent record's `source`); the member center's form by default. */
    source?: string;
  },
  now = new Date(),
): Promise<(keyof MarketingChoice)[]> {
  const changed = (Object.keys(CHANNEL_KIND) as (keyof MarketingChoice)[]).filter(
    (channel) => input.to[channel] !== undefined && input.to[channel] !== input.from[channel],
  );
  if (changed.length === 0) return [];
  const next = { ...input.from, ...input.to };
  // The flags and their consent records together: a refusal takes effect for the next message (issue 16), and
  // the record of it never exists without it, nor it without its record.
  await db.transaction(async (tx) => {
    await tx
      .update(member)
      .set({ marketingSms: next.sms, marketingEmail: next.email, marketingLine: next.line, updatedAt: now })
      .where(eq(member.id, input.memberId));
    await tx.insert(memberConsent).values(
      changed.map((channel) => ({
        userId: input.userId,
        kind: CHANNEL_KIND[channel],
        version: MARKETING_CONSENT_VERSION,
        granted: next[channel],
        source: input.source ?? "member-center",
        ipAddress: input.ip,
        createdAt: now,
      })),
    );
  });
  return changed;
}

const FLAG = { sms: member.marketingSms, email: member.marketingEmail, line: member.marketingLine } as const;

/**
 * A refusal of marketing on one channel from outside the member center (the unsubscribe link, RFC 8058's
 * one-click, a LINE unfollow): one conditional update — only while the member still accepts it — and its
 * consent record in the same transaction. Idempotent: a second refusal changes and records nothing. True when
 * this call recorded the refusal.
 */
export async function refuseMarketing(
  db: Database,
  input: { memberId: string; channel: keyof MarketingChoice; source: string; ip: string | null },
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(member)
      .set(
        input.channel === "sms"
          ? { marketingSms: false, updatedAt: now }
          : input.channel === "email"
            ? { marketingEmail: false, updatedAt: now }
            : { marketingLine: false, updatedAt: now },
      )
      .where(and(eq(member.id, input.memberId), eq(FLAG[input.channel], true)))
      .returning({ userId: member.userId });
    if (!changed) return false;
    await tx.insert(memberConsent).values({
      userId: changed.userId,
      kind: CHANNEL_KIND[input.channel],
      version: MARKETING_CONSENT_VERSION,
      granted: false,
      source: input.source,
      ipAddress: input.ip,
      createdAt: now,
    });
    return true;
  });
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
    const t = tx;
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
