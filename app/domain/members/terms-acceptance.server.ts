import { cacheRegion } from "@platform/cache/shared-cache";
import type { Database } from "@platform/db/client";
import { member, memberConsent, memberSource } from "@platform/db/schema";
import { and, desc, eq } from "drizzle-orm";
import { PRIVACY_VERSION, TERMS_VERSION } from "~/content/legal";

/**
 * Members moved in from another system (issue 35, ADR 038 "Consents") never went through sign-up step 1, where
 * every other member accepts the terms and the privacy notice (個資法 §8). The import invents no consent, so at
 * their first visit to a member page they are asked here once; members who signed up here are never asked.
 */

/** `member_consent.source` of an acceptance given on the acceptance page (/accept-terms). */
export const TERMS_ACCEPTANCE_SOURCE = "accept-terms";

/**
 * True for a member traced to an import (a `member_source` row) whose latest "terms" decision is not an
 * acceptance of the current text (TERMS_VERSION): none, a refusal, or the old system's acceptance carried by the
 * file (version "import"). Everybody else (no `member_source` row) is false without looking at consents.
 */
export async function needsTermsAcceptance(db: Database, who: { memberId: string; userId: string }): Promise<boolean> {
  // Every member page asks this (the terms gate): the answer is kept per instance, like the session (ADR 026),
  // and dropped on every instance by any change to the member's import rows (m:<member id>) or the user's
  // consents (u:<user id>; triggers of drizzle/0029). A write request fences its invalidations before it answers.
  const cache = cacheRegion<boolean>(db, "terms-gate", TERMS_GATE_CACHE);
  const cached = cache?.get(who.memberId);
  if (cached !== undefined) return cached;
  const ticket = cache?.ticket() ?? 0;
  const needed = await readNeedsTermsAcceptance(db, who);
  cache?.set(who.memberId, needed, ticket, [`u:${who.userId}`, `m:${who.memberId}`]);
  return needed;
}

const TERMS_GATE_CACHE = { maxEntries: 10_000, ttlMs: 5 * 60_000, clearOn: ["u:*", "m:*"] } as const;

async function readNeedsTermsAcceptance(db: Database, who: { memberId: string; userId: string }): Promise<boolean> {
  const [imported] = await db
    .select({ memberId: memberSource.memberId })
    .from(memberSource)
    .where(eq(memberSource.memberId, who.memberId))
    .limit(1);
  if (!imported) return false;
  const [latest] = await db
    .select({ granted: memberConsent.granted, version: memberConsent.version })
    .from(memberConsent)
    .where(and(eq(memberConsent.userId, who.userId), eq(memberConsent.kind, "terms")))
    .orderBy(desc(memberConsent.createdAt))
    .limit(1);
  return !(latest?.granted && latest.version === TERMS_VERSION);
}

/**
 * Records the acceptance: "terms" and "privacy" with the versions sign-up records, `source` = the acceptance
 * page, in one transaction. Nothing is written when the current terms are already accepted (a second tab, a
 * resubmission, two tabs at once: the member row is locked first), so the history shows one acceptance.
 */
export async function acceptTerms(
  db: Database,
  who: { memberId: string; userId: string },
  ipAddress: string | null,
): Promise<{ recorded: boolean }> {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: member.id })
      .from(member)
      .where(eq(member.id, who.memberId))
      .for("update")
      .limit(1);
    if (!locked) return { recorded: false };
    const [latest] = await tx
      .select({ granted: memberConsent.granted, version: memberConsent.version })
      .from(memberConsent)
      .where(and(eq(memberConsent.userId, who.userId), eq(memberConsent.kind, "terms")))
      .orderBy(desc(memberConsent.createdAt))
      .limit(1);
    if (latest?.granted && latest.version === TERMS_VERSION) return { recorded: false };
    await tx.insert(memberConsent).values([
      {
        userId: who.userId,
        kind: "terms",
        version: TERMS_VERSION,
        granted: true,
        source: TERMS_ACCEPTANCE_SOURCE,
        ipAddress,
      },
      {
        userId: who.userId,
        kind: "privacy",
        version: PRIVACY_VERSION,
        granted: true,
        source: TERMS_ACCEPTANCE_SOURCE,
        ipAddress,
      },
    ]);
    return { recorded: true };
  });
}
