import type { Database } from "@platform/db/client";
import {
  isUploadedPhoto,
  mediaImage,
  type StorePhoto,
  store,
  storeHoursException,
  storePhoto,
} from "@platform/db/schema";
import { and, asc, count, desc, eq, gte, inArray, sql } from "drizzle-orm";
import { taipeiDate } from "~/lib/time";
import { flagBookingsOnClosedDays } from "../appointments/appointments.server";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { containsPattern } from "../catalog/search";
import {
  bumpContentVersion,
  type Draft,
  listRevisions,
  pendingDrafts,
  readDraft,
  recordRevision,
  saveDraft,
  takeDraftForPublish,
} from "../content/drafts.server";
import { Refusal, type RefusalCode, VersionConflict } from "../refusals";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import { staffNames } from "../staff/names.server";
import { storesFor } from "../staff/permissions";
import type { PhotoToken, StoreContent } from "./editor";
import { hoursOn, isoDate, openStatus, weekAhead } from "./hours";
import { resolvePhotos } from "./photos.server";
import { displayedMaterials } from "./stores.server";

/**
 * Stores in the console (issue 14 item 1): the list, the editor's draft, publish and unpublish, with the
 * generic drafts of ADR 027. Admins edit every store and create new ones; a manager edits (and publishes)
 * only the stores assigned to them — checked here by store id, whatever the URL or form says.
 */

export type StoreRow = typeof store.$inferSelect;

/** A refused store change (a version conflict is a `VersionConflict`). */
export class StoreEditError extends Refusal<"stores"> {
  constructor(code: Exclude<RefusalCode<"stores">, "version_conflict">, field?: string) {
    super("stores", code, { field });
    this.name = "StoreEditError";
  }
}

export {
  CONSOLE_STORE_SORTS,
  CONSOLE_STORE_STATUSES,
  type ConsoleStoreFilters,
  type ConsoleStoreSort,
  STORES_PAGE_SIZE,
} from "./console-query";

import { type ConsoleStoreFilters, STORES_PAGE_SIZE } from "./console-query";

/** One page of the stores the actor may edit (every store for an admin). */
export async function listStoresForConsole(db: Database, actor: StaffActor, filters: ConsoleStoreFilters) {
  const scope = storesFor(actor, "store.edit");
  if (scope !== "all" && scope.length === 0) return { rows: [], total: 0 };
  const pending = await pendingDrafts(db, "store");
  const conditions = [];
  if (scope !== "all") conditions.push(inArray(store.id, [...scope]));
  if (filters.q) {
    const pattern = containsPattern(filters.q);
    conditions.push(
      sql`(${store.id} ilike ${pattern} or ${store.name}->>'zh-TW' ilike ${pattern} or ${store.name}->>'en' ilike ${pattern}
        or ${store.district}->>'zh-TW' ilike ${pattern} or ${store.district}->>'en' ilike ${pattern} or ${store.postalCode} ilike ${pattern})`,
    );
  }
  if (filters.status === "published") conditions.push(eq(store.published, true));
  if (filters.status === "unpublished") conditions.push(eq(store.published, false));
  if (filters.status === "pending") {
    const ids = [...pending.keys()];
    conditions.push(ids.length ? inArray(store.id, ids) : sql`false`);
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const direction = filters.dir === "desc" ? desc : asc;
  const order =
    filters.sort === "city"
      ? [direction(store.city), asc(store.sortOrder), asc(store.id)]
      : filters.sort === "updated"
        ? [direction(store.updatedAt), asc(store.id)]
        : [direction(sql`${store.name}->>'zh-TW'`), asc(store.id)];
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: store.id,
        name: store.name,
        city: store.city,
        district: store.district,
        published: store.published,
        updatedAt: store.updatedAt,
      })
      .from(store)
      .where(where)
      .orderBy(...order)
      .limit(STORES_PAGE_SIZE)
      .offset((filters.page - 1) * STORES_PAGE_SIZE),
    db.select({ n: count() }).from(store).where(where),
  ]);
  return {
    rows: rows.map((r) => ({ ...r, pendingSince: pending.get(r.id) ?? null })),
    total: total?.n ?? 0,
  };
}

