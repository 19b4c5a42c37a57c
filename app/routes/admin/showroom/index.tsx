import { Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleTable } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { isVersionConflict } from "~/domain/refusals";
import { SHOWROOM_BOUNDS, type ShowroomField, showroomSettingsSchema } from "~/domain/showroom/settings";
import {
  currentShowroomSettings,
  saveShowroomSettings,
  showroomSettingsHistory,
} from "~/domain/showroom/settings.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.showroom.title");

const APPOINTMENT_FIELDS = [
  "bookingHorizonDays",
  "changeCutoffMinutes",
  "reminderHour",
  "noShowGraceMinutes",
] as const satisfies readonly ShowroomField[];
const SAMPLE_FIELDS = [
  "sampleLimit",
  "sampleLoanDays",
  "sampleReminderDays",
] as const satisfies readonly ShowroomField[];

/**
 * Showroom settings (admins, `settings.edit`; issue 37, ADR 050): the booking horizon, the change cut-off, the
 * reminder hour, the no-show grace and the sample limit, loan and reminder days. Saving makes a new version, in
 * force at once; the versions are the history below the form.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  requirePermission(context, "settings.edit");
  const [current, history] = await Promise.all([currentShowroomSettings(app.db), showroomSettingsHistory(app.db)]);
  const saved = new URL(request.url).searchParams.get("saved");
  return {
    current: { ...current, createdAt: current.createdAt?.toISOString() ?? null },
    saved: saved && /^\d{1,15}$/.test(saved) ? Number(saved) : null,
    history: history.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "settings.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const parsed = parseForm(showroomSettingsSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.showroom.error.fix") });
  const { baseVersion, ...values } = parsed.data;
  try {
    const saved = await saveShowroomSettings(
      app.db,
      actor,
      values,
      baseVersion,
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return redirect(`/admin/showroom?saved=${saved.id}`);
  } catch (error) {
    // Someone saved first: what was typed stays, over the version saved now (saving again replaces it knowingly).
    const current: Record<string, string> = isVersionConflict(error) ? { baseVersion: String(error.current) } : {};
    return consoleFailure(error, form, t, { values: current });
  }
}

export default function ShowroomSettings({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { current, saved, history } = loaderData;
  const done =
    saved !== null && !form.state
      ? saved === current.id && saved > 0
        ? t("console.showroom.saved", { id: saved })
        : t("console.showroom.unchanged")
      : null;
  const field = (name: ShowroomField) => (
    <Field
      key={name}
      label={t(`console.showroom.field.${name}`)}
      description={t(`console.showroom.hint.${name}`, {
        min: SHOWROOM_BOUNDS[name].min,
        max: SHOWROOM_BOUNDS[name].max,
      })}
      errors={form.errors(name)}
      inputProps={{
        name,
        type: "text",
        inputMode: "numeric",
        autoComplete: "off",
        required: true,
        maxLength: 6,
        defaultValue: form.value(name, String(current[name])),
        className: "tabular-nums sm:max-w-40",
      }}
    />
  );
  type Row = (typeof history)[number];
  return (
    <ConsolePage
      width="3xl"
      title={t("console.showroom.title")}
      lead={t("console.showroom.lead")}
      notices={<PageNotices done={done} error={form.formError} />}
    >
      <Form method="post" className="mt-6 space-y-6" noValidate>
        <input type="hidden" name="baseVersion" value={form.value("baseVersion", String(current.id))} />
        <DetailSection id="appointments-title" title={t("console.showroom.appointmentsTitle")}>
          <div className="space-y-5">{APPOINTMENT_FIELDS.map(field)}</div>
        </DetailSection>
        <DetailSection id="samples-title" title={t("console.showroom.samplesTitle")}>
          <div className="space-y-5">{SAMPLE_FIELDS.map(field)}</div>
        </DetailSection>
        <Button type="submit" pending={pending}>
          {t("console.showroom.save")}
        </Button>
      </Form>
      <DetailSection id="history-title" title={t("console.showroom.history")} className="mt-8">
        {history.length === 0 ? (
          <p className="text-sm text-muted">{t("console.showroom.historyEmpty")}</p>
        ) : (
          <ConsoleTable
            labelledBy="history-title"
            testId="showroom-history"
            minWidth="36rem"
            rows={history}
            rowKey={(h: Row) => String(h.id)}
            rowTestId="showroom-version"
            columns={[
              { key: "version", header: t("console.showroom.col.version"), cell: (h: Row) => `#${h.id}` },
              {
                key: "at",
                header: t("console.showroom.col.at"),
                cell: (h: Row) => formatTaipei(h.createdAt, locale, "dateTime"),
              },
              { key: "by", header: t("console.showroom.col.by"), cell: (h: Row) => h.createdByName ?? "—" },
              {
                key: "appointments",
                header: t("console.showroom.col.appointments"),
                className: "tabular-nums",
                cell: (h: Row) => APPOINTMENT_FIELDS.map((f) => h[f]).join(" / "),
              },
              {
                key: "samples",
                header: t("console.showroom.col.samples"),
                className: "tabular-nums",
                cell: (h: Row) => SAMPLE_FIELDS.map((f) => h[f]).join(" / "),
              },
            ]}
          />
        )}
      </DetailSection>
    </ConsolePage>
  );
}
