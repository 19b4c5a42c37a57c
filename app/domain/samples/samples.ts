import type { SampleStatus } from "@platform/db/schema/samples";

/**
 * Samples' rules that pages may import too (no database): the filters, the steps. The limit, the loan days and the
 * reminder days are showroom settings (`showroomSettings`, ADR 050).
 */

export const OPEN_STATUSES = ["requested", "ready", "handed_out"] as const satisfies readonly SampleStatus[];

/** The console list's status filter: one status, the open ones, the overdue ones, or the closed ones. */
export const CONSOLE_SAMPLE_FILTERS = ["open", "requested", "ready", "handed_out", "overdue", "closed"] as const;
export type ConsoleSampleFilter = (typeof CONSOLE_SAMPLE_FILTERS)[number];

/** The staff's steps: from which status to which, and the audit action. */
export const SAMPLE_STEPS = {
  ready: { from: "requested", to: "ready", action: "sample.ready" },
  hand_out: { from: "ready", to: "handed_out", action: "sample.handed_out" },
  return: { from: "handed_out", to: "returned", action: "sample.returned" },
} as const;
export type SampleStep = keyof typeof SAMPLE_STEPS;
