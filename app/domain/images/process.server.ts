import { createHash } from "node:crypto";
import type SharpModule from "sharp";
import type { Metadata, OutputInfo, Sharp } from "sharp";
import { Refusal } from "../refusals";
import { type ImageErrorCode, MAX_IMAGE_BYTES, MAX_INPUT_PIXELS, VARIANT_FORMATS, type VariantFormat } from "./limits";
import { loadSharp } from "./sharp.server";
import { type SniffedFormat, sniffImage } from "./sniff";
import type { MediaVariant } from "./urls";
import { planVariantSizes } from "./variants";

/**
 * Turning an uploaded file into the variants served (ADR 028), with sharp (libvips):
 * 1. the file's first bytes say what it is (sniffImage), never its name;
 * 2. its header says how many pixels it has; more than MAX_INPUT_PIXELS is refused before anything is
 *    decoded (decompression bombs), and libvips is told the same limit in case a header lies;
 * 3. it is decoded once, turned upright from its EXIF orientation (.rotate()), converted to sRGB and
 *    shrunk to the largest width; every variant is made from that;
 * 4. the variants carry no metadata at all: sharp writes none unless asked (no withMetadata/keepExif),
 *    so the GPS position, camera and time phones write into photos are gone.
 * One upload is processed at a time per instance (libvips uses the cores; a second would only queue
 * inside it), a few more wait, and beyond that the answer is `busy`.
 */

export class ImageError extends Refusal<"images"> {
  constructor(code: ImageErrorCode, message: string) {
    super("images", code, { field: "file", message });
    this.name = "ImageError";
  }
}

export type ProcessedVariant = MediaVariant & { data: Buffer };

export type ProcessedImage = {
  /** SHA-256 of the uploaded file, first 32 hex digits: the image's address. */
  hash: string;
  sourceFormat: SniffedFormat;
  sourceBytes: number;
  width: number;
  height: number;
  variants: ProcessedVariant[];
};

/** How each format is written: quality chosen for photos of materials; effort kept low enough for ≤ 3 s. */
const ENCODERS: Record<VariantFormat, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 52, effort: 2 }),
  webp: (image) => image.webp({ quality: 78, effort: 3 }),
  jpeg: (image) => image.jpeg({ quality: 80, mozjpeg: true, progressive: true }),
};

/** Encodes running at once within one upload (the machine has two cores). */
const ENCODE_PARALLELISM = 2;

export function imageHash(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex").slice(0, 32);
}

function openInput(sharp: typeof SharpModule, bytes: Uint8Array) {
  // failOn "error": phones' JPEGs often carry harmless warnings (odd markers); real damage still fails.
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error", sequentialRead: true });
}

async function readHeader(sharp: typeof SharpModule, bytes: Uint8Array, sniffed: SniffedFormat) {
  let meta: Metadata;
  try {
    meta = await openInput(sharp, bytes).metadata();
  } catch (error) {
    // libvips reads the header only and refuses it against limitInputPixels.
    if (error instanceof Error && /pixel limit/i.test(error.message)) throw tooManyPixels();
    throw undecodable(sniffed);
  }
  const expected = sniffed === "heic" || sniffed === "avif" ? "heif" : sniffed;
  if (meta.format !== expected || !meta.width || !meta.height) throw undecodable(sniffed);
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw tooManyPixels();
  return meta;
}

function tooManyPixels(): ImageError {
  return new ImageError("too_many_pixels", "The picture has more pixels than allowed");
}

function undecodable(sniffed: SniffedFormat): ImageError {
  if (sniffed === "heic") return new ImageError("heic_unsupported", "This HEIC picture cannot be decoded here");
  return new ImageError("corrupt", "The picture cannot be read (damaged or incomplete)");
}

/** Runs `tasks` with at most `limit` at once; results in the tasks' order. */
async function inParallel<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** Validates and processes one uploaded file; throws ImageError for anything that is not a usable picture. */
export async function processImage(bytes: Uint8Array): Promise<ProcessedImage> {
  if (bytes.length === 0) throw new ImageError("empty", "The file is empty");
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageError("too_large", "The file is larger than allowed");
  const sniffed = sniffImage(bytes.subarray(0, 64));
  if (!sniffed) throw new ImageError("not_image", "The file is not a JPEG, PNG, WebP or HEIC picture");
  const sharp = await loadSharp();
  const meta = await readHeader(sharp, bytes, sniffed);
  // EXIF orientations 5–8 turn the picture a quarter: width and height swap.
  const upright = (meta.orientation ?? 1) >= 5;
  const width = upright ? meta.height : meta.width;
  const height = upright ? meta.width : meta.height;
  const sizes = planVariantSizes(width, height);
  const largest = sizes[sizes.length - 1];
  if (!largest) throw undecodable(sniffed);

  let base: { data: Buffer; info: OutputInfo };
  try {
    base = await openInput(sharp, bytes)
      .rotate()
      .resize({ width: largest.width, withoutEnlargement: true })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw undecodable(sniffed);
  }
  const { info } = base;
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const tasks = sizes.flatMap((size) =>
    VARIANT_FORMATS.map((format) => async (): Promise<ProcessedVariant> => {
      let image = sharp(base.data, { raw }).resize({ width: size.width, withoutEnlargement: true });
      // JPEG has no transparency: transparent parts become white, not black.
      if (format === "jpeg" && info.channels === 4) image = image.flatten({ background: "#ffffff" });
      const { data, info: out } = await ENCODERS[format](image).toBuffer({ resolveWithObject: true });
      return { width: out.width, height: out.height, format, bytes: data.length, data };
    }),
  );
  const variants = await inParallel(tasks, ENCODE_PARALLELISM);
  return { hash: imageHash(bytes), sourceFormat: sniffed, sourceBytes: bytes.length, width, height, variants };
}

/** At most one upload processed at a time in this instance; up to `queue` more wait, then `busy`. */
export function createProcessingGate(queue = 8) {
  let running = false;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (running) {
      if (waiting.length >= queue) throw new ImageError("busy", "Too many uploads at once, try again shortly");
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running = true;
    try {
      return await task();
    } finally {
      const nextInLine = waiting.shift();
      if (nextInLine) nextInLine();
      else running = false;
    }
  };
}

const gate = createProcessingGate();

/** processImage behind this instance's gate. */
export function processUpload(bytes: Uint8Array): Promise<ProcessedImage> {
  return gate(() => processImage(bytes));
}

/** Reads a request body up to `limit` bytes, counting while it streams: one byte more and it stops (413). */
export async function readBodyLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => {});
      throw new ImageError("too_large", "The file is larger than allowed");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
