import type { Database } from "@platform/db/client";
import { isUniqueViolation } from "@platform/db/errors";
import type { CampaignAudience } from "@platform/db/schema/member-message-kinds";
import { segment } from "@platform/db/schema/segments";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type AuditContext, type AuditWriter, auditedTx } from "../audit/audit.server";
import { type AudienceCount, countAudience } from "../member-messages/campaigns.server";
import { Refusal, type RefusalCode, VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { rfmAlone, rfmCount } from "./rfm.server";

/**
 * Saved segments (issue 38 part 6, ADR 056): a named audience made of the campaign filters (`CampaignAudience`,
 * read by the campaign form's `audienceSchema`, counted and selected by the campaigns' `audienceWhere`), so a
 * segment names the same members a campaign with its filters would. Admins (messages.manage) create, edit and
 * archive them, each change audited in its transaction. Names are unique among the segments not archived, by the
 * partial unique index on `name_key`: of two admins saving one name at once, the second is refused `name_taken`.
 */

export const SEGMENT_NAME_MAX = 60;
export const SEGMENT_LIST_MAX = 200;

export type SegmentRow = typeof segment.$inferSelect;
export type SegmentInput = { name: string; audience: CampaignAudience };

export class SegmentError extends Refusal<"segments"> {
  constructor(code: Exclude<RefusalCode<"segments">, "version_conflict">) {
    super("segments", code, { field: code === "name_taken" ? "name" : null });
    this.name = "SegmentError";
  }
}

/** The name as two names are compared: NFKC (full-width letters), trimmed, inner spaces as one, lower case. */
export function segmentNameKey(name: string): string {
  return name.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function segmentById(db: Database, id: string): Promise<SegmentRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.select().from(segment).where(eq(segment.id, id));
  return row ?? null;
}

/** The segments in use (not archived), by name. */
export async function listSegments(db: Database): Promise<SegmentRow[]> {
  return db
    .select()
    .from(segment)
    .where(isNull(segment.archivedAt))
    .orderBy(asc(segment.nameKey), asc(segment.id))
    .limit(SEGMENT_LIST_MAX);
}

/**
 * How many members a segment's filters name now (the campaigns' count, without the split by channel): the one
 * function behind the segment pages' live count. RFM filters with at most tiers beside them are counted from the
 * summary alone (`rfmCount`, the same members by the triggers that keep its rows' state); any other filter goes
 * through the campaigns' `audienceWhere`.
 */
export async function countSegment(db: Database, audience: CampaignAudience, now = new Date()): Promise<number> {
  if (rfmAlone(audience)) return rfmCount(db, audience);
  const none = { lineText: null, smsText: null, emailSubject: null, emailBody: null };
  const count: AudienceCount = await countAudience(db, audience, none, false, now);
  return count.total;
}

const audited = (s: SegmentInput | SegmentRow) => ({ name: s.name, audience: JSON.stringify(s.audience) });

/** Every change of a segment: an admin's (messages.manage), in one audited transaction; a taken name is told. */
async function segmentChange<T>(
  db: Database,
  actor: StaffActor,
  audit: AuditContext,
  now: Date,
  run: (t: Database, record: AuditWriter) => Promise<T>,
): Promise<T> {
  requirePermission(actor, "messages.manage");
  try {
    return await auditedTx(db, audit, now, run);
  } catch (error) {
    if (isUniqueViolation(error, "segment_name_unique")) throw new SegmentError("name_taken");
    throw error;
  }
}

export function createSegment(
  db: Database,
  actor: StaffActor,
  input: SegmentInput,
  audit: AuditContext,
  now = new Date(),
): Promise<SegmentRow> {
  return segmentChange(db, actor, audit, now, async (t, record) => {
    const [row] = await t
      .insert(segment)
      .values({
        name: input.name,
        nameKey: segmentNameKey(input.name),
        audience: input.audience,
        createdBy: actor.userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error("segment insert returned nothing");
    await record("segment.created", ["segment", row.id], { after: audited(row) });
    return row;
  });
}

/** Saves over the version the admin saw (a conditional update); a later save of an older version is told. */
export function updateSegment(
  db: Database,
  actor: StaffActor,
  id: string,
  version: number,
  input: SegmentInput,
  audit: AuditContext,
  now = new Date(),
): Promise<SegmentRow> {
  return segmentChange(db, actor, audit, now, async (t, record) => {
    const [before] = await t
      .select()
      .from(segment)
      .where(and(eq(segment.id, id), isNull(segment.archivedAt)))
      .for("update");
    if (!before) throw new SegmentError("not_found");
    if (before.version !== version) throw new VersionConflict("segments", before);
    const [row] = await t
      .update(segment)
      .set({
        name: input.name,
        nameKey: segmentNameKey(input.name),
        audience: input.audience,
        version: sql`${segment.version} + 1`,
        updatedAt: now,
      })
      .where(eq(segment.id, id))
      .returning();
    if (!row) throw new SegmentError("not_found");
    await record("segment.updated", ["segment", id], { before: audited(before), after: audited(row) });
    return row;
  });
}

/** Archives a segment: gone from the lists and the campaign's picker; campaigns that used it keep their filters. */
export function archiveSegment(
  db: Database,
  actor: StaffActor,
  id: string,
  audit: AuditContext,
  now = new Date(),
): Promise<SegmentRow> {
  return segmentChange(db, actor, audit, now, async (t, record) => {
    const [row] = await t
      .update(segment)
      .set({ archivedAt: now, version: sql`${segment.version} + 1`, updatedAt: now })
      .where(and(eq(segment.id, id), isNull(segment.archivedAt)))
      .returning();
    if (!row) throw new SegmentError("not_found");
    await record("segment.archived", ["segment", id], { before: { name: row.name } });
    return row;
  });
}
