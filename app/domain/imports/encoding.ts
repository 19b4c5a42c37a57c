/**
 * Text encodings of imported files (issue 35): UTF-8 with or without a BOM, Big5 (cp950, what Excel
 * on a Traditional Chinese Windows writes as "CSV"), and UTF-16 LE or BE with its BOM (Excel's "Unicode
 * text"; the BOM decides, whatever the caller gives: no Big5 or UTF-8 text starts with FF FE or FE FF). Streamed: the first 64 kB decide the encoding when the
 * caller does not give one, then every chunk goes through one iconv-lite decoder, so a character split
 * across two chunks is decoded right and nothing is held whole.
 */
import iconv from "iconv-lite";

export const TEXT_ENCODINGS = ["utf-8", "big5", "utf-16le", "utf-16be"] as const;
export type TextEncodingName = (typeof TEXT_ENCODINGS)[number];

/** The names iconv-lite knows them by. */
const ICONV_NAMES: Record<TextEncodingName, string> = {
  "utf-8": "utf8",
  big5: "big5",
  "utf-16le": "utf16le",
  "utf-16be": "utf16be",
};

/** How much of a file the guess (and the binary check) looks at. */
export const GUESS_BYTES = 64 * 1024;

const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function hasUtf8Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2];
}

/** The UTF-16 a byte order mark at the start says (FF FE: little-endian, FE FF: big-endian), or null. */
export function utf16Bom(bytes: Uint8Array): "utf-16le" | "utf-16be" | null {
  if (bytes.length < 2) return null;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return null;
}

/**
 * Valid UTF-8 (or a UTF-8 BOM) in the prefix → utf-8, else big5. `complete` says the prefix is the whole
 * file; otherwise a multi-byte character cut at the prefix's end is not held against UTF-8.
 */
export function guessEncoding(prefix: Uint8Array, complete = false): TextEncodingName {
  if (hasUtf8Bom(prefix)) return "utf-8";
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(prefix, { stream: !complete });
    return "utf-8";
  } catch {
    return "big5";
  }
}

/**
 * NUL bytes do not occur in a UTF-8 or Big5 text file (a spreadsheet, an image, UTF-16 without its BOM). UTF-16
 * holds them in every ASCII character: its text is checked after decoding instead (control characters).
 */
export function looksBinary(prefix: Uint8Array, encoding: TextEncodingName = "utf-8"): boolean {
  if (encoding === "utf-16le" || encoding === "utf-16be") return false;
  return prefix.indexOf(0) !== -1;
}

export type DecodedText = {
  encoding: TextEncodingName;
  /** The file starts with the encoding's byte order mark (UTF-16 always does; UTF-8 may). */
  bom: boolean;
  /** The encoding was read from the file (BOM, guess), not the one the caller gave. */
  detected: boolean;
  /** The first bytes of the file (up to GUESS_BYTES), for format checks. */
  prefix: Uint8Array;
  /** The file's text, BOM removed, in chunks. Iterate once. */
  text: AsyncIterable<string>;
};

/**
 * Reads up to GUESS_BYTES to decide the encoding (unless given), then decodes the stream lazily. The
 * prefix read is replayed into the decoder, so nothing is lost.
 */
export async function decodeText(
  input: AsyncIterable<Uint8Array>,
  options: { encoding?: TextEncodingName } = {},
): Promise<DecodedText> {
  const iterator = input[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < GUESS_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  const joined = concatBytes(head, headBytes);
  const prefix = joined.length > GUESS_BYTES ? joined.subarray(0, GUESS_BYTES) : joined;
  const utf16 = utf16Bom(prefix);
  const encoding = utf16 ?? options.encoding ?? guessEncoding(prefix, done && joined.length <= GUESS_BYTES);
  const bom = utf16 !== null || (encoding === "utf-8" && hasUtf8Bom(prefix));
  const detected = utf16 !== null || options.encoding === undefined;

  async function* text(): AsyncGenerator<string> {
    const decoder = iconv.getDecoder(ICONV_NAMES[encoding], { stripBOM: true });
    let first = true;
    const emit = (chunk: string): string => {
      if (first && chunk.length > 0) {
        first = false;
        return chunk.charCodeAt(0) === 0xfeff ? chunk.slice(1) : chunk;
      }
      return chunk;
    };
    try {
      if (joined.length > 0) {
        const s = emit(decoder.write(Buffer.from(joined.buffer, joined.byteOffset, joined.length)));
        if (s) yield s;
      }
      while (!done) {
        const next = await iterator.next();
        if (next.done) break;
        const s = emit(decoder.write(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.length)));
        if (s) yield s;
      }
      const rest = decoder.end();
      if (rest) {
        const s = emit(rest);
        if (s) yield s;
      }
    } finally {
      if (!done) await iterator.return?.();
    }
  }

  return { encoding, bom, detected, prefix, text: text() };
}

function concatBytes(parts: Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
