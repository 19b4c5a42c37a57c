/**
 * A CSV export of another CRM, streamed (issue 35): the encoding is guessed (or given), the delimiter
 * (comma, tab or semicolon) is read from the header line, csv-parse's stream API splits records, and rows
 * come out one at a time as header → cell, so a million-row file runs in the memory of one row. A file that
 * is not CSV (binary, NUL bytes, JSON, column counts all over the place) is refused before any row is read.
 * Server-side (node streams); the row reader and the mapping guess are client-safe in csv-mapping.ts.
 */
import { Readable } from "node:stream";
import { type CsvError, parse } from "csv-parse";
import { decodeText, looksBinary, type TextEncodingName } from "./encoding";
import { ImportFileError } from "./errors";

export { DEFAULT_CONSENT_CHANNEL, guessMapping, headerKey, readCsvRow } from "./csv-mapping";

export type CsvRow = { line: number; cells: Record<string, string> };

/** Rows looked at before the file is accepted as CSV. */
const PEEK_ROWS = 50;
/** Longest record accepted (a row of a member list, not a document). */
const MAX_RECORD_CHARS = 1_000_000;

/**
 * Headers are trimmed, BOM-free and unique: an empty header becomes `column_<n>`, a repeated one
 * `<name>_2`, `<name>_3` … (1-based column numbers).
 */
export function uniqueHeaders(raw: string[]): string[] {
  const seen = new Set<string>();
  return raw.map((h, i) => {
    let name = h.replace(/\uFEFF/g, "").trim() || `column_${i + 1}`;
    if (seen.has(name)) {
      let n = 2;
      while (seen.has(`${name}_${n}`)) n++;
      name = `${name}_${n}`;
    }
    seen.add(name);
    return name;
  });
}

/** C0 control characters other than tab, line feed, form feed and carriage return: not text. */
function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c && c !== 0x0d) return true;
  }
  return false;
}

function detectDelimiter(firstLine: string): string {
  let best = ",";
  let bestCount = 0;
  for (const d of [",", "\t", ";"]) {
    let count = 0;
    let quoted = false;
    for (const ch of firstLine) {
      if (ch === '"') quoted = !quoted;
      else if (ch === d && !quoted) count++;
    }
    if (count > bestCount) {
      best = d;
      bestCount = count;
    }
  }
  return best;
}

function toFileError(error: unknown): ImportFileError {
  if (error instanceof ImportFileError) return error;
  const e = error as Partial<CsvError> & { lines?: number };
  if ((e && typeof e.code === "string" && e.code.startsWith("CSV_")) || e?.code === "INVALID_OPENING_QUOTE") {
    const line = typeof e.lines === "number" ? e.lines : undefined;
    if (e.code === "CSV_QUOTE_NOT_CLOSED") return new ImportFileError("truncated", line, "a quoted cell is not closed");
    if (e.code === "CSV_MAX_RECORD_SIZE") return new ImportFileError("not_csv", line, "a record is too long");
    return new ImportFileError("not_csv", line, e.message);
  }
  throw error;
}

/**
 * Opens a CSV file: encoding, headers, and the rows as an async iterable (iterate once). Throws
 * ImportFileError: `empty` (no header), `not_csv` (binary, JSON, not tabular), `truncated` (an open quote
 * at the end). A row with more cells than headers keeps the extra cells as `column_<n>`; a shorter row
 * has empty cells. Rows whose cells are all empty are skipped.
 */