/** The published content of a store row, with its exceptions from `today` on. */
export async function publishedContent(db: Database, row: StoreRow, today: string): Promise<StoreContent> {
  const exceptions = await db
    .select()
    .from(storeHoursException)
    .where(and(eq(storeHoursException.storeId, row.id), gte(storeHoursException.date, today)))
    .orderBy(asc(storeHoursException.date));
  return {
    name: row.name,
    summary: row.summary,
    city: row.city,
    district: row.district,
    postalCode: row.postalCode,
    address: row.address,
    phone: row.phone,
    email: row.email,
    latitude: row.latitude,
    longitude: row.longitude,
    weeklyHours: row.weeklyHours,
    exceptions: exceptions.map((e) => ({ date: e.date, intervals: e.intervals, note: e.note ?? null })),
    services: row.services,
    photos: row.photos,
  };
}

async function storeRow(db: Database, id: string): Promise<StoreRow | null> {
  const [row] = await db.select().from(store).where(eq(store.id, id)).limit(1);
  return row ?? null;
}

/**
 * What the editor shows: the store, its published content, the pending draft (if any) and the content
 * to edit (the draft, else the published one). Refuses (403) a store the actor may not edit, before
 * saying whether it exists.
 */
export async function loadStoreEditor(db: Database, actor: StaffActor, id: string, now: Date) {
  requirePermission(actor, "store.edit", { storeId: id });
  const row = await storeRow(db, id);
  if (!row) throw new StoreEditError("not_found");
  const today = isoDate(taipeiDate(now));
  const [published, draft, revisions] = await Promise.all([
    publishedContent(db, row, today),
    readDraft<StoreContent>(db, "store", id),
    listRevisions(db, "store", id),
  ]);
  const names = await staffNames(db, [...revisions.map((r) => r.publishedBy), draft.updatedBy]);
  return {
    row,
    published,
    draft,
    content: draft.data ?? published,
    draftBy: draft.updatedBy ? (names.get(draft.updatedBy) ?? null) : null,
    revisions: revisions.map((r) => ({
      ...r,
      publishedByName: r.publishedBy ? (names.get(r.publishedBy) ?? null) : null,
    })),
  };
}

/** The fields that differ between two versions of a store's content (for the audit row). */
export function changedFields(before: StoreContent | null, after: StoreContent): string[] {
  const keys = Object.keys(after) as (keyof StoreContent)[];
  return keys.filter((k) => JSON.stringify(before?.[k] ?? null) !== JSON.stringify(after[k])).sort();
}

/** A new store (admins): written unpublished, so it can be previewed and published from its editor. */
export async function createStore(
  db: Database,
  actor: StaffActor,
  id: string,
  content: Omit<StoreContent, "photos">,
  audit: AuditContext,
  now: Date,
): Promise<void> {
  requirePermission(actor, "catalog.edit");
  await auditedTx(db, audit, now, async (t, record) => {
    const inserted = await t
      .insert(store)
      .values({ id, ...storeColumns({ ...content, photos: [] }), published: false, createdAt: now, updatedAt: now })
      .onConflictDoNothing()
      .returning({ id: store.id });
    if (inserted.length === 0) throw new StoreEditError("id_taken", "id");
    await replaceExceptions(t, id, content.exceptions, isoDate(taipeiDate(now)));
    await record("store.created", ["store", id], {
      after: { published: false, fields: changedFields(null, { ...content, photos: [] }) },
    });
  });
}

/**
 * The editor's photo tokens as the store's photos: a demo picture only if the store has it (published or
 * in its draft), an uploaded image only if it exists; otherwise `photoMissing` on the photos field.
 */
