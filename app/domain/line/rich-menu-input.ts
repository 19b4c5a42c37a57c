import { z } from "zod";
import { type ImageHeader, readImageHeader } from "./rich-menu-image";

/**
 * LINE's rules for a rich menu (Messaging API reference, "Rich menu object" and "Upload rich menu image";
 * ADR 049), checked on the server before anything is sent: the image is a PNG or JPEG of 800–2500 px wide, at
 * least 250 px high, width ÷ height ≥ 1.45, at most 1 MB, and the menu's size is the image's; 1–20 areas, each
 * inside the image; a chat bar text of 1–14 characters; a name of 1–300. Pure: shared by the console's form,
 * the domain and the local LINE fake, which refuses what LINE refuses.
 *
 * Problems are stable codes (the page words them in its language), per field: `title`, `chatBarText`, `image`,
 * `areas` (the count) and `a{i}` / `a{i}x` … for one area.
 */
export const RICH_MENU_RULES = {
  minWidth: 800,
  maxWidth: 2500,
  minHeight: 250,
  minAspect: 1.45,
  maxBytes: 1024 * 1024,
  maxAreas: 20,
  chatBarMax: 14,
  titleMax: 300,
  uriMax: 1000,
  messageMax: 300,
} as const;

export const RICH_MENU_AREA_KINDS = ["card", "uri", "message"] as const;
export type RichMenuAreaKind = (typeof RICH_MENU_AREA_KINDS)[number];

export type RichMenuArea = {
  x: number;
  y: number;
  width: number;
  height: number;
  kind: RichMenuAreaKind;
  value: string;
};
export type RichMenuInput = {
  title: string;
  chatBarText: string;
  selected: boolean;
  areas: RichMenuArea[];
  /** The form row of each area (empty rows are skipped), for a problem beside its row. */
  rows: number[];
};

export type RichMenuProblemCode =
  | "required"
  | "tooLong"
  | "notWholeNumber"
  | "tooFewAreas"
  | "tooManyAreas"
  | "outOfBounds"
  | "invalidUrl"
  | "notImage"
  | "imageTooLarge"
  | "imageTooNarrow"
  | "imageTooWide"
  | "imageTooShort"
  | "imageAspect";

export type RichMenuProblems = Record<string, RichMenuProblemCode[]>;

/** How many area rows the form shows at most (LINE's limit). */
export const AREA_ROWS_MAX = RICH_MENU_RULES.maxAreas;

const text = (max: number) =>
  z
    .string()
    .default("")
    .transform((v) => v.trim())
    .pipe(z.string().min(1, "required").max(max, "tooLong"));

const coordinate = z
  .string()
  .default("")
  .transform((v) => v.trim())
  .pipe(
    z
      .string()
      .min(1, "required")
      .regex(/^\d{1,5}$/, "notWholeNumber"),
  )
  .transform(Number);

const areaRow = z
  .object({
    x: coordinate,
    y: coordinate,
    w: coordinate,
    h: coordinate,
    kind: z.enum(RICH_MENU_AREA_KINDS, { message: "required" }),
    value: z
      .string()
      .default("")
      .transform((v) => v.trim()),
  })
  .superRefine((a, ctx) => {
    if (a.w < 1) ctx.addIssue({ code: "custom", path: ["w"], message: "required" });
    if (a.h < 1) ctx.addIssue({ code: "custom", path: ["h"], message: "required" });
    if (a.kind === "card") return;
    if (!a.value) return ctx.addIssue({ code: "custom", path: ["value"], message: "required" });
    if (a.kind === "message" && a.value.length > RICH_MENU_RULES.messageMax)
      ctx.addIssue({ code: "custom", path: ["value"], message: "tooLong" });
    if (a.kind === "uri") {
      if (a.value.length > RICH_MENU_RULES.uriMax)
        return ctx.addIssue({ code: "custom", path: ["value"], message: "tooLong" });
      if (!isWebAddress(a.value)) ctx.addIssue({ code: "custom", path: ["value"], message: "invalidUrl" });
    }
  });

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && !/\s/.test(value);
  } catch {
    return false;
  }
}

