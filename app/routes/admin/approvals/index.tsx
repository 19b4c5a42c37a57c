import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { approveAdjustment, pendingAdjustments, rejectAdjustment } from "~/domain/loyalty/adjustments.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.approvals.title");

/** Adjustments above a manager's limit, waiting for a second admin (four-eyes, ADR 023). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "points.approve");
  const locale = getLocale(request);
  const rows = await pendingAdjustments(getApp(context).db, actor);
  const done = new URL(request.url).searchParams.get("done");
  return {
    done: done === "approved" || done === "rejected" ? (done as "approved" | "rejected") : null,
    pending: rows.map((row) => ({
      id: row.id,
      memberId: row.memberId,
      memberName: row.memberName,
      memberNumber: row.memberNumber,
      amount: row.amount,
      reason: row.reason,
      detail: row.detail,
      requesterName: row.requesterName,
      storeName: row.storeName ? pick(row.storeName, locale) : null,
      requestedAt: row.requestedAt.toISOString(),
      own: row.requestedBy === actor.userId,
    })),
  };
}

/** A decision: which adjustment (an unknown one is the domain's refusal), approved or rejected. */
const decisionSchema = z.object({ adjustmentId: z.string().default(""), intent: z.enum(["approve", "reject"]) });

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "points.approve");
  const form = await readForm(request);
  const t = serverT(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(decisionSchema, form);
  if (!parsed.ok) return data({ formError: t("console.approvals.error.intent") }, { status: 400 });
  const { adjustmentId: id, intent } = parsed.data;
  try {
    const decide = intent === "approve" ? approveAdjustment : rejectAdjustment;
    await decide(app.db, stepUp.actor, id, consoleAudit(context, request), requestNow(request, app.config));
    return redirect(`/admin/approvals?done=${intent === "approve" ? "approved" : "rejected"}`);
  } catch (error) {
    // The booking's refusals (the loyalty area's) worded for this page; a decision's own refusals are the table's.
    return consoleFailure(error, null, t, {
      wording: {
        insufficient_points: "console.approvals.error.insufficient_points",
        member_disabled: "console.approvals.error.member_disabled",
        "*": "console.adjust.error.conflict",
      },
    });
  }
}

export default function Approvals({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const state = form.state as { stepUp?: boolean; values?: Record<string, string> } | undefined;
  const n = (value: number) => value.toLocaleString(locale === "en" ? "en-US" : "zh-TW");
  const busyId = navigation.state === "submitting" ? navigation.formData?.get("adjustmentId") : null;
  const signed = (value: number) => (value > 0 ? `+${n(value)}` : n(value));
  // The step-up code is asked inside the card of the adjustment it decides, its button naming it.
  const asking = state?.stepUp ? loaderData.pending.find((row) => row.id === state.values?.adjustmentId) : undefined;
  const stepUpForm = (row: (typeof loaderData.pending)[number] | null) => {
    const reject = state?.values?.intent === "reject";
    const words = row
      ? t(reject ? "console.approvals.confirmReject" : "console.approvals.confirmApprove", {
          name: row.memberName,
          points: signed(row.amount),
        })
      : t(reject ? "console.approvals.reject" : "console.approvals.approve");
    return (
      <Form
        method="post"
        className={cn(
          "space-y-4",
          row ? "mt-4 border-t border-line pt-4" : "rounded-2xl border border-line bg-white p-5",
        )}
        data-testid="approval-step-up"
      >
        <input type="hidden" name="adjustmentId" value={state?.values?.adjustmentId ?? ""} />
        <input type="hidden" name="intent" value={state?.values?.intent ?? ""} />
        <StepUpField show errors={form.errors("stepUpCode")} />
        <Button type="submit" variant={reject ? "secondary" : "primary"} pending={navigation.state === "submitting"}>
          {words}
        </Button>
      </Form>
    );
  };
  return (
    <ConsolePage
      width="5xl"
      title={t("console.approvals.title")}
      lead={t("console.approvals.lead")}
      notices={
        <>
          {loaderData.done && !form.state ? (
            <Alert tone="success">{t(`console.approvals.done.${loaderData.done}`)}</Alert>
          ) : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {state?.stepUp && !asking ? stepUpForm(null) : null}
        </>
      }
    >
      {loaderData.pending.length === 0 ? (
        <p
          className="mt-8 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="approvals-empty"
        >
          {t("console.approvals.empty")}
        </p>
      ) : (
        <ul className="mt-6 space-y-4" data-testid="approvals-list">
          {loaderData.pending.map((row) => (
            <li
              key={row.id}
              className="rounded-2xl border border-line bg-white p-5"
              data-testid="approval"
              data-adjustment-id={row.id}
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <p className="font-medium">
                    {row.memberName} <span className="text-sm text-muted tabular-nums">{row.memberNumber}</span>
                  </p>
                  <p className="mt-1 text-sm">
                    {t(`console.adjust.reason.${row.reason}` as "console.adjust.reason.other")}
                    {row.detail ? `：${row.detail}` : ""}
                  </p>
                </div>
                <p
                  className={`font-serif text-2xl font-semibold tabular-nums ${row.amount < 0 ? "text-danger-700" : "text-brand-700"}`}
                >
                  {t("console.adjust.points", { points: signed(row.amount) })}
                </p>
              </div>
              <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
                <div>
                  <dt className="text-muted">{t("console.approvals.requester")}</dt>
                  <dd>{row.requesterName ?? "—"}</dd>
                </div>
                <div>
                  <dt className="text-muted">{t("console.approvals.store")}</dt>
                  <dd>{row.storeName ?? "—"}</dd>
                </div>
                <div>
                  <dt className="text-muted">{t("console.approvals.requestedAt")}</dt>
                  <dd className="tabular-nums">{formatTaipei(row.requestedAt, locale, "dateTime")}</dd>
                </div>
              </dl>
              {asking?.id === row.id ? stepUpForm(row) : null}
              <Form
                method="post"
                className={cn("mt-4 flex flex-wrap items-center gap-3", asking?.id === row.id && "hidden")}
              >
                <input type="hidden" name="adjustmentId" value={row.id} />
                {row.own ? (
                  <p className="text-sm text-muted">{t("console.approvals.own")}</p>
                ) : (
                  <Button
                    type="submit"
                    name="intent"
                    value="approve"
                    pending={busyId === row.id && navigation.formData?.get("intent") === "approve"}
                    aria-label={t("console.approvals.approveFor", { name: row.memberName })}
                  >
                    {t("console.approvals.approve")}
                  </Button>
                )}
                <Button
                  type="submit"
                  name="intent"
                  value="reject"
                  variant="secondary"
                  pending={busyId === row.id && navigation.formData?.get("intent") === "reject"}
                  aria-label={t("console.approvals.rejectFor", { name: row.memberName })}
                >
                  {row.own ? t("console.approvals.withdraw") : t("console.approvals.reject")}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </ConsolePage>
  );
}
