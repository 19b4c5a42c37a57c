import { VARIANT_FORMATS, type VariantFormat } from "./limits";

/**
 * The addresses of uploaded images' variants (ADR 028), safe for the browser: `/media/<hash>/<width>.<ext>`.
 * The hash is of the uploaded file and the processing never changes for a stored image, so one address
 * always means the same bytes: served `immutable` for a year.
 */
export type MediaVariant = { width: number; height: number; format: VariantFormat; bytes: number };

/** What a page needs to show an uploaded image (the loader sends it; ResponsiveImage renders it). */
export type MediaImageRef = {
  hash: string;
  width: number;
  height: number;
  altZh: string;
  altEn: string;
  variants: readonly MediaVariant[];
};

/** What the browser gets about an uploaded image (the console's lists and the uploader's answer). */
export type MediaImageView = MediaImageRef & {
  id: string;
  sourceFormat: string;
  sourceBytes: number;
  createdAt: string;
};

export const MEDIA_HASH = /^[0-9a-f]{32}$/;

const EXTENSIONS: Record<VariantFormat, string> = { avif: "avif", webp: "webp", jpeg: "jpg" };
export const CONTENT_TYPES: Record<VariantFormat, string> = {
  avif: "image/avif",
  webp: "image/webp",
  jpeg: "image/jpeg",
};

/** The key of a variant in the media store (the database table or the bucket). */
export function variantKey(hash: string, width: number, format: VariantFormat): string {
  return `media/${hash}/${width}.${EXTENSIONS[format]}`;
}

export function mediaUrl(hash: string, width: number, format: VariantFormat): string {
  return `/${variantKey(hash, width, format)}`;
}

/** `960.webp` → { width: 960, format: "webp" }; null for anything else. */
export function parseVariantFile(file: string): { width: number; format: VariantFormat } | null {
  const match = /^([1-9]\d{0,4})\.(avif|webp|jpg)$/.exec(file);
  if (!match) return null;
  const format = VARIANT_FORMATS.find((f) => EXTENSIONS[f] === match[2]);
  return format ? { width: Number(match[1]), format } : null;
}

/** `srcset` of one format: every width of it, smallest first. */
export function srcSet(image: Pick<MediaImageRef, "hash" | "variants">, format: VariantFormat): string {
  return image.variants
    .filter((v) => v.format === format)
    .sort((a, b) => a.width - b.width)
    .map((v) => `${mediaUrl(image.hash, v.width, format)} ${v.width}w`)
    .join(", ");
}

/** The JPEG for `src` (browsers without srcset): the one closest to `preferred` pixels wide. */
export function fallbackVariant(image: Pick<MediaImageRef, "variants">, preferred = 960): MediaVariant | null {
  const jpegs = image.variants.filter((v) => v.format === "jpeg").sort((a, b) => a.width - b.width);
  return jpegs.find((v) => v.width >= preferred) ?? jpegs.at(-1) ?? null;
}
