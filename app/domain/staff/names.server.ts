import type { Database } from "@platform/db/client";
import { authUser } from "@platform/db/schema";
import { inArray } from "drizzle-orm";

/** The display names of staff users by id (who started a run, who published a store's content), in one query. */
export async function staffNames(db: Database, ids: readonly (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: authUser.id, name: authUser.name })
    .from(authUser)
    .where(inArray(authUser.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}
