import { isDatabaseUnavailableError } from "@platform/db/availability";

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

/**
 * One line for a failure to reach a PostgreSQL database, for the command-line tools (db:backup, db:restore): the
 * database missing (3D000), the login refused (28000, 28P01), or the server unreachable. Null for anything else
 * (a failing statement is not a connection problem). The URL's password is never in it.
 */
export function databaseConnectionProblem(error: unknown, url: string): string | null {
  let host = "the server";
  let database = "";
  let user = "";
  try {
    const parsed = new URL(url);
    host = parsed.host || host;
    database = decodeURIComponent(parsed.pathname.replace(/^\//, ""));
    user = decodeURIComponent(parsed.username);
  } catch {
    // Not a URL: the message names no place.
  }
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && typeof e === "object" && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const code = (e as { code?: unknown }).code;
    if (code === "3D000") return `The database "${database}" does not exist on ${host}: create it first (createdb)`;
    if (code === "28000" || code === "28P01") {
      return `PostgreSQL at ${host} refused the login${user ? ` of "${user}"` : ""} (${errorLine(e)})`;
    }
  }
  if (isDatabaseUnavailableError(error)) {
    let cause: unknown = error;
    while (cause && typeof cause === "object" && (cause as { cause?: unknown }).cause) {
      cause = (cause as { cause?: unknown }).cause;
    }
    const code = (cause as { code?: unknown })?.code;
    return `Cannot reach PostgreSQL at ${host} (${typeof code === "string" ? code : errorLine(cause)})`;
  }
  return null;
}

/** An error's message on one line (for a command's one-line refusal). */
export function errorLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, " ").trim();
}
