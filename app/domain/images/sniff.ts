/**
 * What a file is, by its first bytes (never by its name or the Content-Type a browser guessed):
 * JPEG, PNG, WebP, or HEIF (HEIC from phones, and AVIF). Anything else is not an image we take.
 */
export type SniffedFormat = "jpeg" | "png" | "webp" | "heic" | "avif";

/** ISO-BMFF brands of HEIC/HEIF pictures (HEVC inside) and of AVIF (AV1 inside). */
const HEIC_BRANDS = new Set(["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"]);
const AVIF_BRANDS = new Set(["avif", "avis"]);

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

/** How many leading bytes sniffImage looks at. */
export const SNIFF_BYTES = 64;

export function sniffImage(head: Uint8Array): SniffedFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  if (head.length >= 8 && ascii(head, 0, 8) === "\x89PNG\r\n\x1a\n") return "png";
  if (head.length >= 12 && ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 4) === "WEBP") return "webp";
  if (head.length >= 16 && ascii(head, 4, 4) === "ftyp") {
    // The ftyp box: size, "ftyp", major brand, minor version, then compatible brands up to its size.
    const size = ((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0);
    const end = Math.min(size, head.length);
    const brands = [ascii(head, 8, 4)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(head, at, 4));
    if (brands.some((b) => AVIF_BRANDS.has(b))) return "avif";
    if (brands.some((b) => HEIC_BRANDS.has(b))) return "heic";
  }
  return null;
}
