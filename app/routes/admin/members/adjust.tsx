import { data, redirect } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure, isLoyaltyRefusal } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FieldRow } from "~/components/console/detail-section";
import { AdjustForm } from "~/components/console/members/adjust-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import {
  adjustmentOutcome,
  adjustmentSchema,
  memberForAdjustment,
  requestAdjustment,
} from "~/domain/loyalty/adjustments.server";
import { hasRecentSecondFactor, requirePermission, requireStaff } from "~/domain/staff/guard.server";
import { adjustmentNeedsApproval, MANAGER_DAILY_ADJUSTMENT_FACTOR } from "~/domain/staff/permissions";
import { managerAdjustmentLimit } from "~/domain/staff/settings.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
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
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(adjustmentSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const { requestKey, ...fields } = parsed.data;
  if (!/^[0-9a-f-]{36}$/i.test(requestKey)) {
    return formFailure({
      errors: {},
      values: formValues(form),
      formError: t("console.adjust.error.stale_form"),
    });
  }
  try {
    const result = await requestAdjustment(
      app.db,
      stepUp.actor,
      { ...fields, memberId: params.memberId, requestKey },
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
    return consoleFailure(error, form, t, {
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
  const { member, limit, dailyLimit, done } = loaderData;
  const n = (value: number) => value.toLocaleString(locale === "en" ? "en-US" : "zh-TW");
  const pendingBody = done?.overDailyTotal
    ? t("console.adjust.pendingDailyBody", { points: n(done.amount), limit: n(limit ?? 0), daily: n(dailyLimit ?? 0) })
    : t("console.adjust.pendingBody", { points: n(done?.amount ?? 0) });
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
              ? pendingBody
              : t("console.adjust.bookedBody", { points: n(done.amount), balance: n(member.balance) })}
          </p>
        </Alert>
      ) : null}
      {member.disabled ? (
        <Alert tone="error" className="mt-6">
          {t("console.adjust.error.member_disabled")}
        </Alert>
      ) : (
        <AdjustForm
          requestKey={loaderData.requestKey}
          stepUp={loaderData.stepUp}
          limitHint={
            limit === null ? null : t("console.adjust.limitHint", { limit: n(limit), daily: n(dailyLimit ?? 0) })
          }
        />
      )}
    </ConsolePage>
  );
}
