import type { ImportStatus } from "@platform/db/schema/imports";
import { StatusBadge } from "../status-badge";
import { useConsoleT } from "../use-console-t";

const TONE: Record<ImportStatus, string> = {
  staged: "bg-sand text-ink",
  checked: "bg-brand-700/10 text-brand-800",
  awaiting_approval: "bg-brand-700/10 text-brand-800",
  queued: "bg-brand-700/10 text-brand-800",
  running: "bg-brand-700/10 text-brand-800",
  done: "bg-success-700/10 text-success-700",
  cancelled: "bg-sand text-muted",
  rejected: "bg-danger-700/10 text-danger-800",
  failed: "bg-danger-700/10 text-danger-800",
};

/** An import run's status as a small badge (the list and the run's page). */
export function RunStatusBadge({ status }: { status: ImportStatus }) {
  const t = useConsoleT();
  return (
    <StatusBadge
      status={status}
      label={t(`console.import.status.${status}`)}
      tone={TONE[status]}
      testId="import-status"
    />
  );
}
