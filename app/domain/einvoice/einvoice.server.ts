import type { Database } from "@platform/db/client";
import { member, memberConsent } from "@platform/db/schema";
import { and, eq, ne } from "drizzle-orm";
import { type AuditContext, recordAudit } from "../audit/audit.server";
import { LoyaltyError } from "../loyalty/errors";
import { isValidEinvoiceCarrier, isValidTaxIdNumber } from "../members/taiwan";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";

/**
 * The e-invoice carrier and 統編 at the till (issue 36, ADR 041). One function decides what a till may see
 * (einvoiceForTill); the POS API and the counter both read it through readEinvoiceAtTill, which writes the
 * access to the audit log in the same transaction as the read.
 */

/** What a till gets: the mobile barcode carrier, the 統編 and the company, or nulls when sharing is off. */
export type TillEinvoice = {
  memberNumber: string;
  /** The member's switch "give my carrier and tax ID to the till" (member center → privacy). */
  sharing: boolean;
  /** 手機條碼 `/XXXXXXX`, or null (none on record, or sharing off). */
  carrier: string | null;
  /** 統一編號, 8 digits with a valid checksum, or null. */
  taxIdNumber: string | null;
  /** The company the 統編 belongs to, as the member entered it (only with a 統編). */
  companyName: string | null;
};

type EinvoiceFields = Pick<
  typeof member.$inferSelect,
  "memberNumber" | "einvoiceSharing" | "einvoiceCarrier" | "taxIdNumber" | "companyName"
>;

/**
 * The one rule: nothing when the member turned sharing off; otherwise the carrier and 統編 on record, each
 * only when it is well-formed (the same validators as sign-up), the company name only beside a 統編.
 */
export function einvoiceForTill(found: EinvoiceFields): TillEinvoice {
  if (!found.einvoiceSharing) {
    return { memberNumber: found.memberNumber, sharing: false, carrier: null, taxIdNumber: null, companyName: null };
  }
  const carrier = found.einvoiceCarrier && isValidEinvoiceCarrier(found.einvoiceCarrier) ? found.einvoiceCarrier : null;
  const taxIdNumber = found.taxIdNumber && isValidTaxIdNumber(found.taxIdNumber) ? found.taxIdNumber : null;
  const companyName = taxIdNumber ? found.companyName?.trim() || null : null;
  return { memberNumber: found.memberNumber, sharing: true, carrier, taxIdNumber, companyName };
}

/** The fields a till was shown (names only, never values: the audit log masks personal data). */
function fieldsShown(answer: TillEinvoice): string[] {
  const fields: string[] = [];
  if (answer.carrier) fields.push("einvoiceCarrier");
  if (answer.taxIdNumber) fields.push("taxIdNumber");
  if (answer.companyName) fields.push("companyName");
  return fields;
}

/**
 * Reads a member's carrier and 統編 for a till (POS API key or counter clerk) and appends
 * `member.einvoice_read` (who, which key or clerk, which store, which member, which fields, whether sharing
 * was on) in the same transaction. A read with sharing off is recorded too (nothing shown). The member must
 * exist and not be disabled (member_not_found, member_disabled).
 */
export async function readEinvoiceAtTill(
  db: Database,
  memberId: string,
  audit: AuditContext,
  via: "api" | "counter",
  now = new Date(),
): Promise<TillEinvoice> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({
        memberNumber: member.memberNumber,
        einvoiceSharing: member.einvoiceSharing,
        einvoiceCarrier: member.einvoiceCarrier,
        taxIdNumber: member.taxIdNumber,
        companyName: member.companyName,
        disabled: member.disabled,
      })
      .from(member)
      .where(eq(member.id, memberId));
    if (!found) throw new LoyaltyError("member_not_found", "Unknown member");
    if (found.disabled) throw new LoyaltyError("member_disabled", "The member is disabled");
    const answer = einvoiceForTill(found);
    await recordAudit(
      tx,
      {
        context: audit,
        action: "member.einvoice_read",
        targetType: "member",
        targetId: memberId,
        after: { via, sharing: answer.sharing, fieldsShown: fieldsShown(answer) },
      },
      now,
    );
    return answer;
  });
}

/** The version of the switch's wording (member center → privacy) a consent row records. */
export const EINVOICE_SHARING_VERSION = "2026-12-01";

/**
 * The member's own switch (member center → privacy), effective at the till's next lookup. A change is also a consent
 * row (`einvoice_sharing`, granted or withdrawn, with the wording's version, the source and the address), in the same
 * transaction, like the marketing channels: the member's decisions about their personal data keep their history
 * (個資法 evidence; the privacy page and the data export show it). Saving the same state again records nothing.
 */
export async function setEinvoiceSharing(
  db: Database,
  input: { memberId: string; sharing: boolean; ip: string | null; source?: string },
  now = new Date(),
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [changed] = await tx
      .update(member)
      .set({ einvoiceSharing: input.sharing, updatedAt: now })
      .where(and(eq(member.id, input.memberId), ne(member.einvoiceSharing, input.sharing)))
      .returning({ userId: member.userId });
    if (!changed) return false;
    await tx.insert(memberConsent).values({
      userId: changed.userId,
      kind: "einvoice_sharing",
      version: EINVOICE_SHARING_VERSION,
      granted: input.sharing,
      source: input.source ?? "member-center",
      ipAddress: input.ip,
      createdAt: now,
    });
    return true;
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The counter's view (a clerk with `counter.einvoice` at their current store): the permission through the one
 * check, then the same read and audit row as the POS API's. An id that is not a UUID is an unknown member.
 */
export async function readEinvoiceAtCounter(
  db: Database,
  actor: StaffActor,
  memberId: string,
  audit: AuditContext,
  now = new Date(),
): Promise<TillEinvoice> {
  requirePermission(actor, "counter.einvoice", { storeId: actor.currentStoreId });
  if (!UUID.test(memberId)) throw new LoyaltyError("member_not_found", "Unknown member");
  return readEinvoiceAtTill(db, memberId, audit, "counter", now);
}
