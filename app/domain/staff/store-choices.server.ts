import type { Database } from "@platform/db/client";
import { type LocalizedText, store } from "@platform/db/schema";
import { inArray } from "drizzle-orm";
import type { Locale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import type { StaffActor } from "./actor";

/**
 * The stores a person may pick, in one place: the console's store filters and pickers (members, staff, rewards,
 * audit, API keys), the dashboard's store choice and the shell's store list all read them here.
 */

export type StoreChoice = { id: string; name: LocalizedText };

/** Every store ("all") or the listed ones, by id, with their names in both languages. */
export async function storeChoices(db: Database, stores: readonly string[] | "all"): Promise<StoreChoice[]> {
  if (stores !== "all" && stores.length === 0) return [];
  const query = db.select({ id: store.id, name: store.name }).from(store);
  const list = stores === "all" ? await query : await query.where(inArray(store.id, [...stores]));
  return list.sort((a, b) => a.id.localeCompare(b.id));
}

/** The stores a staff member can work at (every store for an admin). */
export function workableStores(db: Database, actor: Pick<StaffActor, "role" | "storeIds">): Promise<StoreChoice[]> {
  return storeChoices(db, actor.role === "admin" ? "all" : actor.storeIds);
}

/** The stores a staff member may pick (every store for an admin), named in the page's language. */
export async function storeChoicesFor(db: Database, actor: Pick<StaffActor, "role" | "storeIds">, locale: Locale) {
  return (await workableStores(db, actor)).map((s) => ({ id: s.id, name: pick(s.name, locale) }));
}
