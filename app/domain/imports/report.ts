import type { ImportProblemCode } from "./record";

/**
 * The dry run's report (issue 35, ADR 038): what the check stores on the run and the console and the command line
 * show. Client-safe: the run page reads it too.
 */

export const PASSWORD_CHECKS = ["ok", "wrong_key", "no_sample", "no_hashes", "sample_not_found"] as const;
export type PasswordCheck = (typeof PASSWORD_CHECKS)[number];

export type ImportReport = {
  rows: number;
  create: number;
  merge: number;
  unchanged: number;
  reject: number;
  /** Opening balance points the rows that create or merge will book. */
  points: number;
  problems: Partial<Record<ImportProblemCode, number>>;
  passwordCheck: PasswordCheck;
};
