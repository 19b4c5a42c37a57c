import { APPOINTMENT_KINDS, type AppointmentKind } from "@platform/db/schema/appointments";
import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { isSlotTime } from "~/domain/appointments/rules";
import { saveAppointmentKind, storeAppointmentSettings } from "~/domain/appointments/settings.server";
import { isRefusal } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/appointments";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.appointments.title");

const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

function settingsSchema(t: ReturnType<typeof serverT>) {
  const slots = z
    .string()
    .max(400)
    .transform((v) =>
      v
        .split(/[,，、\s]+/)
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length <= 48 && list.every(isSlotTime), t("appointments.error.bad_slots"))
    .transform((list) => [...new Set(list)].sort());
  return z.object({
    kind: z.enum(APPOINTMENT_KINDS),
    version: z.coerce.number().int().min(0),
    enabled: z.literal("on").optional(),
    durationMinutes: z.coerce
      .number({ message: t("console.appointments.durationInvalid") })
      .int(t("console.appointments.durationInvalid"))
      .min(15, t("console.appointments.durationInvalid"))
      .max(480, t("console.appointments.durationInvalid")),
    capacity: z.coerce
      .number({ message: t("console.appointments.capacityInvalid") })
      .int(t("console.appointments.capacityInvalid"))
      .min(1, t("console.appointments.capacityInvalid"))
      .max(50, t("console.appointments.capacityInvalid")),
    ...Object.fromEntries(WEEKDAYS.map((d) => [`slots${d}`, slots.optional().default("" as never)])),
  });
}

function editing({ params, context }: Route.LoaderArgs | Route.ActionArgs, request: Request) {
  const id = parseParam(slugId, params.storeId, request);
  const app = getApp(context);
  const actor = requirePermission(context, "store.edit", { storeId: id });
  return { id, app, actor, now: requestNow(request, app.config) };
}

/** A store's appointment settings (issue 37): one form per kind, each saved with its version and audited. */
export async function loader(args: Route.LoaderArgs) {
  const { id, app, actor } = editing(args, args.request);
  const settings = await storeAppointmentSettings(app.db, actor, id).catch((error) => {
    if (isRefusal(error, "appointments")) notFound(args.request);
    throw error;
  });
  return { ...settings, saved: new URL(args.request.url).searchParams.get("saved") };
}

export async function action(args: Route.ActionArgs) {
  const { id, app, actor, now } = editing(args, args.request);
  const { request, context } = args;
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(settingsSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("appointments.error.fix") });
  const input = parsed.data as z.infer<ReturnType<typeof settingsSchema>> & Record<string, string[]>;
  try {
    await saveAppointmentKind(
      app.db,
      actor,
      id,
      {
        kind: input.kind,
        enabled: input.enabled === "on",
        durationMinutes: input.durationMinutes,
        capacity: input.capacity,
        weeklySlots: WEEKDAYS.map((d) => input[`slots${d}`] ?? []),
      },
      input.version,
      consoleAudit(context, request),
      now,
    );
  } catch (error) {
    return consoleFailure(error, form, t);
  }
  return redirect(`/admin/stores/${id}/appointments?saved=${input.kind}`);
}

export default function StoreAppointments({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const submittedKind = form.value("kind") as AppointmentKind | "";
  const storeName = pick(loaderData.store.name, locale);
  return (
    <ConsolePage
      width="3xl"
      back={{ to: `/admin/stores/${loaderData.store.id}`, label: t("console.appointments.back") }}
      title={`${t("console.appointments.title")}・${storeName}`}
      lead={t("console.appointments.lead", { store: storeName })}
      notices={
        <PageNotices
          done={loaderData.saved && !form.state ? t("console.appointments.saved") : null}
          error={form.formError}
        />
      }
    >
      {loaderData.kinds.map((k) => {
        const mine = submittedKind === k.kind;
        const value = (name: string, fallback: string) => (mine ? form.value(name, fallback) : fallback);
        const errors = (name: string) => (mine ? form.errors(name) : null);
        return (
          <DetailSection
            key={k.kind}
            id={`kind-${k.kind}`}
            className="mt-6"
            title={t(`console.appointments.kind.${k.kind}` as MessageKey)}
          >
            {/* Keyed by the version: after a save the fields show what was stored (times sorted, duplicates gone). */}
            <Form
              key={`${k.kind}-${k.version}`}
              method="post"
              className="space-y-4"
              data-testid={`appointment-kind-${k.kind}`}
            >
              <input type="hidden" name="kind" value={k.kind} />
              <input type="hidden" name="version" value={value("version", String(k.version))} />
              <CheckboxField
                name="enabled"
                label={t("console.appointments.enabled")}
                defaultChecked={mine && form.state?.values ? form.checked("enabled") : k.enabled}
              />
              <div className="grid gap-4 sm:grid-cols-2">
                <Field
                  label={t("console.appointments.duration")}
                  errors={errors("durationMinutes")}
                  inputProps={{
                    name: "durationMinutes",
                    inputMode: "numeric",
                    defaultValue: value("durationMinutes", String(k.durationMinutes)),
                    className: "tabular-nums",
                  }}
                />
                <Field
                  label={t("console.appointments.capacity")}
                  errors={errors("capacity")}
                  inputProps={{
                    name: "capacity",
                    inputMode: "numeric",
                    defaultValue: value("capacity", String(k.capacity)),
                    className: "tabular-nums",
                  }}
                />
              </div>
              <fieldset className="space-y-3">
                <legend className="text-sm font-medium">{t("console.appointments.slots")}</legend>
                <p className="text-sm text-muted">{t("console.appointments.slotsHint")}</p>
                {WEEKDAYS.map((d) => (
                  <Field
                    key={d}
                    label={t(`console.stores.weekday.${d}` as MessageKey)}
                    errors={errors(`slots${d}`)}
                    inputProps={{
                      name: `slots${d}`,
                      defaultValue: value(`slots${d}`, (k.weeklySlots[d] ?? []).join(", ")),
                      autoComplete: "off",
                      className: "tabular-nums",
                    }}
                  />
                ))}
              </fieldset>
              <Button
                type="submit"
                pending={navigation.state === "submitting" && navigation.formData?.get("kind") === k.kind}
              >
                {t("console.appointments.save")}
              </Button>
            </Form>
          </DetailSection>
        );
      })}
    </ConsolePage>
  );
}
