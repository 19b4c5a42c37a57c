import type { Database } from "@platform/db/client";
import { contentDraft, contentRevision, contentVersion } from "@platform/db/schema";
import { and, desc, eq, sql } from "drizzle-orm";

/**
 * Drafts and publishing for any content the console edits (ADR 027). One module for every kind
 * (`store` now; `material`, `category`, `reward` later), so each editor gets the same behaviour:
 *
 * - the editor loads `readDraft()` (the pending edit, or null) and shows its `version`;
 * - a save is `saveDraft(tx, …, expectedVersion, data)`: one atomic statement that only succeeds when
 *   nobody saved or published since that version (else `null`: tell the person, keep what they typed);
 * - publishing is `takeDraftForPublish()` + the caller's write of the published row(s) +
 *   `recordRevision()` + `bumpContentVersion()`, all in one transaction with the audit row;
 * - the preview renders the public page component with `readDraft().data`.
 *
 * The draft's `data` is the whole item as the editor's validated form produced it (the caller's type,
 * kept as jsonb); nothing here looks inside it.
 */

export type ContentKind = "store" | "material" | "category" | "reward";

export type Draft<T> = {
  /** The pending edit; null when nothing is pending (never edited, or published since). */
  data: T | null;
  /** The version to send back with the next save or publish (0 when the item was never edited). */
  version: number;
  updatedAt: Date | null;
  updatedBy: string | null;
};

const where = (kind: ContentKind, entityId: string) =>
  and(eq(contentDraft.kind, kind), eq(contentDraft.entityId, entityId));

export async function readDraft<T>(db: Database, kind: ContentKind, entityId: string): Promise<Draft<T>> {
  const [row] = await db.select().from(contentDraft).where(where(kind, entityId)).limit(1);
  if (!row) return { data: null, version: 0, updatedAt: null, updatedBy: null };
  return {
    data: (row.data as T | null) ?? null,
    version: row.version,
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

/** Pending drafts of a kind (entity id → when saved), for the lists' "unpublished changes" badge. */
export async function pendingDrafts(db: Database, kind: ContentKind): Promise<Map<string, Date>> {
  const rows = await db
    .select({ entityId: contentDraft.entityId, updatedAt: contentDraft.updatedAt })
    .from(contentDraft)
    .where(and(eq(contentDraft.kind, kind), sql`${contentDraft.data} is not null`));
  return new Map(rows.map((r) => [r.entityId, r.updatedAt]));
}

/**
 * Moves the item from `expectedVersion` to the next version with `data` as its pending edit (null =
 * nothing pending), in one statement: an insert for a never-edited item (expected 0), else an update
 * that only matches the expected version. Returns the new version, or null when someone else saved or
 * published in between (the caller answers 409 and nothing is written).
 */
export async function advanceDraft(
  tx: Database,
  kind: ContentKind,
  entityId: string,
  expectedVersion: number,
  data: unknown,
  userId: string | null,
  now: Date,
): Promise<number | null> {
  const rows = await tx
    .insert(contentDraft)
    .values({ kind, entityId, data, version: 1, updatedBy: userId, updatedAt: now })
    .onConflictDoUpdate({
      target: [contentDraft.kind, contentDraft.entityId],
      set: {
        data: sql`excluded.data`,
        version: sql`${contentDraft.version} + 1`,
        updatedBy: userId,
        updatedAt: now,
      },
      setWhere: eq(contentDraft.version, expectedVersion),
    })
    .returning({ version: contentDraft.version });
  const version = rows[0]?.version ?? 0;
  // A fresh insert (version 1) only answers a save that expected a never-edited item.
  if (version === 0 || version !== expectedVersion + 1) return null;
  return version;
}

/** Saves the pending edit (see advanceDraft). */
export function saveDraft<T>(
  tx: Database,
  kind: ContentKind,
  entityId: string,
  expectedVersion: number,
  data: T,
  userId: string | null,
  now: Date,
): Promise<number | null> {
  return advanceDraft(tx, kind, entityId, expectedVersion, data, userId, now);
}

/**
 * For a publish, inside its transaction: the pending edit as of `expectedVersion` (null when nothing
 * is pending), marked published (data cleared, version + 1). Null result = a conflict (the item changed
 * since the editor loaded it): the caller rolls back and tells the person.
 */
export async function takeDraftForPublish<T>(
  tx: Database,
  kind: ContentKind,
  entityId: string,
  expectedVersion: number,
  userId: string | null,
  now: Date,
): Promise<{ data: T | null; version: number } | null> {
  // The row is locked until the transaction ends, so the data read is the data of the version advanced.
  const [row] = await tx.select().from(contentDraft).where(where(kind, entityId)).for("update").limit(1);
  if ((row?.version ?? 0) !== expectedVersion) return null;
  const version = await advanceDraft(tx, kind, entityId, expectedVersion, null, userId, now);
  if (version === null) return null;
  return { data: (row?.data as T | null) ?? null, version };
}

/** Records what a publish made public, as the item's next revision number. */
export async function recordRevision(
  tx: Database,
  kind: ContentKind,
  entityId: string,
  data: unknown,
  userId: string | null,
  now: Date,
): Promise<number> {
  const [row] = await tx
    .insert(contentRevision)
    .values({
      kind,
      entityId,
      revision: sql`(select coalesce(max(r.revision), 0) + 1 from content_revision r where r.kind = ${kind} and r.entity_id = ${entityId})`,
      data,
      publishedBy: userId,
      publishedAt: now,
    })
    .returning({ revision: contentRevision.revision });
  return row?.revision ?? 0;
}

/** The published revisions of an item, newest first. */
export async function listRevisions(db: Database, kind: ContentKind, entityId: string, limit = 20) {
  return db
    .select({
      revision: contentRevision.revision,
      publishedAt: contentRevision.publishedAt,
      publishedBy: contentRevision.publishedBy,
    })
    .from(contentRevision)
    .where(and(eq(contentRevision.kind, kind), eq(contentRevision.entityId, entityId)))
    .orderBy(desc(contentRevision.revision))
    .limit(limit);
}

/** One more published change: render caches on every instance see the new number within seconds. */
export async function bumpContentVersion(tx: Database, now: Date): Promise<void> {
  await tx
    .update(contentVersion)
    .set({ version: sql`${contentVersion.version} + 1`, changedAt: now })
    .where(eq(contentVersion.id, 1));
}

export async function readContentVersion(db: Database): Promise<number> {
  const [row] = await db.select({ version: contentVersion.version }).from(contentVersion).limit(1);
  return row?.version ?? 0;
}