async function photosFromTokens(
  db: Database,
  tokens: readonly PhotoToken[],
  known: readonly StorePhoto[],
): Promise<StorePhoto[]> {
  const statics = new Map(known.flatMap((p) => (isUploadedPhoto(p) ? [] : [[p.src, p] as const])));
  const ids = tokens.flatMap((t) => (t.kind === "image" ? [t.id] : []));
  const found = new Set(
    ids.length
      ? (await db.select({ id: mediaImage.id }).from(mediaImage).where(inArray(mediaImage.id, ids))).map((r) => r.id)
      : [],
  );
  return tokens.map((t) => {
    if (t.kind === "image") {
      if (!found.has(t.id)) throw new StoreEditError("photoMissing", "photos");
      return { imageId: t.id };
    }
    const picture = statics.get(t.src);
    if (!picture) throw new StoreEditError("photoMissing", "photos");
    return picture;
  });
}

/**
 * Saves the editor's content as the store's draft, if nobody changed it since `expectedVersion`. `photos`
 * null keeps the photos the store has (a form without the photos field).
 */
export async function saveStoreDraft(
  db: Database,
  actor: StaffActor,
  id: string,
  expectedVersion: number,
  content: Omit<StoreContent, "photos">,
  audit: AuditContext,
  now: Date,
  photos: readonly PhotoToken[] | null = null,
): Promise<number> {
  requirePermission(actor, "store.edit", { storeId: id });
  const row = await storeRow(db, id);
  if (!row) throw new StoreEditError("not_found");
  return auditedTx(db, audit, now, async (t, record) => {
    const current = await readDraft<StoreContent>(t, "store", id);
    const base = current.data ?? (await publishedContent(t, row, isoDate(taipeiDate(now))));
    const next: StoreContent = {
      ...content,
      photos: photos ? await photosFromTokens(t, photos, [...base.photos, ...row.photos]) : base.photos,
    };
    const version = await saveDraft(t, "store", id, expectedVersion, next, actor.userId, now);
    if (version === null) throw new VersionConflict("stores", null);
    await record("store.draft_saved", ["store", id], { after: { version, fields: changedFields(base, next) } });
    return version;
  });
}

function storeColumns(content: StoreContent) {
  return {
    name: content.name,
    summary: content.summary,
    city: content.city,
    district: content.district,
    postalCode: content.postalCode,
    address: content.address,
    phone: content.phone,
    email: content.email,
    latitude: content.latitude,
    longitude: content.longitude,
    weeklyHours: content.weeklyHours,
    services: content.services,
    photos: content.photos,
  };
}

/** Exceptions from `today` on become the given list; earlier ones (history) stay. */
async function replaceExceptions(tx: Database, id: string, exceptions: StoreContent["exceptions"], today: string) {
  await tx
    .delete(storeHoursException)
    .where(and(eq(storeHoursException.storeId, id), gte(storeHoursException.date, today)));
  const rows = exceptions
    .filter((e) => e.date >= today)
    .map((e) => ({ storeId: id, date: e.date, intervals: e.intervals, note: e.note ?? null }));
  if (rows.length) await tx.insert(storeHoursException).values(rows);
}

/**
 * Publishing, one action: the pending draft (as of `expectedVersion`, what the person previewed) becomes
 * the store's public content, the store is published, a revision is kept, the catalogue version moves on
 * (every instance's render cache follows within seconds) and the audit row is written — one transaction.
 */
