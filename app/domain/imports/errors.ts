/**
 * A file that cannot be imported at all (issue 35): not JSON, not CSV, cut off, too large, empty, or a
 * hash config that is not one. Thrown by the readers (read-firebase.ts, read-csv.ts) while streaming; the
 * engine turns it into the refusal `file_invalid` / `file_too_large` with the code and line shown beside
 * the file field. Rows that can be read but are wrong are not errors: they are `ImportProblem`s.
 */

export const IMPORT_FILE_ERROR_CODES = [
  "not_json",
  "truncated",
  "not_csv",
  "too_large",
  "empty",
  "hash_config_invalid",
] as const;
export type ImportFileErrorCode = (typeof IMPORT_FILE_ERROR_CODES)[number];

export class ImportFileError extends Error {
  readonly code: ImportFileErrorCode;
  /** 1-based line of the file where the reader gave up, when known. */
  readonly line: number | undefined;

  constructor(code: ImportFileErrorCode, line?: number, detail?: string) {
    super(`${code}${line === undefined ? "" : ` at line ${line}`}${detail ? `: ${detail}` : ""}`);
    this.name = "ImportFileError";
    this.code = code;
    this.line = line;
  }
}

export function isImportFileError(error: unknown): error is ImportFileError {
  return error instanceof ImportFileError;
}
