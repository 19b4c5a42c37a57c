import { useEffect } from "react";
import { Form, useRevalidator } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { IMPORT_PROBLEM_CODES, type ImportProblemCode } from "~/domain/imports/record";
import type { MessageKey } from "~/lib/i18n";
import { type Column, ConsoleList, type Paging } from "../console-list";
import { DetailSection, FieldRow } from "../detail-section";
import { useConsoleT } from "../use-console-t";
import type { ProblemRow, ReportView, RunView } from "./types";

const isProblemCode = (code: string): code is ImportProblemCode =>
  (IMPORT_PROBLEM_CODES as readonly string[]).includes(code);

/** A row's problems in words (a refusal in red, a note muted), the code kept for searching the file. */
export function ProblemList({ problems }: { problems: readonly { code: string; severity: string }[] }) {
  const t = useConsoleT();
  if (problems.length === 0) return <span className="text-muted">—</span>;
  return (
    <ul className="space-y-0.5" data-testid="import-row-problems">
      {problems.map((p) => (
        <li
          key={`${p.code}-${p.severity}`}
          className={p.severity === "reject" ? "text-danger-700" : "text-muted"}
          data-code={p.code}
        >
          {isProblemCode(p.code) ? t(`console.import.problem.${p.code}`) : p.code}
        </li>
      ))}
    </ul>
  );
}

/** The columns that say which row of the file it is: its line, its old id, its phone (masked). */
export function rowIdColumns<Row extends { line: number; externalId: string | null; phone: string | null }>(
  t: ReturnType<typeof useConsoleT>,
  idClassName: string,
): Column<Row>[] {
  return [
    { key: "line", header: t("console.import.col.line"), className: "tabular-nums", cell: (r) => r.line },
    {
      key: "ext",
      header: t("console.import.col.externalId"),
      className: idClassName,
      cell: (r) => r.externalId ?? "—",
    },
    { key: "phone", header: t("console.import.col.phone"), className: "tabular-nums", cell: (r) => r.phone ?? "—" },
  ];
}

const n = (value: number) => value.toLocaleString("en-US");

function PlanWord({ plan }: { plan: string | null }) {
  const t = useConsoleT();
  const known = plan === "create" || plan === "merge" || plan === "unchanged" || plan === "reject";
  return <>{known ? t(`console.import.plan.${plan}`) : t("console.import.plan.pending")}</>;
}

/** The dry run: what each row will do, the points, the problems by code in words, the password check. */
export function DryRunReport({ report, showPassword }: { report: ReportView; showPassword: boolean }) {
  const t = useConsoleT();
  const problems = Object.entries(report.problems).filter(([, count]) => count > 0);
  // A CSV has no passwords: its members claim their accounts by SMS code, nothing to check.
  const password = showPassword ? report.passwordCheck : null;
  return (
    <DetailSection
      id="import-report"
      title={t("console.import.report.title")}
      lead={t("console.import.report.lead")}
      className="mt-6"
      testId="import-report"
    >
      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-3 lg:grid-cols-6">
        <FieldRow label={t("console.import.report.rows")} className="text-2xl tabular-nums" testId="import-report-rows">
          {n(report.rows)}
        </FieldRow>
        <FieldRow
          label={t("console.import.report.create")}
          className="text-2xl tabular-nums"
          testId="import-report-create"
        >
          {n(report.create)}
        </FieldRow>
        <FieldRow
          label={t("console.import.report.merge")}
          className="text-2xl tabular-nums"
          testId="import-report-merge"
        >
          {n(report.merge)}
        </FieldRow>
        <FieldRow
          label={t("console.import.report.unchanged")}
          className="text-2xl tabular-nums"
          testId="import-report-unchanged"
        >
          {n(report.unchanged)}
        </FieldRow>
        <FieldRow
          label={t("console.import.report.reject")}
          className="text-2xl tabular-nums"
          testId="import-report-reject"
        >
          {n(report.reject)}
        </FieldRow>
        <FieldRow
          label={t("console.import.report.points")}
          className="text-2xl tabular-nums"
          testId="import-report-points"
        >
          {n(report.points)}
        </FieldRow>
      </dl>
      {password ? (
        <p
          className={
            password === "wrong_key" || password === "sample_not_found"
              ? "rounded-xl bg-danger-700/5 p-3 text-danger-800"
              : "rounded-xl bg-sand/60 p-3"
          }
          data-testid="import-password-check"
          data-result={password}
        >
          <span className="font-medium">{t("console.import.report.password")}：</span>
          {t(`console.import.password.${password}`)}
        </p>
      ) : null}
      <div>
        <h3 className="text-sm font-medium">{t("console.import.report.problems")}</h3>
        {problems.length === 0 ? (
          <p className="mt-1 text-sm text-muted">{t("console.import.report.noProblems")}</p>
        ) : (
          <ul className="mt-1 space-y-1 text-sm" data-testid="import-report-problems">
            {problems.map(([code, count]) => (
              <li key={code} data-code={code} className="flex justify-between gap-4 border-b border-line py-1">
                <span>{isProblemCode(code) ? t(`console.import.problem.${code}`) : code}</span>
                <span className="tabular-nums text-muted">{t("console.import.report.problemCount", { count })}</span>
              </li>
            ))}
          </ul>
        )}
      </div>
    </DetailSection>
  );
}

