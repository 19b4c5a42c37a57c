import type { Database } from "@platform/db/client";
import { material, materialFavourite } from "@platform/db/schema";
import { and, desc, eq } from "drizzle-orm";

/**
 * A member's saved materials. Only published materials can be saved and are listed; saving twice
 * is harmless. The UI (a save button on the material page, the list in the member center) comes
 * once members can sign in.
 */
export async function saveFavourite(db: Database, memberId: string, materialId: string): Promise<boolean> {
  const [published] = await db
    .select({ id: material.id })
    .from(material)
    .where(and(eq(material.id, materialId), eq(material.published, true)))
    .limit(1);
  if (!published) return false;
  await db.insert(materialFavourite).values({ memberId, materialId }).onConflictDoNothing();
  return true;
}

export async function removeFavourite(db: Database, memberId: string, materialId: string): Promise<void> {
  await db
    .delete(materialFavourite)
    .where(and(eq(materialFavourite.memberId, memberId), eq(materialFavourite.materialId, materialId)));
}

export async function isFavourite(db: Database, memberId: string, materialId: string): Promise<boolean> {
  const rows = await db
    .select({ id: materialFavourite.materialId })
    .from(materialFavourite)
    .where(and(eq(materialFavourite.memberId, memberId), eq(materialFavourite.materialId, materialId)))
    .limit(1);
  return rows.length > 0;
}

/** Newest first; unpublished materials stay saved but are not listed. */
export async function listFavourites(db: Database, memberId: string) {
  return db
    .select({
      id: material.id,
      name: material.name,
      categoryId: material.categoryId,
      images: material.images,
      savedAt: materialFavourite.createdAt,
    })
    .from(materialFavourite)
    .innerJoin(material, eq(material.id, materialFavourite.materialId))
    .where(and(eq(materialFavourite.memberId, memberId), eq(material.published, true)))
    .orderBy(desc(materialFavourite.createdAt));
}
