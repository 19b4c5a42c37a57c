import type { LocalizedText } from "@platform/db/schema/catalog";
import { fallbackVariant, type MediaImageRef, mediaUrl } from "~/domain/images/urls";
import type { Locale } from "~/lib/i18n";
import { pick } from "~/lib/localized";

/**
 * Store photos as pages show them (pure; safe for the browser): a demo store's generated picture
 * (`static`), or an uploaded image (`media`, rendered with <ResponsiveImage>: srcset, sizes, width and
 * height, lazy). The editor posts each photo as a token: `image:<id>` or `static:<src>`.
 */

export type ResolvedPhoto =
  | { kind: "static"; src: string; alt: LocalizedText; width: number; height: number }
  | { kind: "media"; id: string; image: MediaImageRef };

export type PhotoView =
  | { kind: "static"; src: string; alt: string; width: number; height: number }
  | { kind: "media"; image: MediaImageRef };

export function photoView(photo: ResolvedPhoto, locale: Locale): PhotoView {
  return photo.kind === "static"
    ? { kind: "static", src: photo.src, alt: pick(photo.alt, locale), width: photo.width, height: photo.height }
    : { kind: "media", image: photo.image };
}

/** One address of the photo (Open Graph, JSON-LD): the picture itself, or the JPEG closest to 1600 px. */
export function photoUrl(photo: PhotoView): string | null {
  if (photo.kind === "static") return photo.src;
  const jpeg = fallbackVariant(photo.image, 1600);
  return jpeg ? mediaUrl(photo.image.hash, jpeg.width, "jpeg") : null;
}

/** The editor's token of a photo (the hidden inputs' values, in order). */
export function photoToken(photo: ResolvedPhoto): string {
  return photo.kind === "static" ? `static:${photo.src}` : `image:${photo.id}`;
}

export const MAX_STORE_PHOTOS = 12;
