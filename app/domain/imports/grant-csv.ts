import { type TextEncodingName, utf16Bom } from "./encoding";
import { ImportFileError } from "./errors";
import { csvRows } from "./read-csv";

export { MAX_GRANT_POINTS, parseGrantPoints } from "./grant-limits";

/**
 * The CSV of a bulk point grant (issue 35 item 5): one row per member — member number (會員編號) or mobile
 * number (手機), points (點數), an optional reason (原因). Read by the member import's reader (`csvRows`,
 * read-csv.ts): the same encodings (UTF-8 with or without BOM, UTF-16 with its BOM, else Big5), the same CSV rules and the same
 * refusals of a file that is not CSV. A grant file is small (a limit of a few MB, checked before it is read).
 * No database.
 */

export type GrantCsvRow = { line: number; number: string; phone: string; points: string; reason: string };
export type GrantCsvError = "not_csv" | "empty" | "columns_missing";
export type GrantCsv =
  | { ok: true; encoding: TextEncodingName; rows: GrantCsvRow[] }
  | { ok: false; error: GrantCsvError };

const HEADERS = {
  number: ["會員編號", "會員號碼", "會員卡號", "membernumber", "member_number", "member number", "member no", "number"],
  phone: ["手機", "手機號碼", "電話", "行動電話", "phone", "mobile", "phone number", "phonenumber"],
  points: ["點數", "贈點", "points", "point"],
  reason: ["原因", "贈點原因", "備註", "reason", "note"],
} as const;

function columnOf(headers: string[], names: readonly string[]): string | null {
  return headers.find((h) => names.includes(h.trim().toLowerCase())) ?? null;
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The reader's refusals in the grant's words: an empty file is `empty`, anything else unreadable `not_csv`. */
function grantError(error: unknown): GrantCsvError {
  if (error instanceof ImportFileError) return error.code === "empty" ? "empty" : "not_csv";
  throw error;
}

/** The grant file read: its rows by column (line 1 = the first data row), or why it cannot be read. */
export async function readGrantCsv(bytes: Uint8Array): Promise<GrantCsv> {
  if (bytes.length === 0) return { ok: false, error: "empty" };
  // A NUL byte anywhere means a binary file (the reader looks at the first 64 kB; a grant file is read whole),
  // except in UTF-16, where every ASCII character carries one (its decoded text is checked by the reader).
  if (!utf16Bom(bytes) && bytes.indexOf(0) !== -1) return { ok: false, error: "not_csv" };
  try {
    const read = await csvRows(once(bytes));
    const col = {
      number: columnOf(read.headers, HEADERS.number),
      phone: columnOf(read.headers, HEADERS.phone),
      points: columnOf(read.headers, HEADERS.points),
      reason: columnOf(read.headers, HEADERS.reason),
    };
    if ((!col.number && !col.phone) || !col.points) {
      // Leaving the loop at once lets go of the reader.
      for await (const _ of read.rows) break;
      return { ok: false, error: "columns_missing" };
    }
    const cell = (cells: Record<string, string>, name: string | null) => (name ? (cells[name] ?? "").trim() : "");
    const rows: GrantCsvRow[] = [];
    for await (const { cells } of read.rows) {
      // A row of blank cells is no row (as a spreadsheet leaves them at the end).
      if (Object.values(cells).every((v) => v.trim() === "")) continue;
      rows.push({
        line: rows.length + 1,
        number: cell(cells, col.number),
        phone: cell(cells, col.phone),
        points: cell(cells, col.points),
        reason: cell(cells, col.reason),
      });
    }
    if (rows.length === 0) return { ok: false, error: "empty" };
    return { ok: true, encoding: read.encoding, rows };
  } catch (error) {
    return { ok: false, error: grantError(error) };
  }
}
