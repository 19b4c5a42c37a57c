import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { DetailSection, FieldRow } from "~/components/console/detail-section";
import { GrantPageFrame } from "~/components/console/grants/grant-page";
import { GrantProgress, GrantStatusBadge, RejectedGrantRows } from "~/components/console/grants/grant-parts";
import { PageNotices } from "~/components/console/staff/post-forms";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import {
  approveGrant,
  cancelGrant,
  grantAllowanceToday,
  grantDetail,
  rejectGrant,
  submitGrant,
} from "~/domain/imports/grants.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { managerAdjustmentLimit } from "~/domain/staff/settings.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/grant";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.grants.detailTitle");

const DONE = ["submitted", "requested", "requestedDaily", "approved", "rejected", "cancelled"] as const;
const REJECTED_SHOWN = 200;

/**
 * One bulk grant: the dry run's total and refused rows; 送出 / 送審 for its starter, 核准 / 退回 for an admin who
 * did not start it, the progress while it is applied (reloaded every 2 s, from the run's counters), 取消, the result.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "points.bulk");
  const app = getApp(context);
  const grant = await grantDetail(app.db, params.runId, REJECTED_SHOWN);
  if (!grant) throw data(null, { status: 404 });
  const limit = await managerAdjustmentLimit(app.db);
  const done = new URL(request.url).searchParams.get("done");
  const own = grant.createdBy === actor.userId;
  // What the starter can still grant today without a second person (issue 35: grants cannot be split).
  const allowance =
    grant.status === "checked" && grant.createdBy
      ? await grantAllowanceToday(app.db, grant.createdBy, limit, requestNow(request, app.config))
      : null;
  return {
    done: DONE.find((d) => d === done) ?? null,
    limit,
    allowance,
    own,
    canDecide: !own && hasPermission(actor, "points.approve"),
    grant: {
      id: grant.id,
      status: grant.status,
      reason: grant.reason,
      notify: grant.notify,
      source: grant.fileName,
      filter: grant.filter,
      report: grant.report,
      rowsDone: grant.rowsDone,
      rowsTotal: grant.rowsTotal,
      rejectedCount: grant.rejectedCount,
      pointsBooked: grant.pointsBooked,
      starterName: grant.starterName,
      deciderName: grant.deciderName,
      createdAt: grant.createdAt.toISOString(),
      decidedAt: grant.decidedAt?.toISOString() ?? null,
      finishedAt: grant.finishedAt?.toISOString() ?? null,
      cancelRequested: grant.cancelRequested,
      error: grant.error,
    },
    rejected: grant.rejectedRows.map((r) => ({
      line: r.line,
      member: r.raw.number || r.raw.phone || r.raw.memberId || "",
      points: r.raw.points ?? "",
      problems: r.problems.map((p) => p.code),
    })),
  };
}

const intentSchema = z.object({ intent: z.enum(["submit", "approve", "reject", "cancel"]) });

export async function action({ request, params, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "points.bulk");
  const form = await readForm(request);
  const t = serverT(request);
  const parsed = parseForm(intentSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.grants.error.intent") });
  const { intent } = parsed.data;
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const back = (done: (typeof DONE)[number]) => redirect(`/admin/grants/${params.runId}?done=${done}`);
  try {
    if (intent === "cancel") {
      await cancelGrant(app.db, actor, params.runId, audit, now);
      return back("cancelled");
    }
    // Sending and deciding are sensitive (ADR 023): the second factor again when the last code is old.
    const stepUp = await requireRecentSecondFactorFor(context, request, form);
    if (!stepUp.ok) return stepUp.answer;
    if (intent === "submit") {
      const { status, waitsFor } = await submitGrant(app.db, app.jobs, stepUp.actor, params.runId, audit, now);
      return back(status === "queued" ? "submitted" : waitsFor === "over_daily_total" ? "requestedDaily" : "requested");
    }
    if (intent === "approve") {
      await approveGrant(app.db, app.jobs, stepUp.actor, params.runId, audit, now);
      return back("approved");
    }
    await rejectGrant(app.db, stepUp.actor, params.runId, audit, now);
    return back("rejected");
  } catch (error) {
    return consoleFailure(error, null, t);
  }
}

export default function GrantPage({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const { grant, limit, allowance, own, canDecide } = loaderData;
  const report = grant.report;
  const n = (v: number) => v.toLocaleString("en-US");
  const stepUp = Boolean(form.state && "stepUp" in form.state);
  const asked = form.value("intent");
  const total = report?.total ?? 0;
  const over = total > limit;
  const overToday = !over && allowance !== null && total > allowance;
  const applying = grant.status === "queued" || grant.status === "running";
  const ended = ["done", "cancelled", "failed", "rejected"].includes(grant.status);
  const button = (intent: string, label: string, variant: "primary" | "secondary" | "danger" = "primary") => (
    <Button type="submit" name="intent" value={intent} variant={variant} data-testid={`grant-${intent}`}>
      {label}
    </Button>
  );
  return (
    <GrantPageFrame
      width="5xl"
      title={t("console.grants.detailTitle")}
      badges={<GrantStatusBadge status={grant.status} />}
      notices={
        <PageNotices
          done={loaderData.done && !form.state ? t(`console.grants.done.${loaderData.done}`) : null}
          error={form.formError}
        />
      }
    >
      <DetailSection title={t("console.grants.summary")} testId="grant-summary">
        <dl className="grid gap-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
          <FieldRow label={t("console.grants.col.source")}>
            {grant.source ?? t("console.grants.source.filter")}
          </FieldRow>
          <FieldRow label={t("console.grants.col.reason")} className="break-words">
            {grant.reason}
          </FieldRow>
          <FieldRow label={t("console.grants.starter")}>
            {grant.starterName ?? "—"} · {formatTaipei(grant.createdAt, locale, "dateTime")}
          </FieldRow>
          {grant.deciderName ? (
            <FieldRow label={t("console.grants.decider")}>
              {grant.deciderName}
              {grant.decidedAt ? ` · ${formatTaipei(grant.decidedAt, locale, "dateTime")}` : ""}
            </FieldRow>
          ) : null}
          <FieldRow label={t("console.grants.rows")} className="tabular-nums">
            {n(report?.rows ?? 0)}
          </FieldRow>
          <FieldRow label={t("console.grants.valid")} className="tabular-nums">
            {n(report?.valid ?? 0)}
          </FieldRow>
          <FieldRow label={t("console.grants.rejectedRows")} className="tabular-nums">
            {n(grant.rejectedCount)}
          </FieldRow>
          <FieldRow label={t("console.grants.total")} className="tabular-nums" testId="grant-total">
            {n(report?.total ?? 0)}
          </FieldRow>
        </dl>
        <p className="text-sm text-muted" data-testid="grant-limit">
          {allowance === null
            ? t("console.grants.limit", { limit: n(limit) })
            : t("console.grants.limitToday", { limit: n(limit), left: n(allowance) })}
        </p>
        {grant.status === "checked" && over ? (
          <Alert tone="info">{t("console.grants.overLimit", { limit: n(limit) })}</Alert>
        ) : null}
        {grant.status === "checked" && overToday ? (
          <Alert tone="info">{t("console.grants.overToday", { left: n(allowance ?? 0) })}</Alert>
        ) : null}
        {grant.status === "awaiting_approval" && !canDecide ? (
          <p className="text-sm">{t("console.grants.waitingOther")}</p>
        ) : null}
        {!ended ? (
          <Form method="post" className="flex flex-wrap items-end gap-3" data-testid="grant-actions">
            <StepUpField show={stepUp} errors={form.errors("stepUpCode")} required={asked !== "cancel"} />
            {grant.status === "checked" && own && (report?.valid ?? 0) > 0
              ? button("submit", over || overToday ? t("console.grants.submitForApproval") : t("console.grants.submit"))
              : null}
            {grant.status === "awaiting_approval" && canDecide ? (
              <>
                {button("approve", t("console.grants.approve"))}
                {button("reject", t("console.grants.reject"), "danger")}
              </>
            ) : null}
            {!grant.cancelRequested ? button("cancel", t("console.grants.cancel"), "secondary") : null}
          </Form>
        ) : null}
      </DetailSection>
      {applying || ended ? (
        <DetailSection title={ended ? t("console.grants.result") : t("console.grants.progress")} testId="grant-result">
          <GrantProgress done={grant.rowsDone} total={grant.rowsTotal} points={grant.pointsBooked} active={applying} />
          {grant.cancelRequested && applying ? <p className="text-sm">{t("console.grants.cancelRequested")}</p> : null}
          {ended ? (
            <p className="font-medium" data-testid="grant-booked">
              {t("console.grants.booked", { points: n(grant.pointsBooked) })}
            </p>
          ) : null}
          {grant.error ? <Alert tone="error">{grant.error}</Alert> : null}
        </DetailSection>
      ) : null}
      {loaderData.rejected.length > 0 ? (
        <DetailSection
          title={t("console.grants.rejectedTitle")}
          lead={
            grant.rejectedCount > loaderData.rejected.length
              ? t("console.grants.rejectedMore", { count: loaderData.rejected.length })
              : undefined
          }
        >
          <RejectedGrantRows rows={loaderData.rejected} />
          <a
            href={`/admin/grants/${grant.id}/rejected.csv`}
            download
            className={buttonVariants({ variant: "secondary", size: "sm" })}
            data-testid="grant-rejected-download"
          >
            {t("console.grants.rejectedDownload")}
          </a>
        </DetailSection>
      ) : null}
      <p className="text-sm text-muted" data-testid="grant-notify">
        {t(grant.notify ? "console.grants.notifyOn" : "console.grants.notifyOff")}
      </p>
    </GrantPageFrame>
  );
}