export async function csvRows(
  input: AsyncIterable<Uint8Array>,
  options: { encoding?: TextEncodingName } = {},
): Promise<{
  encoding: TextEncodingName;
  /** The file starts with a byte order mark. */
  bom: boolean;
  /** The encoding was read from the file, not given. */
  detected: boolean;
  headers: string[];
  rows: AsyncIterable<CsvRow>;
}> {
  const decoded = await decodeText(input, options);
  if (looksBinary(decoded.prefix, decoded.encoding))
    throw new ImportFileError("not_csv", 1, "binary content (NUL bytes)");

  // The first text: enough for the delimiter and the JSON check.
  const textIterator = decoded.text[Symbol.asyncIterator]();
  let head = "";
  let textDone = false;
  while (!textDone && !/\n/.test(head) && head.length < 65_536) {
    const next = await textIterator.next();
    if (next.done) textDone = true;
    else head += next.value;
  }
  const trimmed = head.trimStart();
  if (!trimmed) throw new ImportFileError("empty", 1);
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) throw new ImportFileError("not_csv", 1, "looks like JSON");
  const firstLine = trimmed.split(/\r?\n/, 1)[0] ?? "";
  if (hasControlCharacters(head)) throw new ImportFileError("not_csv", 1, "control characters");
  // Excel's "sep=;" hint line names the delimiter and is not a row.
  const sepHint = /^sep=([,;\t|])\s*$/i.exec(head.split(/\r?\n/, 1)[0] ?? "");
  const delimiter = sepHint ? (sepHint[1] as string) : detectDelimiter(firstLine);

  async function* text(): AsyncGenerator<string> {
    try {
      if (head) yield head;
      while (!textDone) {
        const next = await textIterator.next();
        if (next.done) {
          textDone = true;
          break;
        }
        yield next.value;
      }
    } finally {
      // Stopped early (the caller left the loop, or a CSV error): let go of the input too.
      if (!textDone) await textIterator.return?.();
    }
  }

  const parser = parse({
    delimiter,
    from_line: sepHint ? 2 : 1,
    info: true,
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: MAX_RECORD_CHARS,
  });
  const source = Readable.from(text(), { objectMode: false });
  source.on("error", (error) => parser.destroy(error));
  source.pipe(parser);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;

  const nextRecord = async (): Promise<{ cells: string[]; line: number } | null> => {
    try {
      const next = await records.next();
      if (next.done) return null;
      const { record, info } = next.value;
      let inner = 0;
      for (const c of record) for (let i = c.indexOf("\n"); i !== -1; i = c.indexOf("\n", i + 1)) inner++;
      return { cells: record, line: info.lines - inner };
    } catch (error) {
      source.destroy();
      throw toFileError(error);
    }
  };

  const headerRecord = await nextRecord();
  if (!headerRecord) throw new ImportFileError("empty", 1);
  const headers = uniqueHeaders(headerRecord.cells);
  const width = headers.length;

  // Peek: a file whose rows disagree with the header about the number of columns is not a table.
  const peeked: { cells: string[]; line: number }[] = [];
  let inconsistent = 0;
  while (peeked.length < PEEK_ROWS) {
    const r = await nextRecord();
    if (!r) break;
    peeked.push(r);
    let used = r.cells.length;
    while (used > width && !(r.cells[used - 1] ?? "").trim()) used--;
    if (used > width || (width > 1 && used === 1)) inconsistent++;
  }
  if (peeked.length > 0 && inconsistent > Math.max(1, peeked.length * 0.2)) {
    source.destroy();
    throw new ImportFileError("not_csv", peeked[0]?.line, "rows do not have the header's columns");
  }

  const toRow = (r: { cells: string[]; line: number }): CsvRow => {
    const cells: Record<string, string> = {};
    for (let i = 0; i < width; i++) cells[headers[i] as string] = r.cells[i] ?? "";
    for (let i = width; i < r.cells.length; i++) {
      const v = r.cells[i] ?? "";
      if (v.trim()) cells[`column_${i + 1}`] = v;
    }
    return { line: r.line, cells };
  };

  async function* rows(): AsyncGenerator<CsvRow> {
    try {
      for (const r of peeked) yield toRow(r);
      peeked.length = 0;
      for (;;) {
        const r = await nextRecord();
        if (!r) return;
        yield toRow(r);
      }
    } finally {
      source.destroy();
      parser.destroy();
    }
  }

  const { encoding, bom, detected } = decoded;
  return { encoding, bom, detected, headers, rows: rows() };
}
