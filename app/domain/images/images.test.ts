import sharp, { type Sharp } from "sharp";
import { describe, expect, it } from "vitest";
import { MAX_IMAGE_BYTES, MAX_INPUT_PIXELS } from "./limits";
import { createProcessingGate, ImageError, processImage, readBodyLimited } from "./process.server";
import { sniffImage } from "./sniff";
import { blankPng, exifHasGps, heicLike, pdfBytes, photoJpeg, zipBomb } from "./testing.server";
import { fallbackVariant, mediaUrl, parseVariantFile, srcSet } from "./urls";
import { planVariantSizes } from "./variants";

async function refusal(run: Promise<unknown>): Promise<{ code: string; status: number }> {
  try {
    await run;
  } catch (error) {
    if (error instanceof ImageError) return { code: error.code, status: error.status };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("sniffImage", () => {
  it("tells JPEG, PNG, WebP, HEIC and AVIF by their first bytes", async () => {
    const of = async (image: Sharp) => sniffImage((await image.toBuffer()).subarray(0, 64));
    const base = () => sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } });
    expect(await of(base().jpeg())).toBe("jpeg");
    expect(await of(base().png())).toBe("png");
    expect(await of(base().webp())).toBe("webp");
    expect(await of(base().avif())).toBe("avif");
    expect(sniffImage((await heicLike()).subarray(0, 64))).toBe("heic");
  });

  it("refuses everything else, whatever it is called", () => {
    expect(sniffImage(pdfBytes())).toBeNull();
    expect(sniffImage(zipBomb().subarray(0, 64))).toBeNull();
    expect(sniffImage(Buffer.from("GIF89a......"))).toBeNull();
    expect(sniffImage(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImage(new Uint8Array([0xff, 0xd8]))).toBeNull();
    expect(sniffImage(new Uint8Array())).toBeNull();
  });
});

describe("planVariantSizes", () => {
  it("makes the standard widths below the picture and caps at 1600, never enlarging", () => {
    expect(planVariantSizes(4000, 3000)).toEqual([
      { width: 480, height: 360 },
      { width: 960, height: 720 },
      { width: 1600, height: 1200 },
    ]);
    expect(planVariantSizes(1200, 800)).toEqual([
      { width: 480, height: 320 },
      { width: 960, height: 640 },
      { width: 1200, height: 800 },
    ]);
    expect(planVariantSizes(300, 900)).toEqual([{ width: 300, height: 900 }]);
    expect(planVariantSizes(1, 1)).toEqual([{ width: 1, height: 1 }]);
  });

  it("leaves out a width too close to the next one", () => {
    expect(planVariantSizes(500, 500).map((s) => s.width)).toEqual([500]);
    expect(planVariantSizes(1000, 500).map((s) => s.width)).toEqual([480, 1000]);
    expect(planVariantSizes(1700, 500).map((s) => s.width)).toEqual([480, 960, 1600]);
  });

  it("plans nothing for nonsense sizes", () => {
    expect(planVariantSizes(0, 10)).toEqual([]);
    expect(planVariantSizes(10.5, 10)).toEqual([]);
  });
});

describe("variant addresses", () => {
  const image = {
    hash: "0123456789abcdef0123456789abcdef",
    variants: [
      { width: 960, height: 720, format: "jpeg" as const, bytes: 1 },
      { width: 480, height: 360, format: "jpeg" as const, bytes: 1 },
      { width: 480, height: 360, format: "avif" as const, bytes: 1 },
    ],
  };
  it("round-trips file names and builds srcset smallest first", () => {
    expect(mediaUrl(image.hash, 960, "jpeg")).toBe(`/media/${image.hash}/960.jpg`);
    expect(parseVariantFile("960.jpg")).toEqual({ width: 960, format: "jpeg" });
    expect(parseVariantFile("960.jpeg")).toBeNull();
    expect(parseVariantFile("0960.avif")).toBeNull();
    expect(parseVariantFile("../x.avif")).toBeNull();
    expect(srcSet(image, "jpeg")).toBe(`/media/${image.hash}/480.jpg 480w, /media/${image.hash}/960.jpg 960w`);
    expect(srcSet(image, "webp")).toBe("");
    expect(fallbackVariant(image)?.width).toBe(960);
    expect(fallbackVariant(image, 2000)?.width).toBe(960);
  });
});

