import type { Registry } from "prom-client";

export type MessageResults = Record<"sent" | "retry" | "failed", number>;

/**
 * hanliving_messages_total summed by result over the series whose labels include `labels` (e.g. `{ channel: "line" }`),
 * from the registry the app counts in (a test that loads the app through Vite passes the registry loaded there).
 */
export async function messageResults(registry: Registry, labels: Record<string, string>): Promise<MessageResults> {
  const counts: MessageResults = { sent: 0, retry: 0, failed: 0 };
  for (const sample of (await registry.getSingleMetric("hanliving_messages_total")?.get())?.values ?? []) {
    if (Object.entries(labels).every(([name, value]) => sample.labels[name] === value)) {
      counts[sample.labels.result as keyof MessageResults] += sample.value;
    }
  }
  return counts;
}

/** What changed between two readings, per result. */
export function resultsSince(before: MessageResults, after: MessageResults): MessageResults {
  return { sent: after.sent - before.sent, retry: after.retry - before.retry, failed: after.failed - before.failed };
}
