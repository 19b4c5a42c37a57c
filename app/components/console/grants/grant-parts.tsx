import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { ConsoleTable } from "~/components/console/console-list";
import { StatusBadge } from "~/components/console/status-badge";
import { useConsoleT } from "~/components/console/use-console-t";

/** Bulk point grants' pieces (issue 35 item 5): the status chip, the progress bar, the refused rows. */

export type GrantStatus =
  | "staged"
  | "checked"
  | "awaiting_approval"
  | "queued"
  | "running"
  | "done"
  | "cancelled"
  | "rejected"
  | "failed";

const TONES: Record<GrantStatus, string> = {
  staged: "bg-line/60 text-ink",
  checked: "bg-line/60 text-ink",
  awaiting_approval: "bg-amber-100 text-amber-900",
  queued: "bg-brand-50 text-brand-800",
  running: "bg-brand-50 text-brand-800",
  done: "bg-emerald-50 text-emerald-800",
  cancelled: "bg-line/60 text-muted",
  rejected: "bg-danger-700/10 text-danger-800",
  failed: "bg-danger-700/10 text-danger-800",
};

export function GrantStatusBadge({ status }: { status: GrantStatus }) {
  const t = useConsoleT();
  return (
    <StatusBadge
      status={status}
      label={t(`console.grants.status.${status}`)}
      tone={TONES[status]}
      testId="grant-status"
    />
  );
}

/**
 * The progress of a grant being applied: rows done of rows to book and the points granted so far. While it runs
 * the page's data is loaded again every two seconds (the counters live on the run, so a reload shows the same).
 */
export function GrantProgress({
  done,
  total,
  points,
  active,
}: {
  done: number;
  total: number;
  points: number;
  active: boolean;
}) {
  const t = useConsoleT();
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, 2000);
    return () => window.clearInterval(timer);
  }, [active, revalidator]);
  const percent = total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 100;
  return (
    <div className="space-y-2" data-testid="grant-progress">
      <div
        role="progressbar"
        aria-label={t("console.grants.progress")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-3 w-full overflow-hidden rounded-full bg-line/60"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-sm tabular-nums text-muted" aria-live="polite">
        {t("console.grants.progressText", {
          done: done.toLocaleString("en-US"),
          total: total.toLocaleString("en-US"),
          points: points.toLocaleString("en-US"),
        })}
      </p>
    </div>
  );
}

export type RejectedGrantRow = {
  line: number;
  member: string;
  points: string;
  problems: string[];
};

/** The rows that will not (or did not) book, each with its reasons in words. */
export function RejectedGrantRows({ rows }: { rows: RejectedGrantRow[] }) {
  const t = useConsoleT();
  return (
    <ConsoleTable
      label={t("console.grants.rejectedTitle")}
      testId="grant-rejected"
      rows={rows}
      rowKey={(r) => String(r.line)}
      rowTestId="grant-rejected-row"
      columns={[
        { key: "line", header: t("console.grants.col.line"), className: "tabular-nums", cell: (r) => r.line },
        { key: "member", header: t("console.grants.col.member"), className: "font-mono", cell: (r) => r.member },
        { key: "points", header: t("console.grants.col.points"), className: "tabular-nums", cell: (r) => r.points },
        {
          key: "problem",
          header: t("console.grants.col.problem"),
          cell: (r) =>
            r.problems
              .map((code) => t(`console.grants.problem.${code}` as "console.grants.problem.member_unknown"))
              .join("、"),
        },
      ]}
    />
  );
}