describe("processImage", () => {
  it("makes AVIF, WebP and JPEG at each width with no EXIF (no GPS) left, upright", { timeout: 60_000 }, async () => {
    // Orientation 6: stored 1200×800, shown 800×1200.
    const source = await photoJpeg(1200, 800, { orientation: 6 });
    const sourceMeta = await sharp(source).metadata();
    expect(sourceMeta.exif?.toString("latin1")).toContain("TestPhone");
    expect(exifHasGps(sourceMeta.exif)).toBe(true);
    expect(sourceMeta.orientation).toBe(6);

    const processed = await processImage(source);
    expect(processed).toMatchObject({ sourceFormat: "jpeg", width: 800, height: 1200 });
    expect(processed.hash).toMatch(/^[0-9a-f]{32}$/);
    expect(processed.variants.map((v) => `${v.width}.${v.format}`)).toEqual([
      "480.avif",
      "480.webp",
      "480.jpeg",
      "800.avif",
      "800.webp",
      "800.jpeg",
    ]);
    for (const variant of processed.variants) {
      const meta = await sharp(variant.data).metadata();
      expect(meta.format).toBe(variant.format === "avif" ? "heif" : variant.format);
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      expect(variant.data.toString("latin1")).not.toContain("TestPhone");
      expect(meta.width).toBe(variant.width);
      expect(meta.height).toBe(Math.round((variant.width * 1200) / 800));
      expect(variant.bytes).toBe(variant.data.length);
    }
  });

  it("keeps transparency out of JPEG as white", async () => {
    const png = await sharp({
      create: { width: 40, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const processed = await processImage(png);
    const jpeg = processed.variants.find((v) => v.format === "jpeg");
    const { data } = await sharp(jpeg?.data).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeGreaterThan(240);
  });

  it("refuses a renamed PDF, a zip bomb and an empty file", async () => {
    expect(await refusal(processImage(pdfBytes()))).toEqual({ code: "not_image", status: 415 });
    expect(await refusal(processImage(zipBomb()))).toEqual({ code: "not_image", status: 415 });
    expect(await refusal(processImage(new Uint8Array()))).toEqual({ code: "empty", status: 400 });
  });

  it("refuses a 30,000 × 30,000 PNG and a smaller decompression bomb before decoding them", {
    timeout: 30_000,
  }, async () => {
    const huge = blankPng(30_000, 30_000);
    expect(huge.length).toBeLessThan(200_000);
    expect(await refusal(processImage(huge))).toEqual({ code: "too_many_pixels", status: 422 });
    const side = Math.ceil(Math.sqrt(MAX_INPUT_PIXELS)) + 1;
    expect(await refusal(processImage(blankPng(side, side)))).toEqual({ code: "too_many_pixels", status: 422 });
  });

  it("refuses a damaged picture and a file over the size limit", async () => {
    const jpeg = await photoJpeg(200, 100);
    expect(await refusal(processImage(jpeg.subarray(0, 300)))).toEqual({ code: "corrupt", status: 422 });
    expect(await refusal(processImage(new Uint8Array(MAX_IMAGE_BYTES + 1)))).toEqual({
      code: "too_large",
      status: 413,
    });
  });

  it("answers heic_unsupported for a HEIC this build cannot decode", async () => {
    expect(await refusal(processImage(await heicLike()))).toEqual({ code: "heic_unsupported", status: 415 });
  });
});

describe("readBodyLimited", () => {
  const stream = (chunks: number[], pulled: { count: number }) =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        const size = chunks[pulled.count];
        if (size === undefined) return controller.close();
        pulled.count++;
        controller.enqueue(new Uint8Array(size));
      },
    });

  it("stops reading at the first byte over the limit", async () => {
    const pulled = { count: 0 };
    expect(await refusal(readBodyLimited(stream([60, 60, 60, 60, 60], pulled), 100))).toEqual({
      code: "too_large",
      status: 413,
    });
    expect(pulled.count).toBe(2);
    expect((await readBodyLimited(stream([50, 50], { count: 0 }), 100)).length).toBe(100);
  });
});

describe("createProcessingGate", () => {
  it("runs one task at a time, queues a few, and answers busy beyond", async () => {
    const gate = createProcessingGate(1);
    let running = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      gate(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
      });
    const first = task();
    const second = task();
    expect(await refusal(task())).toEqual({ code: "busy", status: 503 });
    await Promise.resolve();
    releases.shift()?.();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    releases.shift()?.();
    await second;
    expect(most).toBe(1);
  });
});
