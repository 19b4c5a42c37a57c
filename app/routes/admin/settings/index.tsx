import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { MAX_MANAGER_LIMIT, parsePoints } from "~/domain/loyalty/adjustment-input";
import { hasRecentSecondFactor, requirePermission } from "~/domain/staff/guard.server";
import { MANAGER_DAILY_ADJUSTMENT_FACTOR } from "~/domain/staff/permissions";
import { managerAdjustmentLimit, setManagerAdjustmentLimit } from "~/domain/staff/settings.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.settings.title");

/** Console settings (admins): the manager's point adjustment limit. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "settings.edit");
  return {
    // Asked with the form when the last code is old (ADR 023).
    stepUp: !hasRecentSecondFactor(actor, requestNow(request, app.config)),
    managerLimit: await managerAdjustmentLimit(app.db),
    saved: new URL(request.url).searchParams.get("saved") === "1",
  };
}

/** The settings form: the manager's daily limit, 0 allowed (every manager adjustment then waits for an admin). */
function settingsSchema(t: ReturnType<typeof serverT>) {
  return z.object({
    managerLimit: z
      .string()
      .optional()
      .transform((raw = "", ctx) => {
        const parsed = raw.trim() === "0" ? ({ ok: true, value: 0 } as const) : parsePoints(raw, MAX_MANAGER_LIMIT);
        if (parsed.ok && parsed.value >= 0) return parsed.value;
        const code = parsed.ok ? "negative" : parsed.error;
        const message =
          code === "amount_too_large"
            ? t("console.settings.error.tooLarge", { max: MAX_MANAGER_LIMIT.toLocaleString("en-US") })
            : code === "amount_required"
              ? t("common.required")
              : t("console.settings.error.invalid");
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }),
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "settings.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(settingsSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  await setManagerAdjustmentLimit(
    app.db,
    stepUp.actor,
    parsed.data.managerLimit,
    consoleAudit(context, request),
    requestNow(request, app.config),
  );
  return redirect("/admin/settings?saved=1");
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const state = form.state as { stepUp?: boolean } | undefined;
  return (
    <ConsolePage width="3xl" title={t("console.settings.title")}>
      {loaderData.saved && !form.state ? (
        <Alert tone="success" className="mt-6">
          {t("console.settings.saved")}
        </Alert>
      ) : null}
      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="limit-title">
        <h2 id="limit-title" className="text-lg font-semibold">
          {t("console.settings.limitTitle")}
        </h2>
        <p className="mt-1 text-sm text-muted">
          {t("console.settings.limitLead", {
            limit: loaderData.managerLimit.toLocaleString(locale === "en" ? "en-US" : "zh-TW"),
            factor: MANAGER_DAILY_ADJUSTMENT_FACTOR,
            daily: (loaderData.managerLimit * MANAGER_DAILY_ADJUSTMENT_FACTOR).toLocaleString(
              locale === "en" ? "en-US" : "zh-TW",
            ),
          })}
        </p>
        <Form method="post" className="mt-4 space-y-5">
          <Field
            label={t("console.settings.managerLimit")}
            description={t("console.settings.managerLimitHint")}
            errors={form.errors("managerLimit")}
            inputProps={{
              name: "managerLimit",
              type: "text",
              inputMode: "numeric",
              autoComplete: "off",
              required: true,
              maxLength: 12,
              defaultValue: form.value("managerLimit", String(loaderData.managerLimit)),
              className: "tabular-nums sm:max-w-60",
            }}
          />
          <StepUpField show={Boolean(state?.stepUp || loaderData.stepUp)} errors={form.errors("stepUpCode")} />
          <Button type="submit" pending={pending}>
            {t("console.settings.save")}
          </Button>
        </Form>
      </section>
    </ConsolePage>
  );
}
