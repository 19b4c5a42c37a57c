import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor, STEP_UP_FIELD } from "~/adapters/console.server";
import { consoleFailure, isLoyaltyRefusal } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FieldRow } from "~/components/console/detail-section";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, FieldShell, inputClass } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { ADJUSTMENT_REASONS, MAX_DETAIL_LENGTH, parseAdjustment } from "~/domain/loyalty/adjustment-input";
import { adjustmentOutcome, memberForAdjustment, requestAdjustment } from "~/domain/loyalty/adjustments.server";
import { hasRecentSecondFactor, requirePermission, requireStaff } from "~/domain/staff/guard.server";
import { adjustmentNeedsApproval, MANAGER_DAILY_ADJUSTMENT_FACTOR } from "~/domain/staff/permissions";
import { managerAdjustmentLimit } from "~/domain/staff/settings.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { formValues, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/adjust";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.adjust.title");

/** points.adjust at the store the staff member works at now (managers and admins). */
function adjuster(context: Route.LoaderArgs["context"]) {
  const staff = requireStaff(context);
  return requirePermission(context, "points.adjust", { storeId: staff.currentStoreId });
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = adjuster(context);
  const found = await memberForAdjustment(app.db, actor, params.memberId);
  if (!found) throw data({ memberId: params.memberId }, { status: 404, statusText: "Not Found" });
  const doneId = new URL(request.url).searchParams.get("done");
  const done = doneId ? await adjustmentOutcome(app.db, found.id, doneId) : null;
  const limit = actor.role === "admin" ? null : await managerAdjustmentLimit(app.db);
  return {
    // A sensitive form shows the code field from the start when the last code is old (ADR 023): asked
    // before the form is filled in, and never a redirect that would lose what was typed.
    stepUp: !hasRecentSecondFactor(actor, requestNow(request, app.config)),
    member: found,
    role: actor.role,
    limit,
    dailyLimit: limit === null ? null : limit * MANAGER_DAILY_ADJUSTMENT_FACTOR,
    requestKey: crypto.randomUUID(),
    // A pending adjustment within the limit on its own waits because of the day's totals (ADR 023).
    done: done
      ? { ...done, overDailyTotal: limit !== null && !adjustmentNeedsApproval(actor.role, done.amount, limit) }
      : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  adjuster(context);
  const form = await readForm(request);
  const t = serverT(request);
  const values = formValues(form, [STEP_UP_FIELD]);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseAdjustment({
    amount: form.get("amount"),
    reason: form.get("reason"),
    detail: form.get("detail"),
  });
  if (!parsed.ok) {
    const errors = Object.fromEntries(
      Object.entries(parsed.errors).map(([field, code]) => [field, [t(`console.adjust.error.${code}`)]]),
    );
    return data({ errors, values }, { status: 400 });
  }
  const requestKey = String(form.get("requestKey") ?? "");
  if (!/^[0-9a-f-]{36}$/i.test(requestKey)) {
    return data({ formError: t("console.adjust.error.stale_form"), values }, { status: 400 });
  }
  try {
    const result = await requestAdjustment(
      app.db,
      stepUp.actor,
      { ...parsed.value, memberId: params.memberId, requestKey },
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return redirect(`/admin/members/${params.memberId}/adjust?done=${result.adjustment.id}`);
  } catch (error) {
    if (isLoyaltyRefusal(error, "member_not_found")) throw data({ memberId: params.memberId }, { status: 404 });
    // Below zero says the balance now, beside the amount.
    const found = isLoyaltyRefusal(error, "insufficient_points")
      ? await memberForAdjustment(app.db, stepUp.actor, params.memberId)
      : null;
    return consoleFailure(error, null, t, {
      values,
      fields: { insufficient_points: "amount", invalid_amount: "amount" },
      wording: {
        insufficient_points: "console.adjust.error.below_zero",
        invalid_amount: "console.adjust.error.amount_too_large",
        member_disabled: "console.adjust.error.member_disabled",
        "*": "console.adjust.error.conflict",
      },
      params: { balance: (found?.balance ?? 0).toLocaleString("en-US") },
    });
  }
}

export default function AdjustPoints({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { member, limit, dailyLimit, done } = loaderData;
  const state = form.state as { stepUp?: boolean } | undefined;
  const n = (value: number) => value.toLocaleString(locale === "en" ? "en-US" : "zh-TW");
  return (
    <ConsolePage
      width="3xl"
      testId="adjust-member"
      back={{ to: `/admin/members/${member.id}`, label: t("console.members.backToMember") }}
      title={member.name}
      lead={t("console.adjust.eyebrow")}
    >
      <section aria-label={t("console.adjust.eyebrow")} className="mt-6 rounded-2xl border border-line bg-white p-5">
        <dl className="grid grid-cols-2 gap-3 text-sm sm:max-w-md">
          <FieldRow
            label={t("console.adjust.memberNumber")}
            className="font-medium tabular-nums"
            testId="adjust-member-number"
          >
            {member.memberNumber}
          </FieldRow>
          <FieldRow
            label={t("console.adjust.balance")}
            className="text-lg font-semibold tabular-nums"
            testId="adjust-balance"
          >
            {t("console.adjust.points", { points: n(member.balance) })}
          </FieldRow>
        </dl>
      </section>

      {done ? (
        <Alert
          tone="success"
          className="mt-6"
          title={done.status === "pending" ? t("console.adjust.pendingTitle") : t("console.adjust.bookedTitle")}
        >
          <p data-testid="adjust-result">
            {done.status === "pending"
              ? done.overDailyTotal
                ? t("console.adjust.pendingDailyBody", {
                    points: n(done.amount),
                    limit: n(limit ?? 0),
                    daily: n(dailyLimit ?? 0),
                  })
                : t("console.adjust.pendingBody", { points: n(done.amount) })
              : t("console.adjust.bookedBody", { points: n(done.amount), balance: n(member.balance) })}
          </p>
        </Alert>
      ) : null}

      {member.disabled ? (
        <Alert tone="error" className="mt-6">
          {t("console.adjust.error.member_disabled")}
        </Alert>
      ) : (
        <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="adjust-form-title">
          <h2 id="adjust-form-title" className="text-lg font-semibold">
            {t("console.adjust.formTitle")}
          </h2>
          {limit !== null ? (
            <p className="mt-1 text-sm text-muted">
              {t("console.adjust.limitHint", { limit: n(limit), daily: n(dailyLimit ?? 0) })}
            </p>
          ) : null}
          <Form method="post" className="mt-4 space-y-5" key={loaderData.requestKey}>
            {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
            <input type="hidden" name="requestKey" value={form.value("requestKey", loaderData.requestKey)} />
            <Field
              label={t("console.adjust.amount")}
              description={t("console.adjust.amountHint")}
              errors={form.errors("amount")}
              inputProps={{
                name: "amount",
                type: "text",
                inputMode: "numeric",
                autoComplete: "off",
                required: true,
                maxLength: 14,
                defaultValue: form.value("amount"),
                className: "tabular-nums sm:max-w-60",
              }}
            />
            <FieldShell label={t("console.adjust.reason")} errors={form.errors("reason")}>
              {({ inputId, describedBy, invalid }) => (
                <select
                  id={inputId}
                  name="reason"
                  required
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  defaultValue={form.value("reason", "")}
                  className={cn(inputClass, "min-h-11 py-0 sm:max-w-80")}
                >
                  <option value="" disabled>
                    {t("console.adjust.reasonChoose")}
                  </option>
                  {ADJUSTMENT_REASONS.map((reason) => (
                    <option key={reason} value={reason}>
                      {t(`console.adjust.reason.${reason}`)}
                    </option>
                  ))}
                </select>
              )}
            </FieldShell>
            <FieldShell
              label={t("console.adjust.detail")}
              description={t("console.adjust.detailHint", { max: MAX_DETAIL_LENGTH })}
              errors={form.errors("detail")}
            >
              {({ inputId, describedBy, invalid }) => (
                <textarea
                  id={inputId}
                  name="detail"
                  rows={3}
                  maxLength={MAX_DETAIL_LENGTH}
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  defaultValue={form.value("detail")}
                  className={cn(inputClass, "py-2")}
                />
              )}
            </FieldShell>
            <StepUpField show={Boolean(state?.stepUp || loaderData.stepUp)} errors={form.errors("stepUpCode")} />
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" pending={pending}>
                {t("console.adjust.submit")}
              </Button>
              <Link to="/admin" className="min-h-11 content-center px-3 text-sm underline underline-offset-4">
                {t("console.adjust.cancel")}
              </Link>
            </div>
          </Form>
        </section>
      )}
    </ConsolePage>
  );
}
