import type { Database } from "@platform/db/client";
import { type CampaignAudience, member, store } from "@platform/db/schema";
import { materialCategory } from "@platform/db/schema/catalog";
import { quoteRequest } from "@platform/db/schema/quotes";
import { asc, eq, type SQL, sql } from "drizzle-orm";
import { quoteOpenAt } from "~/domain/quotes/status";
import { addIsoDays } from "~/domain/reports/filters";
import { taipeiIsoDate } from "~/lib/time";

/**
 * The campaign audience's showroom filters (issue 37 part 5, ADR 048), as conditions on `member` beside the others
 * of `audienceWhere` (campaigns.server.ts). Each is one indexed semi-join, counted live with the rest:
 * - favourited category: a `material_favourite` of a material of that category (`material_category_idx`, then
 *   `material_favourite_material_idx`);
 * - visited store in the last N Taipei days (today and the N − 1 days before it): a checked-in appointment there
 *   (`appointment_store_day_idx`) or a purchase there (`report_member_store`, the member's last purchase day per
 *   store, by its covering index; the dashboard's active members read the same rows).
 * - quote open: a `quote_request` of the member still open as every page shows it (`quoteOpenAt`: asked, or
 *   answered and still valid in Taipei; not accepted, closed, withdrawn or expired; ADRs 047 and 051).
 */

export const VISITED_DAYS_MAX = 365;

export function showroomConditions(a: CampaignAudience, now: Date): (SQL | undefined)[] {
  return [
    a.favouriteCategory
      ? sql`${member.id} in (select f.member_id from material_favourite f
              join material m on m.id = f.material_id where m.category_id = ${a.favouriteCategory})`
      : undefined,
    a.visitedStoreId && a.visitedDays ? visitedStore(a.visitedStoreId, a.visitedDays, now) : undefined,
    a.quoteOpen
      ? sql`${member.id} in (select ${quoteRequest.memberId} from ${quoteRequest} where ${quoteOpenAt(now)})`
      : undefined,
  ];
}

function visitedStore(storeId: string, days: number, now: Date): SQL {
  const today = taipeiIsoDate(now);
  const since = addIsoDays(today, -(days - 1));
  return sql`${member.id} in (
    select ap.member_id from appointment ap
     where ap.store_id = ${storeId} and ap.local_date between ${since}::date and ${today}::date
       and ap.status = 'checked_in' and ap.member_id is not null
    union
    select rs.member_id from report_member_store rs where rs.store_id = ${storeId} and rs.last_day >= ${since}::date)`;
}

export type AudienceChoice = { id: string; name: { "zh-TW": string; en: string } };
export type AudienceChoices = { categories: AudienceChoice[]; stores: AudienceChoice[] };

/** What the showroom filters may name: the material categories and the stores (the composer's choices). */
export async function audienceChoices(db: Database): Promise<AudienceChoices> {
  const categories = await db
    .select({ id: materialCategory.id, name: materialCategory.name })
    .from(materialCategory)
    .orderBy(asc(materialCategory.sortOrder), asc(materialCategory.id));
  const stores = await db.select({ id: store.id, name: store.name }).from(store).orderBy(asc(store.id));
  return { categories, stores };
}

/**
 * The choices a request's filters name, and only those (ADR 056, 2026-12-07): the live count is asked at each
 * change of the builder, and most of its filters name no category and no store. No statement when neither is
 * named; one (a union of the two primary-key reads) when both are. What `audienceSchema` decides with these is what
 * it decides with `audienceChoices`: a named id is accepted exactly when it exists.
 */
export async function audienceChoicesNamed(
  db: Database,
  values: { favouriteCategory?: string; visitedStore?: string },
): Promise<AudienceChoices> {
  // An id with a control character (a NUL byte PostgreSQL would refuse) or of an unlikely length names nothing.
  const named = (raw: string | undefined) => {
    const id = raw?.trim() ?? "";
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    return id.length <= 200 && !/[\u0000-\u001f\u007f]/.test(id) ? id : "";
  };
  const categoryId = named(values.favouriteCategory);
  const storeId = named(values.visitedStore);
  const categories = () =>
    db
      .select({ kind: sql<string>`'category'`.as("kind"), id: materialCategory.id, name: materialCategory.name })
      .from(materialCategory)
      .where(eq(materialCategory.id, categoryId));
  const stores = () =>
    db
      .select({ kind: sql<string>`'store'`.as("kind"), id: store.id, name: store.name })
      .from(store)
      .where(eq(store.id, storeId));
  if (!categoryId && !storeId) return { categories: [], stores: [] };
  const found = await (categoryId && storeId ? categories().unionAll(stores()) : categoryId ? categories() : stores());
  const of = (kind: string) => found.filter((r) => r.kind === kind).map(({ id, name }) => ({ id, name }));
  return { categories: of("category"), stores: of("store") };
}
