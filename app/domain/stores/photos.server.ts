import type { Database } from "@platform/db/client";
import { isUploadedPhoto, mediaImage, type StorePhoto } from "@platform/db/schema";
import { inArray } from "drizzle-orm";
import { z } from "zod";
import type { MediaImageRef } from "../images/urls";
import type { ResolvedPhoto } from "./photos";

/**
 * Resolves store photos (`store.photos` or a draft's) for pages: uploaded images are read from media_image
 * in one query for any number of stores; an image deleted since a draft referred to it is left out.
 */
export async function resolvePhotoLists(db: Database, lists: readonly StorePhoto[][]): Promise<ResolvedPhoto[][]> {
  const ids = [
    ...new Set(
      lists.flat().flatMap((p) => (isUploadedPhoto(p) && z.uuid().safeParse(p.imageId).success ? [p.imageId] : [])),
    ),
  ];
  const images = new Map<string, MediaImageRef>();
  if (ids.length > 0) {
    const rows = await db
      .select({
        id: mediaImage.id,
        hash: mediaImage.hash,
        width: mediaImage.width,
        height: mediaImage.height,
        altZh: mediaImage.altZh,
        altEn: mediaImage.altEn,
        variants: mediaImage.variants,
      })
      .from(mediaImage)
      .where(inArray(mediaImage.id, ids));
    for (const { id, ...image } of rows) images.set(id, image);
  }
  return lists.map((photos) =>
    photos.flatMap((p): ResolvedPhoto[] => {
      if (!isUploadedPhoto(p)) return [{ kind: "static", ...p }];
      const image = images.get(p.imageId);
      return image ? [{ kind: "media", id: p.imageId, image }] : [];
    }),
  );
}

export async function resolvePhotos(db: Database, photos: readonly StorePhoto[]): Promise<ResolvedPhoto[]> {
  return (await resolvePhotoLists(db, [[...photos]]))[0] ?? [];
}
