import type { Database } from "@platform/db/client";
import { readContentVersion } from "../app/domain/content/drafts.server";

/**
 * The catalogue's version as this instance last read it (ADR 027): read at start and then every
 * `intervalMs`, so a publish on any instance empties every instance's render cache within that time.
 * One indexed single-row read every two seconds per instance; a failed read keeps the last value.
 */
export const CONTENT_VERSION_POLL_MS = 2_000;

export async function watchContentVersion(db: Database, intervalMs = CONTENT_VERSION_POLL_MS) {
  let current = await readContentVersion(db).catch(() => 0);
  let reading = false;
  const timer = setInterval(() => {
    if (reading) return;
    reading = true;
    readContentVersion(db)
      .then((version) => {
        current = version;
      })
      .catch(() => undefined)
      .finally(() => {
        reading = false;
      });
  }, intervalMs);
  timer.unref();
  return { current: () => current, stop: () => clearInterval(timer) };
}
