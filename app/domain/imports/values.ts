/**
 * Reading single values of imported records (issue 35): dates in the ways Taiwanese exports write them
 * (西元 and 民國), genders, tiers, point balances, yes/no consent flags, instants. Shared by the CSV and the
 * Firebase readers; pure and client-safe. Each parser answers null for "empty" and `undefined`-free
 * tagged results for "present but unreadable", so the caller chooses the problem code.
 */
import { fromTaipeiWallClock, parseIsoDate, taipeiIsoDate } from "~/lib/time";
import type { ImportProblemCode, ImportRecord, ImportTier } from "./record";

export type Parsed<T> = { ok: true; value: T } | { ok: false };
const bad = { ok: false } as const;
const good = <T>(value: T): Parsed<T> => ({ ok: true, value });

/**
 * A cell as a spreadsheet exported it: trimmed, Excel's text guards removed (`="0912345678"`, a leading
 * apostrophe before a digit or +), full-width digits and spaces folded.
 */
export function cleanCell(value: string | null | undefined): string {
  if (value === null || value === undefined) return "";
  let v = value.replace(/\u3000/g, " ").trim();
  const guarded = /^="(.*)"$/s.exec(v);
  if (guarded) v = (guarded[1] as string).trim();
  if (/^'[\d+]/.test(v)) v = v.slice(1);
  return v.replace(/[\uFF10-\uFF19]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0));
}

function pad2(n: number): string {
  return String(n).padStart(2, "0");
}

