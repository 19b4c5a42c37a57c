import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { decodeText, GUESS_BYTES, guessEncoding, looksBinary, utf16Bom } from "./encoding";
import { bytesOf, collect } from "./test-streams";

const text = "會員編號,姓名,手機\nA001,王小明,0912-345-678\n";

describe("guessEncoding", () => {
  it("takes valid UTF-8 (with or without BOM) as utf-8 and anything else as big5", () => {
    expect(guessEncoding(new TextEncoder().encode(text), true)).toBe("utf-8");
    expect(guessEncoding(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]), true)).toBe("utf-8");
    expect(guessEncoding(iconv.encode(text, "big5"), true)).toBe("big5");
  });

  it("does not hold a character cut at the end of the prefix against UTF-8", () => {
    const bytes = new TextEncoder().encode("王");
    expect(guessEncoding(bytes.subarray(0, 2), false)).toBe("utf-8");
    expect(guessEncoding(bytes.subarray(0, 2), true)).toBe("big5");
  });

  it("sees NUL bytes as binary, except in UTF-16 (every ASCII character holds one)", () => {
    expect(looksBinary(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]))).toBe(true);
    expect(looksBinary(new TextEncoder().encode(text))).toBe(false);
    expect(looksBinary(iconv.encode(text, "utf16le"), "utf-16le")).toBe(false);
  });

  it("reads UTF-16's byte order mark", () => {
    expect(utf16Bom(Uint8Array.from([0xff, 0xfe, 0x61, 0x00]))).toBe("utf-16le");
    expect(utf16Bom(Uint8Array.from([0xfe, 0xff, 0x00, 0x61]))).toBe("utf-16be");
    expect(utf16Bom(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]))).toBeNull();
    expect(utf16Bom(Uint8Array.from([0xff]))).toBeNull();
  });
});

describe("decodeText", () => {
  it("decodes Big5 split across tiny chunks", async () => {
    const decoded = await decodeText(bytesOf(iconv.encode(text, "big5"), 3));
    expect(decoded.encoding).toBe("big5");
    expect((await collect(decoded.text)).join("")).toBe(text);
  });

  it("removes a UTF-8 BOM and keeps the rest", async () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    const decoded = await decodeText(bytesOf(bom, 2));
    expect(decoded.encoding).toBe("utf-8");
    expect((await collect(decoded.text)).join("")).toBe(text);
  });

  it("guesses from the first 64 kB and replays them", async () => {
    const long = `${"a,b\n".repeat(GUESS_BYTES / 4 + 10)}王`;
    const decoded = await decodeText(bytesOf(long, 4096));
    expect(decoded.encoding).toBe("utf-8");
    expect(decoded.prefix.length).toBe(GUESS_BYTES);
    expect((await collect(decoded.text)).join("")).toBe(long);
  });

  it("decodes UTF-16 LE and BE by their BOM, split across odd chunks, the BOM removed", async () => {
    const le = Uint8Array.from([0xff, 0xfe, ...iconv.encode(text, "utf16le")]);
    const be = Uint8Array.from([0xfe, 0xff, ...iconv.encode(text, "utf16be")]);
    for (const [bytes, encoding] of [
      [le, "utf-16le"],
      [be, "utf-16be"],
    ] as const) {
      const decoded = await decodeText(bytesOf(bytes, 3), { encoding: "utf-8" });
      expect(decoded).toMatchObject({ encoding, bom: true, detected: true });
      expect((await collect(decoded.text)).join("")).toBe(text);
    }
  });

  it("uses the encoding it is given", async () => {
    const decoded = await decodeText(bytesOf(iconv.encode(text, "big5")), { encoding: "big5" });
    expect(decoded.encoding).toBe("big5");
    expect((await collect(decoded.text)).join("")).toBe(text);
  });
});