/** The rows with problems (dry run) or refused (result), paged: line, old id, masked phone, plan, problems. */
export function ProblemRowsTable({
  rows,
  total,
  paging,
  title,
  empty,
  action,
}: {
  rows: readonly ProblemRow[];
  total: number;
  paging: Paging;
  title: MessageKey;
  /** What the table says when it has no rows (the dry run's problems, or a finished run's rejected rows). */
  empty: MessageKey;
  action?: React.ReactNode;
}) {
  const t = useConsoleT();
  return (
    <DetailSection
      id="import-problem-rows"
      title={t(title)}
      action={action}
      className="mt-6"
      testId="import-problem-rows"
    >
      <ConsoleList
        count={t("console.import.problems.count", { count: total })}
        countTestId="import-problem-count"
        empty={t(empty)}
        emptyTestId="import-problems-empty"
        labelledBy="import-problem-rows"
        rows={rows}
        rowKey={(r) => String(r.line)}
        rowTestId="import-problem-row"
        minWidth="44rem"
        columns={[
          ...rowIdColumns<ProblemRow>(t, "max-w-[14rem] break-all"),
          { key: "plan", header: t("console.import.col.plan"), cell: (r) => <PlanWord plan={r.plan} /> },
          {
            key: "problems",
            header: t("console.import.col.problems"),
            cell: (r) => <ProblemList problems={r.problems} />,
          },
        ]}
        paging={paging}
      />
    </DetailSection>
  );
}

/** "12 秒", "3 分 5 秒", "1 小時 2 分". */
export function useDuration() {
  const t = useConsoleT();
  return (seconds: number) => {
    const s = Math.max(0, Math.round(seconds));
    if (s < 60) return t("console.import.duration.seconds", { n: s });
    if (s < 3600) return t("console.import.duration.minutes", { m: Math.floor(s / 60), s: s % 60 });
    return t("console.import.duration.hours", { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  };
}

/**
 * A run being applied: the progress bar (rows done of all, refused, time left) read again every 2 s from the
 * database (the page's loader), so a reload shows the same; and the cancel button.
 */
export function RunProgress({ run }: { run: RunView }) {
  const t = useConsoleT();
  const duration = useDuration();
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, 2000);
    return () => window.clearInterval(timer);
  }, [revalidator]);
  const total = Math.max(run.rowsTotal, 0);
  const done = Math.min(run.rowsDone, total);
  const percent = total === 0 ? 0 : Math.floor((done / total) * 100);
  return (
    <DetailSection
      id="import-progress"
      title={t("console.import.progress.title")}
      className="mt-6"
      testId="import-progress"
    >
      <div
        role="progressbar"
        aria-label={t("console.import.progress.label")}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-valuetext={t("console.import.progress.rows", { done: n(done), total: n(total) })}
        className="h-3 w-full overflow-hidden rounded-full bg-sand"
        data-testid="import-progressbar"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width]" style={{ width: `${percent}%` }} />
      </div>
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm tabular-nums" aria-live="polite">
        <span data-testid="import-progress-rows">
          {t("console.import.progress.rows", { done: n(done), total: n(total) })}
        </span>
        <span data-testid="import-progress-errors">
          {t("console.import.progress.errors", { count: n(run.rejected) })}
        </span>
        <span data-testid="import-progress-eta">
          {run.status === "queued"
            ? t("console.import.progress.queued")
            : run.etaSeconds === null
              ? t("console.import.progress.etaUnknown")
              : t("console.import.progress.eta", { time: duration(run.etaSeconds) })}
        </span>
      </p>
      <p className="text-sm text-muted">
        {run.cancelRequested ? t("console.import.progress.cancelRequested") : t("console.import.progress.reloadHint")}
      </p>
      {run.cancelRequested ? null : (
        <Form
          method="post"
          onSubmit={(event) => {
            if (!window.confirm(t("console.import.cancelConfirm"))) event.preventDefault();
          }}
        >
          <Button type="submit" name="intent" value="cancel" variant="secondary" data-testid="import-cancel">
            {t("console.import.cancel")}
          </Button>
        </Form>
      )}
    </DetailSection>
  );
}

