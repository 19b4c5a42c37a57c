/** The longest visit note a consultant may leave (issue 37, ADR 045). */
export const VISIT_NOTE_MAX = 2000;
