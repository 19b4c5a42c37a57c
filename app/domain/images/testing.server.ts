import { crc32, deflateSync } from "node:zlib";
import { loadSharp } from "./sharp.server";

/**
 * Test files for the image tests (unit, integration, browser, bench): made here, never shipped as
 * binaries. No test-runner imports.
 */

/** A GPS position as phones write it (Taipei 101), to check that no variant keeps it. */
export const TEST_GPS = {
  GPSLatitudeRef: "N",
  GPSLatitude: "25/1 2/1 1080/100",
  GPSLongitudeRef: "E",
  GPSLongitude: "121/1 33/1 5400/100",
};

/**
 * A photo-like JPEG (a gradient with fine noise, so encoders work as on a real photo) carrying EXIF with
 * a camera, a time, a GPS position, and the given orientation.
 */
export async function photoJpeg(width: number, height: number, options: { orientation?: number } = {}) {
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8a6f55"/><stop offset="0.5" stop-color="#d9cbb8"/><stop offset="1" stop-color="#3d4a52"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#b55d3c" opacity="0.7"/></svg>`,
  );
  const sharp = await loadSharp();
  // Grain a few pixels wide (noise made at a third of the size, enlarged): it survives the shrink to 1600 px
  // as the texture of stone or wood does, so the encoders work about as hard as on a real photo.
  const noise = await sharp({
    create: {
      width: Math.max(1, Math.ceil(width / 3)),
      height: Math.max(1, Math.ceil(height / 3)),
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  })
    .resize(width, height, { fit: "fill", kernel: "cubic" })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return sharp(gradient)
    .composite([{ input: noise, blend: "overlay" }])
    .jpeg({ quality: 92 })
    .withExif({
      IFD0: { Make: "TestPhone", Model: "Camera 12", DateTime: "2026:11:20 10:00:00" },
      IFD3: TEST_GPS,
    })
    .withMetadata({ orientation: options.orientation ?? 1 })
    .toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A valid black-and-white PNG of `width` × `height` pixels, all black: tiny on disk (deflate of zeros),
 * enormous once decoded. 30,000 × 30,000 is 900 MP in about 110 kB: a decompression bomb.
 */
export function blankPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from("\x89PNG\r\n\x1a\n", "binary"),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(rows, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The start of a PDF document (renamed to photo.jpg by whoever uploads it). */
export function pdfBytes(): Buffer {
  return Buffer.from(
    "%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n",
  );
}

/** A zip archive whose one entry inflates to 50 MB of zeros (a zip bomb, named photo.png). */
export function zipBomb(): Buffer {
  const content = deflateSync(Buffer.alloc(50 * 1024 * 1024), { level: 9 }).subarray(2, -4); // raw deflate
  const name = Buffer.from("photo.png");
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(50 * 1024 * 1024, 22);
  local.writeUInt16LE(name.length, 26);
  return Buffer.concat([local, name, content]);
}

/**
 * A HEIC as an iPhone writes it, as far as its container goes (ftyp brands heic/mif1, an hvc1 item):
 * made from an AVIF by renaming its brands and codec boxes. The prebuilt libvips has no HEVC decoder, so
 * a real iPhone HEIC and this one end the same way (ADR 028).
 */
export async function heicLike(): Promise<Buffer> {
  const sharp = await loadSharp();
  const avif = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#a0522d" } })
    .avif()
    .toBuffer();
  const text = avif.toString("latin1").replaceAll("avif", "heic").replaceAll("avis", "heix");
  return Buffer.from(text.replaceAll("av01", "hvc1").replaceAll("av1C", "hvcC"), "latin1");
}

/** Whether an EXIF block (as sharp's metadata().exif gives it) points to a GPS IFD (tag 0x8825). */
export function exifHasGps(exif: Buffer | undefined): boolean {
  if (!exif) return false;
  const tiff = exif.indexOf("II*\0", 0, "latin1") >= 0 ? "le" : "be";
  const tag = tiff === "le" ? Buffer.from([0x25, 0x88]) : Buffer.from([0x88, 0x25]);
  return exif.includes(tag);
}