const menuFields = z.object({
  title: text(RICH_MENU_RULES.titleMax),
  chatBarText: text(RICH_MENU_RULES.chatBarMax),
  selected: z
    .string()
    .optional()
    .transform((v) => v === "on"),
});

/** An area row is used when any of its fields is filled in (an empty row of the form is no area). */
function rowIsUsed(raw: Record<string, string>, i: number): boolean {
  return ["x", "y", "w", "h", "value"].some((f) => (raw[`a${i}${f}`] ?? "").trim() !== "");
}

/** The form's text fields → the menu, or the problems per field (image bounds are checked with the image). */
export function parseRichMenuForm(
  raw: Record<string, string>,
): { ok: true; value: RichMenuInput } | { ok: false; problems: RichMenuProblems } {
  const problems: RichMenuProblems = {};
  const add = (field: string, code: RichMenuProblemCode) => {
    problems[field] ??= [];
    if (!problems[field].includes(code)) problems[field].push(code);
  };
  const fields = menuFields.safeParse(raw);
  if (!fields.success) for (const i of fields.error.issues) add(String(i.path[0]), i.message as RichMenuProblemCode);
  const areas: RichMenuArea[] = [];
  const rows: number[] = [];
  let used = 0;
  // Rows beyond LINE's limit are counted, never read: a forged form with 10,000 rows is one problem.
  const rowKeys = Object.keys(raw).filter((k) => /^a\d{1,6}kind$/.test(k)).length;
  if (rowKeys > RICH_MENU_RULES.maxAreas) add("areas", "tooManyAreas");
  for (let i = 0; i < Math.min(rowKeys, RICH_MENU_RULES.maxAreas); i++) {
    if (!rowIsUsed(raw, i)) continue;
    used++;
    const row = areaRow.safeParse({
      x: raw[`a${i}x`],
      y: raw[`a${i}y`],
      w: raw[`a${i}w`],
      h: raw[`a${i}h`],
      kind: raw[`a${i}kind`],
      value: raw[`a${i}value`],
    });
    if (!row.success) {
      for (const issue of row.error.issues) add(`a${i}${String(issue.path[0])}`, issue.message as RichMenuProblemCode);
      continue;
    }
    const { x, y, w, h, kind, value } = row.data;
    areas.push({ x, y, width: w, height: h, kind, value: kind === "card" ? "" : value });
    rows.push(i);
  }
  if (used === 0 && !problems.areas) add("areas", "tooFewAreas");
  if (Object.keys(problems).length > 0 || !fields.success) return { ok: false, problems };
  return { ok: true, value: { ...fields.data, areas, rows } };
}

/** The image against LINE's rules: its type, bytes and size read from its header. */
export function checkRichMenuImage(
  bytes: Uint8Array,
): { ok: true; header: ImageHeader } | { ok: false; problem: RichMenuProblemCode } {
  if (bytes.length > RICH_MENU_RULES.maxBytes) return { ok: false, problem: "imageTooLarge" };
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, problem: "notImage" };
  if (header.width < RICH_MENU_RULES.minWidth) return { ok: false, problem: "imageTooNarrow" };
  if (header.width > RICH_MENU_RULES.maxWidth) return { ok: false, problem: "imageTooWide" };
  if (header.height < RICH_MENU_RULES.minHeight) return { ok: false, problem: "imageTooShort" };
  if (header.width / header.height < RICH_MENU_RULES.minAspect) return { ok: false, problem: "imageAspect" };
  return { ok: true, header };
}

/** Each area inside the image (`{ width, height }`): the indexes of the areas that fall outside it. */
export function areasOutside(areas: RichMenuArea[], size: { width: number; height: number }): number[] {
  return areas.flatMap((a, i) =>
    a.x + a.width > size.width || a.y + a.height > size.height || a.x < 0 || a.y < 0 ? [i] : [],
  );
}

/** The menu with its image: every problem of both, per field (the areas' bounds against the image's size). */
export function checkRichMenu(input: RichMenuInput, size: { width: number; height: number }): RichMenuProblems {
  const problems: RichMenuProblems = {};
  for (const i of areasOutside(input.areas, size)) problems[`a${input.rows[i] ?? i}`] = ["outOfBounds"];
  return problems;
}
