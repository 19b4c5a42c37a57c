/**
 * What the console's reward and rules forms may contain (issue 14, ADR 029): pure, shared by the
 * domain and the routes, tested table-driven. Problems come back per field as stable codes
 * (`required`, `tooLong`…) with a parameter; the page turns them into words in its language.
 */

export type InputProblem = { code: ProblemCode; param?: number | string };
export type ProblemCode =
  | "required"
  | "tooLong"
  | "notWholeNumber"
  | "tooSmall"
  | "tooLarge"
  | "invalidChoice"
  | "invalidDate"
  | "untilBeforeFrom"
  | "invalidImagePath"
  | "imageMissing"
  | "thresholdsOrder"
  | "multipliersOrder"
  | "dateInPast"
  | "beforeScheduled"
  | "dateTaken"
  | "invalidMoney";
export type Problems = Record<string, InputProblem[]>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: Problems };

export const NOTE_MAX = 200;

export function normaliseDigits(value: string): string {
  return value.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)).replace(/[−－]/g, "-");
}
