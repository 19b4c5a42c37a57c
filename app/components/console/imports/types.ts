import type { ImportStatus } from "@platform/db/schema/imports";
import type { ImportReport, PasswordCheck } from "~/domain/imports/report";

/** A run as the import pages show it (issue 35): dates as ISO strings, the starter's name. */
export type RunView = {
  id: string;
  kind: string;
  source: string;
  status: ImportStatus;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelRequested: boolean;
  createdBy: string | null;
  who: string | null;
  rowsTotal: number;
  rowsDone: number;
  created: number;
  merged: number;
  unchanged: number;
  rejected: number;
  pointsBooked: number;
  etaSeconds: number | null;
  error: string | null;
  files: { role: string; name: string; bytes: number | null }[];
  /** A CSV's encoding as the file was read (null: a Firebase run, or a CSV staged before it was kept). */
  encoding: { name: RunEncoding; detected: boolean | null } | null;
};

/** The encodings a run page names: UTF-8 with or without its BOM, Big5, UTF-16 (always with its BOM). */
export const RUN_ENCODINGS = ["utf-8", "utf-8-bom", "big5", "utf-16le", "utf-16be"] as const;
export type RunEncoding = (typeof RUN_ENCODINGS)[number];

/** A row of a run with its problems, as the problem tables show it (the phone masked). */
export type ProblemRow = {
  line: number;
  externalId: string | null;
  phone: string | null;
  plan: string | null;
  problems: { field: string; code: string; severity: string }[];
};

/** The dry run's summary as stored on the run (jsonb: the problems keyed as written, an unknown check as null). */
export type ReportView = Omit<ImportReport, "problems" | "passwordCheck"> & {
  problems: Record<string, number>;
  passwordCheck: PasswordCheck | null;
};

/** A preview row: the record as it will be stored. */
export type PreviewRow = {
  line: number;
  plan: string | null;
  externalId: string | null;
  phone: string | null;
  name: string | null;
  email: string | null;
  tier: string | null;
  points: number | null;
  pointsLastDay: string | null;
  problems: { field: string; code: string; severity: string }[];
};

export const FINISHED_STATUSES = ["done", "cancelled", "failed", "rejected"] as const;
export const ACTIVE_STATUSES = ["queued", "running"] as const;

/** A test id on a control whose props are an object (`inputProps`, `selectProps`). */
export const testId = (id: string): Record<string, string> => ({ "data-testid": id });
