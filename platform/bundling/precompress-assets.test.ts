import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressedCopies } from "./precompress-assets";

describe("compressedCopies", () => {
  it("makes a brotli and a gzip copy that decompress to the file", async () => {
    const content = Buffer.from(
      `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ i })))};`,
    );
    const copies = await compressedCopies(content);
    expect(copies.map((copy) => copy.suffix)).toEqual([".br", ".gz"]);
    const [br, gz] = copies;
    expect(brotliDecompressSync(br?.bytes ?? Buffer.alloc(0))).toEqual(content);
    expect(gunzipSync(gz?.bytes ?? Buffer.alloc(0))).toEqual(content);
    expect(br?.bytes.length).toBeLessThan(gz?.bytes.length ?? 0);
  });

  it("writes no copy that would not be smaller than the file", async () => {
    expect(await compressedCopies(Buffer.from("x"))).toEqual([]);
  });
});
