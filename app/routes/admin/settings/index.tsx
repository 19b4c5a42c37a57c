import { Form, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { PageNotices } from "~/components/console/staff/post-forms";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { settingsSchema } from "~/domain/staff/forms";
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

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "settings.edit");
  const form = await readForm(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const parsed = parseForm(settingsSchema(serverT(request)), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const now = requestNow(request, app.config);
  await setManagerAdjustmentLimit(app.db, stepUp.actor, parsed.data.managerLimit, consoleAudit(context, request), now);
  return redirect("/admin/settings?saved=1");
}

export default function Settings({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const n = (value: number) => value.toLocaleString(locale === "en" ? "en-US" : "zh-TW");
  const limit = loaderData.managerLimit;
  return (
    <ConsolePage
      width="3xl"
      title={t("console.settings.title")}
      notices={<PageNotices done={loaderData.saved && !form.state ? t("console.settings.saved") : null} error={null} />}
    >
      <DetailSection
        id="limit-title"
        className="mt-6"
        title={t("console.settings.limitTitle")}
        lead={t("console.settings.limitLead", {
          limit: n(limit),
          factor: MANAGER_DAILY_ADJUSTMENT_FACTOR,
          daily: n(limit * MANAGER_DAILY_ADJUSTMENT_FACTOR),
        })}
      >
        <Form method="post" className="space-y-5">
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
              defaultValue: form.value("managerLimit", String(limit)),
              className: "tabular-nums sm:max-w-60",
            }}
          />
          <StepUpField
            show={Boolean((form.state && "stepUp" in form.state) || loaderData.stepUp)}
            errors={form.errors("stepUpCode")}
          />
          <Button type="submit" pending={pending}>
            {t("console.settings.save")}
          </Button>
        </Form>
      </DetailSection>
    </ConsolePage>
  );
}