function isoDay(year: number, month: number, day: number): string | null {
  const iso = `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
  return parseIsoDate(iso, 1) ? iso : null;
}

/**
 * A calendar day → YYYY-MM-DD. Accepts 1986-03-02, 1986/3/2, 1986.03.02, 19860302, 1986年3月2日, a
 * date-time whose date part is one of those (1986/03/02 00:00:00, 1986-03-02T00:00:00Z is taken as
 * written, not shifted), and 民國 years: 75/03/02, 075/03/02, 0750302, 民國75年3月2日. null = unreadable.
 */
export function parseDay(input: string): string | null {
  let v = cleanCell(input);
  if (!v) return null;
  v = v.replace(/^民國\s*/, "R");
  // Date part of a date-time.
  v = v.replace(/[T\s]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i, "").trim();
  let m = /^(R)?(\d{1,4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?$/.exec(v);
  if (m) {
    const raw = Number(m[2]);
    const roc = m[1] === "R" || (m[2] as string).length <= 3;
    return isoDay(roc ? raw + 1911 : raw, Number(m[3]), Number(m[4]));
  }
  m = /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  if (m) return isoDay(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^R?(\d{3})(\d{2})(\d{2})$/.exec(v);
  if (m) return isoDay(Number(m[1]) + 1911, Number(m[2]), Number(m[3]));
  return null;
}

/** A birthday: a readable day between 1900-01-01 and today (Taipei). */
export function parseBirthday(input: string, now: Date = new Date()): Parsed<string> | null {
  if (!cleanCell(input)) return null;
  const day = parseDay(input);
  if (!day || day < "1900-01-01" || day > taipeiIsoDate(now)) return bad;
  return good(day);
}

const GENDERS: Record<string, "male" | "female" | "undisclosed"> = {
  男: "male",
  男性: "male",
  男生: "male",
  先生: "male",
  m: "male",
  male: "male",
  man: "male",
  女: "female",
  女性: "female",
  女生: "female",
  小姐: "female",
  f: "female",
  female: "female",
  woman: "female",
  其他: "undisclosed",
  不透露: "undisclosed",
  不公開: "undisclosed",
  不提供: "undisclosed",
  other: "undisclosed",
  o: "undisclosed",
  undisclosed: "undisclosed",
  x: "undisclosed",
};

export function parseGender(input: unknown): Parsed<"male" | "female" | "undisclosed"> | null {
  if (input === null || input === undefined) return null;
  const v = cleanCell(String(input)).toLowerCase();
  if (!v) return null;
  const g = GENDERS[v];
  return g ? good(g) : bad;
}

const TIERS: Record<string, ImportTier> = {
  一般: "basic",
  一般會員: "basic",
  普通: "basic",
  普通會員: "basic",
  普卡: "basic",
  會員: "basic",
  basic: "basic",
  normal: "basic",
  regular: "basic",
  general: "basic",
  standard: "basic",
  member: "basic",
  銀: "silver",
  銀卡: "silver",
  銀卡會員: "silver",
  銀級: "silver",
  silver: "silver",
  金: "gold",
  金卡: "gold",
  金卡會員: "gold",
  金級: "gold",
  gold: "gold",
};

export function parseTier(input: unknown): Parsed<ImportTier> | null {
  if (input === null || input === undefined) return null;
  const v = cleanCell(String(input)).toLowerCase().replace(/\s+/g, "");
  if (!v) return null;
  const t = TIERS[v] ?? TIERS[v.replace(/(會員|member|tier|level)$/, "")];
  return t ? good(t) : bad;
}

/** Largest opening balance accepted (the ledger's integer column). */
export const MAX_IMPORT_POINTS = 2_147_483_647;

/** A balance: a whole number ≥ 0; "1,200", "1 200" and "1200.00" read as 1200. Empty → null (0). */
export function parsePoints(input: unknown): Parsed<number> | null {
  if (input === null || input === undefined) return null;
  if (typeof input === "number") {
    return Number.isInteger(input) && input >= 0 && input <= MAX_IMPORT_POINTS ? good(input) : bad;
  }
  const v = cleanCell(String(input)).replace(/[,\s]/g, "");
  if (!v) return null;
  const m = /^\+?(\d+)(\.0*)?$/.exec(v);
  if (!m) return bad;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) && n <= MAX_IMPORT_POINTS ? good(n) : bad;
}

/** How a reader notes a problem of the row it reads (a note unless it is a refusal). */
export type NoteProblem = (field: string, code: ImportProblemCode, severity?: "reject" | "note") => void;

/**
 * The opening balance and its last day (both sources read them alike) into the record: a balance that is not a
 * whole number ≥ 0 or a day that is not a date refuses the row; a day already past is booked and expired at once.
 */
export function readPointsBalance(
  record: Pick<ImportRecord, "points" | "pointsLastDay">,
  problem: NoteProblem,
  points: unknown,
  lastDayText: string | null,
  now: Date,
): void {
  const balance = parsePoints(points);
  if (balance?.ok) record.points = balance.value;
  else if (balance) problem("points", "points_invalid", "reject");
  if (!lastDayText) return;
  const day = parseDay(lastDayText);
  if (!day) problem("pointsLastDay", "expiry_invalid", "reject");
  else {
    record.pointsLastDay = day;
    if (day < taipeiIsoDate(now)) problem("pointsLastDay", "expiry_past");
  }
}

const YES = new Set(["y", "yes", "是", "1", "true", "t", "同意", "訂閱", "已訂閱", "接收", "願意", "v", "○", "o", "✓"]);
const NO = new Set(["n", "no", "否", "0", "false", "f", "不同意", "未訂閱", "取消訂閱", "不接收", "不願意", "x", "×"]);

/** A yes/no flag (Y/N, 是/否, 1/0, true/false, 同意/不同意 …). */
export function parseFlag(input: unknown): Parsed<boolean> | null {
  if (input === null || input === undefined) return null;
  if (typeof input === "boolean") return good(input);
  const v = cleanCell(String(input)).toLowerCase();
  if (!v) return null;
  if (YES.has(v)) return good(true);
  if (NO.has(v)) return good(false);
  return bad;
}

/**
 * An instant the old system recorded → ISO string. Accepts Firestore timestamps ({_seconds,_nanoseconds},
 * {seconds,nanoseconds}), Firestore REST {timestampValue}, {$date}, milliseconds (number or digit string;
 * 10-digit numbers are seconds), ISO strings, and local date-times without a zone (taken as Taipei wall
 * clock, e.g. 2023/05/01 14:30 or a bare day → its 00:00 in Taipei). null = absent or unreadable.
 */
export function parseInstant(input: unknown): string | null {
  if (input === null || input === undefined || input === "") return null;
  if (typeof input === "number") return fromEpoch(input);
  if (typeof input === "object") {
    const o = input as Record<string, unknown>;
    const seconds = o._seconds ?? o.seconds;
    if (typeof seconds === "number" || (typeof seconds === "string" && /^-?\d+$/.test(seconds))) {
      const nanos = Number(o._nanoseconds ?? o.nanoseconds ?? 0) || 0;
      return validIso(Number(seconds) * 1000 + Math.floor(nanos / 1e6));
    }
    if ("timestampValue" in o) return parseInstant(o.timestampValue);
    if ("$date" in o) return parseInstant(o.$date);
    return null;
  }
  if (typeof input !== "string") return null;
  const v = cleanCell(input);
  if (!v) return null;
  if (/^\d{9,13}$/.test(v)) return fromEpoch(Number(v));
  if (/(Z|[+-]\d{2}:?\d{2})$/i.test(v) && /^\d{4}-\d{2}-\d{2}[T ]\d/.test(v)) {
    return validIso(Date.parse(v.replace(" ", "T").replace(/([+-]\d{2})(\d{2})$/, "$1:$2")));
  }
  const m = /^(.+?)(?:[T\s]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/.exec(v);
  if (!m) return null;
  const day = parseDay(m[1] as string);
  if (!day) return null;
  const [y, mo, d] = day.split("-").map(Number) as [number, number, number];
  const hour = Number(m[2] ?? 0);
  const minute = Number(m[3] ?? 0);
  const second = Number(m[4] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return null;
  return fromTaipeiWallClock({ year: y, month: mo, day: d }, hour, minute, second).toISOString();
}

function fromEpoch(n: number): string | null {
  if (!Number.isFinite(n)) return null;
  return validIso(n < 1e11 ? n * 1000 : n);
}

function validIso(ms: number): string | null {
  if (!Number.isFinite(ms)) return null;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

/** A good-enough e-mail check (one @, a dot in the domain, no spaces), lowercased. */
export function parseEmail(input: unknown): Parsed<string> | null {
  if (input === null || input === undefined) return null;
  const v = cleanCell(String(input)).toLowerCase();
  if (!v) return null;
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v) && v.length <= 254 ? good(v) : bad;
}
