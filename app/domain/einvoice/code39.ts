/**
 * Code 39 (ISO/IEC 16388), the symbology the Ministry of Finance specifies for the e-invoice mobile barcode
 * carrier (手機條碼: `/` and 7 characters, printed without a check character). Pure functions: the bar widths,
 * an SVG drawing of them, and the reverse (widths → text) that the tests read a drawing back with.
 *
 * Each character is 9 elements, bar and space alternating from a bar: 5 bars and 4 spaces, 3 of them wide.
 * The 40 letters and digits have 2 wide bars and 1 wide space: the wide bars name a column (the ten patterns
 * below), the wide space a row of ten. `$ / + %` have narrow bars and 3 wide spaces. `*` starts and stops.
 */

/** Wide (1) or narrow (0) for the 5 bars of each column. */
const BAR_COLUMNS = ["10001", "01001", "11000", "00101", "10100", "01100", "00011", "10010", "01010", "00110"];
/** The rows by the position (1–4) of their one wide space; the column is the place in the row. */
const ROWS: ReadonlyArray<[number, string]> = [
  [2, "1234567890"],
  [3, "ABCDEFGHIJ"],
  [4, "KLMNOPQRST"],
  [1, "UVWXYZ-. *"],
];
/** The four characters with narrow bars: their three wide spaces. */
const SPACE_ONLY: ReadonlyArray<[string, number[]]> = [
  ["$", [1, 2, 3]],
  ["/", [1, 2, 4]],
  ["+", [1, 3, 4]],
  ["%", [2, 3, 4]],
];

function interleave(bars: string, wideSpaces: number[]): string {
  let pattern = "";
  for (let i = 0; i < 5; i++) {
    pattern += bars[i] === "1" ? "w" : "n";
    if (i < 4) pattern += wideSpaces.includes(i + 1) ? "w" : "n";
  }
  return pattern;
}

/** Each character's 9 elements as `n`/`w`, bar first (e.g. `*` → `nwnnwnwnn`). */
export const CODE39_PATTERNS: ReadonlyMap<string, string> = new Map([
  ...ROWS.flatMap(([space, chars]) =>
    [...chars].map((char, column) => [char, interleave(BAR_COLUMNS[column] as string, [space])] as const),
  ),
  ...SPACE_ONLY.map(([char, spaces]) => [char, interleave("00000", spaces)] as const),
]);

const BY_PATTERN = new Map([...CODE39_PATTERNS].map(([char, pattern]) => [pattern, char]));

/** Wide elements are this many times the narrow one (the standard allows 2–3; 3 reads best from a screen). */
export const WIDE_RATIO = 3;
/** Quiet zone on each side, in narrow modules (the standard's minimum is 10). */
export const QUIET_ZONE = 10;

export class Code39Error extends Error {
  constructor(
    readonly code: "code39_invalid_character" | "code39_empty" | "code39_unreadable",
    message: string,
  ) {
    super(message);
  }
}

/** Whether the text can be drawn (every character in the table, `*` excepted: it starts and stops). */
export function isCode39Text(text: string): boolean {
  return text.length > 0 && [...text].every((c) => c !== "*" && CODE39_PATTERNS.has(c));
}

/**
 * The element widths in narrow modules, bar first, from the start `*` to the stop `*` (a narrow space between
 * characters), without the quiet zones. Throws Code39Error for empty text or a character not in the table.
 */
export function code39Widths(text: string, wide: number = WIDE_RATIO): number[] {
  if (text.length === 0) throw new Code39Error("code39_empty", "Nothing to encode");
  const bad = [...text].find((c) => c === "*" || !CODE39_PATTERNS.has(c));
  if (bad !== undefined)
    throw new Code39Error("code39_invalid_character", `Code 39 cannot encode ${JSON.stringify(bad)}`);
  const widths: number[] = [];
  for (const char of `*${text}*`) {
    if (widths.length > 0) widths.push(1);
    for (const element of CODE39_PATTERNS.get(char) as string) widths.push(element === "w" ? wide : 1);
  }
  return widths;
}

/**
 * The bars as rectangles in module units: x from the left edge of the quiet zone, and the total width. `wide` is the
 * wide elements' width in narrow modules (3 unless a narrow screen needs less; the standard allows 2–3).
 */
export function code39Bars(
  text: string,
  wide: number = WIDE_RATIO,
): { bars: Array<{ x: number; width: number }>; width: number } {
  const widths = code39Widths(text, wide);
  const bars: Array<{ x: number; width: number }> = [];
  let x = QUIET_ZONE;
  widths.forEach((w, i) => {
    if (i % 2 === 0) bars.push({ x, width: w });
    x += w;
  });
  return { bars, width: x + QUIET_ZONE };
}

/**
 * Element widths (bar first, quiet zones excluded, in any unit) back to the text between `*` and `*`. Widths
 * are split into narrow and wide at the midpoint of the narrowest and widest element, so a drawing measured
 * off a screen (scaled, anti-aliased) reads too. Throws Code39Error("code39_unreadable") otherwise.
 */
export function decodeCode39Widths(widths: readonly number[]): string {
  if (widths.length < 19 || (widths.length + 1) % 10 !== 0) {
    throw new Code39Error("code39_unreadable", `Not a whole number of characters (${widths.length} elements)`);
  }
  const threshold = (Math.min(...widths) + Math.max(...widths)) / 2;
  let text = "";
  for (let at = 0; at < widths.length; at += 10) {
    const pattern = widths
      .slice(at, at + 9)
      .map((w) => (w > threshold ? "w" : "n"))
      .join("");
    const char = BY_PATTERN.get(pattern);
    if (char === undefined) throw new Code39Error("code39_unreadable", `Unknown pattern ${pattern} at ${at}`);
    text += char;
  }
  if (text.length < 2 || !text.startsWith("*") || !text.endsWith("*")) {
    throw new Code39Error("code39_unreadable", "No start and stop character");
  }
  const inner = text.slice(1, -1);
  if (inner.includes("*")) throw new Code39Error("code39_unreadable", "A stop character inside the text");
  return inner;
}
