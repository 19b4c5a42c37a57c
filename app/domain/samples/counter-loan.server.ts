import type { Database } from "@platform/db/client";
import {
  type LocalizedText,
  material,
  materialSampleStore,
  member,
  sampleOpenCount,
  sampleRequest,
} from "@platform/db/schema";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import { type AuditContext, auditedTx } from "~/domain/audit/audit.server";
import { recordSecurityEvent } from "~/domain/audit/security-events.server";
import type { StaffActor } from "~/domain/staff/actor";
import { requirePermission } from "~/domain/staff/guard.server";
import { showroomSettings } from "../showroom/settings.server";
import { OPEN_STATUSES } from "./samples";
import { claimOpenSamples, dueBackOn, requireOffered, SampleError } from "./samples.server";

/**
 * The walk-in loan at the counter (issue 37 part 3, ADR 046 "Borrowing during a visit"): after the member's card
 * is scanned, the clerk hands out samples of materials that have samples at the store being worked at. The rows
 * are created handed out with their due-back day, the places claimed by the same statement as the member's online
 * request (`claimOpenSamples`), one audit row per sample (`sample.handed_out`, `atCounter: true`) in the same
 * transaction.
 *
 * The card scan, not a typed phone, says who the member is (as for the check-in, ADR 045): the counter's card
 * lookup hands the member page a **scan pass** (`app/domain/counter/scan-pass.server.ts`, ADR 052: an HMAC over
 * the member, the store, the clerk and the time, 30 minutes), carried in the page's address and in the loan form. A typed phone or member number gets none, so the
 * loan form is not offered; a proof that does not verify is a refused security event.
 */

/** A proof that failed to verify (not a stale one): a failed security event, the member as its target. */
export async function auditForgedScan(db: Database, audit: AuditContext, memberId: string, now: Date) {
  await recordSecurityEvent(
    db,
    {
      context: audit,
      action: "member.card_refused",
      targetType: "member",
      targetId: memberId,
      after: { code: "scan_proof_forged" },
    },
    now,
  );
}

export type LendableMaterial = { id: string; name: LocalizedText; open: boolean };

/**
 * What the clerk may lend here: the published materials with samples at the store (the editor's "has samples"
 * box), each marked when the member has one open already; the member's open count and the limit.
 */
export async function lendable(db: Database, storeId: string, memberId: string) {
  const [materials, open, count, settings] = await Promise.all([
    db
      .select({ id: material.id, name: material.name })
      .from(materialSampleStore)
      .innerJoin(material, eq(material.id, materialSampleStore.materialId))
      .where(and(eq(materialSampleStore.storeId, storeId), eq(material.published, true)))
      .orderBy(asc(material.sortOrder), asc(material.id)),
    db
      .select({ materialId: sampleRequest.materialId })
      .from(sampleRequest)
      .where(and(eq(sampleRequest.memberId, memberId), inArray(sampleRequest.status, [...OPEN_STATUSES]))),
    db.select({ open: sampleOpenCount.open }).from(sampleOpenCount).where(eq(sampleOpenCount.memberId, memberId)),
    showroomSettings(db),
  ]);
  const taken = new Set(open.map((r) => r.materialId));
  return {
    materials: materials.map((m): LendableMaterial => ({ ...m, open: taken.has(m.id) })),
    open: count[0]?.open ?? 0,
    limit: settings.sampleLimit,
  };
}

export type CounterLoan = { memberId: string; storeId: string; materialIds: string[] };

/**
 * Hands out samples at the counter, all or nothing: the permission at the store, an active member, every material
 * published with samples at that store and not open for the member already, the places claimed within the limit
 * (the online request's statement), the rows created handed out and due back after the loan days (showroom
 * settings, ADR 050), audited.
 */
export async function lendSamples(
  db: Database,
  actor: StaffActor,
  loan: CounterLoan,
  audit: AuditContext,
  now: Date,
): Promise<{ ids: string[]; dueBackOn: string }> {
  requirePermission(actor, "samples.manage", { storeId: loan.storeId });
  const materialIds = [...new Set(loan.materialIds)];
  if (materialIds.length === 0) throw new SampleError("no_samples", "materials");
  const { sampleLimit, sampleLoanDays } = await showroomSettings(db);
  if (materialIds.length > sampleLimit) {
    throw new SampleError("over_limit", "materials", { limit: String(sampleLimit) });
  }
  const due = dueBackOn(now, sampleLoanDays);
  return auditedTx(db, audit, now, async (tx, record) => {
    const [who] = await tx
      .select({ id: member.id })
      .from(member)
      .where(and(eq(member.id, loan.memberId), eq(member.disabled, false), isNull(member.deletedAt)));
    if (!who) throw new SampleError("member_unavailable");
    await requireOffered(tx, loan.storeId, materialIds);
    await claimOpenSamples(tx, loan.memberId, materialIds.length, sampleLimit);
    const inserted = await tx
      .insert(sampleRequest)
      .values(
        materialIds.map((materialId) => ({
          memberId: loan.memberId,
          storeId: loan.storeId,
          materialId,
          status: "handed_out" as const,
          requestedAt: now,
          handedOutAt: now,
          handedOutBy: actor.userId,
          dueBackOn: due,
          updatedAt: now,
        })),
      )
      .onConflictDoNothing()
      .returning({ id: sampleRequest.id, materialId: sampleRequest.materialId });
    if (inserted.length !== materialIds.length) throw new SampleError("already_requested", "materials");
    for (const row of inserted) {
      await record("sample.handed_out", ["sample_request", row.id], {
        before: { status: null },
        after: {
          status: "handed_out",
          memberId: loan.memberId,
          storeId: loan.storeId,
          materialId: row.materialId,
          dueBackOn: due,
          atCounter: true,
        },
      });
    }
    return { ids: inserted.map((r) => r.id), dueBackOn: due };
  });
}

/** The member the loan page is for (name, number, disabled); null for an unknown or deleted id. */
export async function loanMember(db: Database, memberId: string) {
  const [found] = await db
    .select({ id: member.id, name: member.nameZh, memberNumber: member.memberNumber, disabled: member.disabled })
    .from(member)
    .where(and(eq(member.id, memberId), isNull(member.deletedAt)));
  return found ?? null;
}
