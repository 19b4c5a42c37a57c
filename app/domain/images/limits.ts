/**
 * Uploaded images' limits and sizes (ADR 028). Plain data, shared by the server (validation, processing)
 * and the browser (the uploader checks the size before sending, the server checks again).
 */

/** The largest file accepted, in bytes (a phone's photo is 2–8 MB; HEIC less). */
export const MAX_IMAGE_BYTES = 15 * 1024 * 1024;

/**
 * The most pixels a picture may have (width × height, before it is decoded): 50 MP covers every phone's
 * default (12–50 MP) and refuses decompression bombs (a small file that declares a huge picture).
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** The widths served; a picture is never enlarged, so a smaller one gets its own width as the largest. */
export const VARIANT_WIDTHS = [480, 960, 1600] as const;

/** Best first: browsers pick the first `<source>` they can show; JPEG is the `<img>` every browser shows. */
export const VARIANT_FORMATS = ["avif", "webp", "jpeg"] as const;
export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** Alt text: required in zh-TW (the site's first language), optional in English; this many characters at most. */
export const ALT_MAX_LENGTH = 200;

/** Where the console uploads to (the body limit for this path is MAX_IMAGE_BYTES, not the app's 1 MB). */
export const IMAGE_UPLOAD_PATH = "/admin/images/upload";

/** Why an upload was refused; the uploader shows each one's message next to the file field. */
export const IMAGE_ERROR_CODES = [
  "empty",
  "too_large",
  "not_image",
  "heic_unsupported",
  "too_many_pixels",
  "corrupt",
  "busy",
] as const;
export type ImageErrorCode = (typeof IMAGE_ERROR_CODES)[number];
