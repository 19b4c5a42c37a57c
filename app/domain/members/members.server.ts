import { type Database, rowsOf } from "@platform/db/client";
import { authUser, member, memberConsent } from "@platform/db/schema";
import { eq, sql } from "drizzle-orm";
import { attachGuestAppointments } from "../appointments/appointments.server";
import { linkReferral } from "../referrals/referrals.server";

export type Member = typeof member.$inferSelect;
export type ConsentKind = (typeof memberConsent.$inferInsert)["kind"];

export async function findMemberByUserId(db: Database, userId: string): Promise<Member | null> {
  const [row] = await db.select().from(member).where(eq(member.userId, userId)).limit(1);
  return row ?? null;
}

export async function findMemberByPhone(db: Database, phoneNumber: string): Promise<Member | null> {
  const [row] = await db.select().from(member).where(eq(member.phoneNumber, phoneNumber)).limit(1);
  return row ?? null;
}

export async function findMemberByEmail(db: Database, email: string): Promise<Member | null> {
  const [row] = await db.select().from(member).where(eq(member.email, email.toLowerCase())).limit(1);
  return row ?? null;
}

/** HL + 8 digits from the member_number_seq sequence: unique across instances, never reused. */
export async function nextMemberNumber(db: Database): Promise<string> {
  const list = rowsOf<{ n: string }>(await db.execute(sql`select nextval('member_number_seq')::text as n`));
  return `HL${String(list[0]?.n).padStart(8, "0")}`;
}

export async function recordConsents(
  db: Database,
  userId: string,
  consents: { kind: ConsentKind; version: string; granted: boolean }[],
  ipAddress: string | null,
): Promise<void> {
  if (consents.length === 0) return;
  await db.insert(memberConsent).values(consents.map((c) => ({ ...c, userId, ipAddress })));
}

export async function recordLogin(db: Database, userId: string, now = new Date()): Promise<void> {
  await db.update(member).set({ lastLoginAt: now }).where(eq(member.userId, userId));
}

export type NewMemberProfile = {
  nameZh: string;
  gender: "male" | "female" | "undisclosed";
  birthday?: string;
  email?: string;
  companyName?: string;
  taxIdNumber?: string;
  einvoiceCarrier?: string;
  city?: string;
  district?: string;
  postalCode?: string;
  street?: string;
  marketingSms: boolean;
  marketingEmail: boolean;
  marketingLine: boolean;
};

/** An e-mail is taken when another member has it, verified or pending, or another login uses it. */
export async function isEmailTaken(db: Database, email: string, exceptUserId?: string): Promise<boolean> {
  const lower = email.toLowerCase();
  const rows = await db
    .select({ userId: member.userId })
    .from(member)
    .where(sql`(${member.email} = ${lower} or ${member.pendingEmail} = ${lower})`)
    .limit(2);
  if (rows.some((r) => r.userId !== exceptUserId)) return true;
  const users = await db.select({ id: authUser.id }).from(authUser).where(eq(authUser.email, lower)).limit(2);
  return users.some((u) => u.id !== exceptUserId);
}

/**
 * Sign-up step 3: creates the member (number, level basic, not disabled) in one transaction with
 * the marketing consents. The e-mail, if any, waits as `pendingEmail` until its code is verified.
 */
export async function createMember(
  db: Database,
  input: {
    userId: string;
    phoneNumber: string;
    signupMethod: "phone" | "line";
    profile: NewMemberProfile;
    ip: string | null;
    /** The language of the member's messages: the site's at sign-up. */
    locale?: "zh-TW" | "en";
    /** The referral code the visitor came with and the codes this browser's own members opened (ADR 053). */
    referral?: { code: string; ownCodes: readonly string[] } | null;
  },
): Promise<Member> {
  const { profile } = input;
  return db.transaction(async (tx) => {
    const memberNumber = await nextMemberNumber(tx);
    const [created] = await tx
      .insert(member)
      .values({
        userId: input.userId,
        memberNumber,
        nameZh: profile.nameZh,
        gender: profile.gender,
        birthday: profile.birthday ?? null,
        // The first entry counts for the 30-day birthday rule too (ADR 012).
        birthdayChangedAt: profile.birthday ? new Date() : null,
        phoneNumber: input.phoneNumber,
        pendingEmail: profile.email ?? null,
        companyName: profile.companyName ?? null,
        taxIdNumber: profile.taxIdNumber ?? null,
        einvoiceCarrier: profile.einvoiceCarrier ?? null,
        city: profile.city ?? null,
        district: profile.district ?? null,
        postalCode: profile.postalCode ?? null,
        street: profile.street ?? null,
        marketingSms: profile.marketingSms,
        marketingEmail: profile.marketingEmail,
        marketingLine: profile.marketingLine,
        signupMethod: input.signupMethod,
        locale: input.locale ?? "zh-TW",
      })
      .returning();
    await tx.insert(memberConsent).values(
      (["marketing_sms", "marketing_email", "marketing_line"] as const).map((kind) => ({
        userId: input.userId,
        kind,
        version: MARKETING_CONSENT_VERSION,
        granted:
          kind === "marketing_sms"
            ? profile.marketingSms
            : kind === "marketing_email"
              ? profile.marketingEmail
              : profile.marketingLine,
        source: "signup",
        ipAddress: input.ip,
      })),
    );
    await tx.update(authUser).set({ name: profile.nameZh, updatedAt: new Date() }).where(eq(authUser.id, input.userId));
    if (!created) throw new Error("member insert returned nothing");
    // A guest's bookings made with this (verified) phone become the new member's (issue 37).
    await attachGuestAppointments(tx, created.id, input.phoneNumber);
    // Linked to the referrer in the same transaction (issue 38, ADR 053); a refused code links nothing.
    if (input.referral) await linkReferral(tx, { friendId: created.id, ...input.referral });
    return created;
  });
}

/** Makes a verified pending e-mail the member's e-mail and a login identity. */
export async function confirmMemberEmail(db: Database, userId: string, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(member).set({ email, pendingEmail: null, updatedAt: new Date() }).where(eq(member.userId, userId));
    await tx.update(authUser).set({ email, emailVerified: true, updatedAt: new Date() }).where(eq(authUser.id, userId));
  });
}

export const MARKETING_CONSENT_VERSION = "2026-11-01";