export async function publishStore(
  db: Database,
  actor: StaffActor,
  id: string,
  expectedVersion: number,
  audit: AuditContext,
  now: Date,
): Promise<number> {
  requirePermission(actor, "store.edit", { storeId: id });
  return auditedTx(db, audit, now, async (t, record) => {
    const [row] = await t.select().from(store).where(eq(store.id, id)).for("update").limit(1);
    if (!row) throw new StoreEditError("not_found");
    const taken = await takeDraftForPublish<StoreContent>(t, "store", id, expectedVersion, actor.userId, now);
    if (!taken) throw new VersionConflict("stores", null);
    const today = isoDate(taipeiDate(now));
    const before = await publishedContent(t, row, today);
    const draft = taken.data ?? before;
    // Uploaded images deleted since the draft was saved are left out; the others are locked against a
    // delete until the commit, and listed in store_photo (an image a published store shows is in use).
    const wanted = draft.photos.flatMap((p) => (isUploadedPhoto(p) ? [p.imageId] : []));
    const existing = new Set(
      wanted.length
        ? (
            await t
              .select({ id: mediaImage.id })
              .from(mediaImage)
              .where(inArray(mediaImage.id, wanted))
              .for("key share")
          ).map((r) => r.id)
        : [],
    );
    const content: StoreContent = {
      ...draft,
      photos: draft.photos.filter((p) => !isUploadedPhoto(p) || existing.has(p.imageId)),
    };
    await t.delete(storePhoto).where(eq(storePhoto.storeId, id));
    if (existing.size) await t.insert(storePhoto).values([...existing].map((imageId) => ({ storeId: id, imageId })));
    await t
      .update(store)
      .set({ ...storeColumns(content), published: true, updatedAt: now })
      .where(eq(store.id, id));
    if (taken.data) await replaceExceptions(t, id, content.exceptions, today);
    // A holiday added later keeps the bookings on it, flagged for staff to call (issue 37, ADR 044).
    const flagged = taken.data ? await flagBookingsOnClosedDays(t, id, now) : 0;
    const revision = await recordRevision(t, "store", id, content, actor.userId, now);
    await bumpContentVersion(t, now);
    await record("store.published", ["store", id], {
      before: { published: row.published },
      after: {
        published: true,
        revision,
        fields: changedFields(before, content),
        ...(flagged > 0 ? { appointmentsToCall: flagged } : {}),
      },
    });
    return revision;
  });
}

/** Takes a store off the public site (admins); its content and any draft are kept. */
export async function unpublishStore(
  db: Database,
  actor: StaffActor,
  id: string,
  audit: AuditContext,
  now: Date,
): Promise<boolean> {
  requirePermission(actor, "catalog.edit");
  return auditedTx(db, audit, now, async (t, record) => {
    const changed = await t
      .update(store)
      .set({ published: false, updatedAt: now })
      .where(and(eq(store.id, id), eq(store.published, true)))
      .returning({ id: store.id });
    if (changed.length === 0) return false;
    await bumpContentVersion(t, now);
    await record("store.unpublished", ["store", id], { before: { published: true }, after: { published: false } });
    return true;
  });
}

/** The 8 weeks from this week's Sunday (Taipei): each day's hours with exceptions applied. */
export function calendarWeeks(content: Pick<StoreContent, "weeklyHours" | "exceptions">, now: Date, weeks = 8) {
  const today = taipeiDate(now);
  const weekday = hoursOn(today, content.weeklyHours, []).weekday;
  const start = { ...today };
  const first = new Date(Date.UTC(start.year, start.month - 1, start.day - weekday));
  const todayIso = isoDate(today);
  return Array.from({ length: weeks }, (_, w) =>
    Array.from({ length: 7 }, (_, d) => {
      const date = new Date(first.getTime() + (w * 7 + d) * 86_400_000);
      const day = hoursOn(
        { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() },
        content.weeklyHours,
        content.exceptions,
      );
      return { ...day, past: day.date < todayIso, today: day.date === todayIso };
    }),
  );
}

/** The public store page's data for a preview: the draft's content with the store's displayed materials. */
export async function previewStore(db: Database, id: string, content: StoreContent, now: Date) {
  const materials = await displayedMaterials(db, id);
  return {
    store: { id, ...content },
    photos: await resolvePhotos(db, content.photos),
    status: openStatus(now, content.weeklyHours, content.exceptions),
    week: weekAhead(now, content.weeklyHours, content.exceptions),
    materials,
  };
}

export type { Draft };