/** 1.5 MB, 12.3 kB, 800 B: a file's size as the run page shows it. */
function fileSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${bytes} B`;
}

/** The run's files with their sizes and, for a CSV, the encoding it was read in (detected or chosen). */
export function RunFiles({ run }: { run: RunView }) {
  const t = useConsoleT();
  if (run.files.length === 0 && !run.encoding) return null;
  const { encoding } = run;
  return (
    <DetailSection id="import-files" title={t("console.import.run.files")} className="mt-6" testId="import-run-files">
      {run.files.length > 0 ? (
        <ul className="space-y-1 text-sm">
          {run.files.map((f) => (
            <li key={`${f.role}-${f.name}`} className="break-all">
              {f.bytes === null ? f.name : t("console.import.run.fileLine", { name: f.name, size: fileSize(f.bytes) })}
            </li>
          ))}
        </ul>
      ) : null}
      {encoding ? (
        <dl className="text-sm">
          <FieldRow label={t("console.import.run.encoding")} testId="import-run-encoding">
            <span data-encoding={encoding.name}>
              {encoding.detected === null
                ? t(`console.import.encoding.${encoding.name}`)
                : t("console.import.run.encodingLine", {
                    encoding: t(`console.import.encoding.${encoding.name}`),
                    how: t(
                      encoding.detected ? "console.import.run.encodingDetected" : "console.import.run.encodingChosen",
                    ),
                  })}
            </span>
          </FieldRow>
        </dl>
      ) : null}
    </DetailSection>
  );
}

/** A finished run: its counts, the points booked, how long it took (and why it failed). */
export function RunResult({ run }: { run: RunView }) {
  const t = useConsoleT();
  const duration = useDuration();
  const seconds =
    run.startedAt && run.finishedAt ? (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000 : null;
  return (
    <DetailSection id="import-result" title={t("console.import.result.title")} className="mt-6" testId="import-result">
      {run.status === "cancelled" ? <p className="text-sm text-muted">{t("console.import.result.cancelled")}</p> : null}
      <dl className="grid grid-cols-2 gap-4 text-sm sm:grid-cols-3 lg:grid-cols-6">
        <FieldRow
          label={t("console.import.result.created")}
          className="text-2xl tabular-nums"
          testId="import-result-created"
        >
          {n(run.created)}
        </FieldRow>
        <FieldRow
          label={t("console.import.result.merged")}
          className="text-2xl tabular-nums"
          testId="import-result-merged"
        >
          {n(run.merged)}
        </FieldRow>
        <FieldRow
          label={t("console.import.result.unchanged")}
          className="text-2xl tabular-nums"
          testId="import-result-unchanged"
        >
          {n(run.unchanged)}
        </FieldRow>
        <FieldRow
          label={t("console.import.result.rejected")}
          className="text-2xl tabular-nums"
          testId="import-result-rejected"
        >
          {n(run.rejected)}
        </FieldRow>
        <FieldRow
          label={t("console.import.result.points")}
          className="text-2xl tabular-nums"
          testId="import-result-points"
        >
          {n(run.pointsBooked)}
        </FieldRow>
        <FieldRow
          label={t("console.import.result.duration")}
          className="text-2xl tabular-nums"
          testId="import-result-duration"
        >
          {seconds === null ? "—" : duration(seconds)}
        </FieldRow>
      </dl>
      {run.error ? (
        <p className="rounded-xl bg-danger-700/5 p-3 text-danger-800" data-testid="import-result-error">
          <span className="font-medium">{t("console.import.result.error")}：</span>
          {run.error}
        </p>
      ) : null}
    </DetailSection>
  );
}

/** The link to the rejected rows as CSV (a download, the original cells plus the problems). */
export function RejectedDownload({ runId }: { runId: string }) {
  const t = useConsoleT();
  return (
    <a
      href={`/admin/imports/${runId}/rejected.csv`}
      download
      className={buttonVariants({ variant: "secondary", size: "sm" })}
      data-testid="import-rejected-download"
    >
      {t("console.import.rejected.download")}
    </a>
  );
}
