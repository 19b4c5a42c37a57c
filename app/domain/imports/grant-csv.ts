import iconv from "iconv-lite";

export { MAX_GRANT_POINTS, parseGrantPoints } from "./grant-limits";

/**
 * The CSV of a bulk point grant (issue 35 item 5): one row per member — member number (會員編號) or mobile
 * number (手機), points (點數), an optional reason (原因). A grant file is small (a limit of a few MB, checked
 * before it is read), so it is decoded whole: UTF-8 with or without BOM, else Big5 (many Taiwanese exports).
 * Pure: no database.
 */

export type GrantCsvRow = { line: number; number: string; phone: string; points: string; reason: string };
export type GrantCsvError = "not_csv" | "empty" | "columns_missing";
export type GrantCsv =
  | { ok: true; encoding: "utf-8" | "big5"; rows: GrantCsvRow[] }
  | { ok: false; error: GrantCsvError };

/** UTF-8 when the bytes are valid UTF-8 (BOM dropped), else Big5. */
export function decodeGrantFile(bytes: Uint8Array): { encoding: "utf-8" | "big5"; text: string } {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return { encoding: "utf-8", text: text.startsWith("\uFEFF") ? text.slice(1) : text };
  } catch {
    return { encoding: "big5", text: iconv.decode(Buffer.from(bytes), "big5") };
  }
}

/** RFC 4180 records (quoted cells, "" inside quotes, CRLF or LF); null when a quote is never closed. */
export function parseCsvText(text: string): string[][] | null {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = "";
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else cell += c;
      i++;
      continue;
    }
    if (c === '"' && cell === "") quoted = true;
    else if (c === ",") {
      record.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      record.push(cell);
      records.push(record);
      record = [];
      cell = "";
      if (c === "\r" && text[i + 1] === "\n") i++;
    } else cell += c;
    i++;
  }
  if (quoted) return null;
  if (cell !== "" || record.length > 0) {
    record.push(cell);
    records.push(record);
  }
  return records.filter((r) => r.some((v) => v.trim() !== ""));
}

const HEADERS = {
  number: ["會員編號", "會員號碼", "會員卡號", "membernumber", "member_number", "member number", "member no", "number"],
  phone: ["手機", "手機號碼", "電話", "行動電話", "phone", "mobile", "phone number", "phonenumber"],
  points: ["點數", "贈點", "points", "point"],
  reason: ["原因", "贈點原因", "備註", "reason", "note"],
} as const;

function columnOf(headers: string[], names: readonly string[]): number {
  return headers.findIndex((h) => names.includes(h.trim().toLowerCase()));
}

/** The grant file read: its rows by column (line 1 = the first data row), or why it cannot be read. */
export function readGrantCsv(bytes: Uint8Array): GrantCsv {
  if (bytes.length === 0) return { ok: false, error: "empty" };
  const { encoding, text } = decodeGrantFile(bytes);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: a NUL byte means a binary file, not a CSV
  if (/\u0000/.test(text)) return { ok: false, error: "not_csv" };
  const records = parseCsvText(text);
  if (!records) return { ok: false, error: "not_csv" };
  const [header, ...data] = records;
  if (!header) return { ok: false, error: "empty" };
  const col = {
    number: columnOf(header, HEADERS.number),
    phone: columnOf(header, HEADERS.phone),
    points: columnOf(header, HEADERS.points),
    reason: columnOf(header, HEADERS.reason),
  };
  if ((col.number < 0 && col.phone < 0) || col.points < 0) return { ok: false, error: "columns_missing" };
  if (data.length === 0) return { ok: false, error: "empty" };
  const cell = (r: string[], i: number) => (i < 0 ? "" : (r[i] ?? "").trim());
  return {
    ok: true,
    encoding,
    rows: data.map((r, index) => ({
      line: index + 1,
      number: cell(r, col.number),
      phone: cell(r, col.phone),
      points: cell(r, col.points),
      reason: cell(r, col.reason),
    })),
  };
}
