/**
 * True for a PostgreSQL unique violation (23505) from either driver; drizzle wraps the driver's
 * error in `cause`. With a constraint name, only a violation of that constraint counts.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const {
      code,
      constraint_name,
      constraint: c,
    } = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (code === "23505") return !constraint || constraint_name === constraint || c === constraint;
  }
  return false;
}

/**
 * True for a PostgreSQL foreign key violation (23503) from either driver (a row still referenced, or a
 * reference to a missing row). With a constraint name, only a violation of that constraint counts.
 */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const {
      code,
      constraint_name,
      constraint: c,
    } = e as { code?: unknown; constraint_name?: unknown; constraint?: unknown };
    if (code === "23503") return !constraint || constraint_name === constraint || c === constraint;
  }
  return false;
}
