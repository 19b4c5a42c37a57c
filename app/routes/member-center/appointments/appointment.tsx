import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { appointmentFailure, rescheduleSchema } from "~/adapters/appointments.server";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { BackLink } from "~/components/appointments/back-link";
import { SlotPicker } from "~/components/appointments/slot-picker";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import {
  bookableStore,
  cancelAppointment,
  freeTimes,
  materialNames,
  type Owner,
  ownAppointment,
  rescheduleAppointment,
} from "~/domain/appointments/appointments.server";
import { googleCalendarLink } from "~/domain/appointments/calendar";
import { calendarEventOf } from "~/domain/appointments/calendar-event.server";
import { dayLabel, taipeiClock, whenText } from "~/domain/appointments/display";
import { APPOINTMENT_MESSAGES_QUEUE } from "~/domain/appointments/messages.server";
import { bookableDays, canChange, parseDay } from "~/domain/appointments/rules";
import { cutoffText } from "~/domain/showroom/settings";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { isoDate } from "~/domain/stores/hours";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/appointment";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "appointments.detail.title");

const idParam = z.uuid();

function ownerOf(member: { id: string; phoneNumber: string }): Owner {
  return { memberId: member.id, phone: member.phoneNumber };
}

/**
 * One booking of the member (issue 37): what, where and when (Taipei), the calendar file and Google's link, and —
 * until 2 h before — moving it to another free time (`?date=` picks the day) or cancelling it. Another member's id
 * is a 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const row = await ownAppointment(app.db, ownerOf(member), id.data);
  if (!row) throw data(null, { status: 404 });
  const url = new URL(request.url);
  const names = await materialNames(app.db, row.materialIds);
  const showroom = await showroomSettings(app.db);
  const changeable = row.status === "booked" && canChange(row.startsAt, now, showroom.changeCutoffMinutes);
  let reschedule = null;
  if (changeable) {
    const settings = await bookableStore(app.db, row.storeId);
    const kind = settings?.kinds.find((k) => k.kind === row.kind);
    if (kind) {
      const days = bookableDays(now, kind, showroom.bookingHorizonDays).map((d) => isoDate(d));
      const asked = url.searchParams.get("date");
      const date = asked && days.includes(asked) ? asked : row.localDate;
      const day = parseDay(date);
      const times = day ? await freeTimes(app.db, row.storeId, row.kind, day, now) : [];
      reschedule = {
        date,
        days: days.map((iso) => ({ iso, ...dayLabel(iso, locale), href: `?date=${iso}#reschedule` })),
        times: times.map((f) => ({ time: f.time, left: f.left })),
      };
    }
  }
  const event = calendarEventOf(row, locale, t, app.config.publicBaseUrl, now);
  return {
    messages: routeMessages(locale, "appointments.", "catalog.city."),
    booked: url.searchParams.get("booked") === "1",
    appointment: {
      id: row.id,
      reference: row.reference,
      version: row.version,
      kind: row.kind,
      status: row.status,
      store: pick(row.storeName, locale),
      storeId: row.storeId,
      storeAddress: `${pick(row.storeDistrict, locale)} ${pick(row.storeAddress, locale)}`,
      storePhone: row.storePhone,
      when: whenText(row.startsAt, row.endsAt, locale),
      time: taipeiClock(row.startsAt),
      materials: row.materialIds.map((m) => pick(names.get(m), locale) || m),
      note: row.note,
      address: row.address,
    },
    changeable,
    cutoff: cutoffText(showroom.changeCutoffMinutes, t),
    reminderHour: showroom.reminderHour,
    reschedule,
    icsHref: links.memberAppointmentIcs(row.id),
    googleHref: googleCalendarLink(event),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const form = await readForm(request);
  const intent = form.get("intent");
  try {
    if (intent === "cancel") {
      await cancelAppointment(app.db, ownerOf(member), id.data, now);
      return redirectWithToast(toastSettings(context), links.memberAppointment(id.data), {
        type: "success",
        message: "notice.appointmentCancelled",
      });
    }
    if (intent === "reschedule") {
      const parsed = parseForm(rescheduleSchema(t), form);
      if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("appointments.error.fix") });
      await rescheduleAppointment(app.db, ownerOf(member), id.data, parsed.data, now);
      await app.jobs
        .send(APPOINTMENT_MESSAGES_QUEUE, {})
        .catch((error) => app.logger.warn({ err: error }, "appointment confirmation not queued"));
      return redirectWithToast(toastSettings(context), links.memberAppointment(id.data), {
        type: "success",
        message: "notice.appointmentRescheduled",
      });
    }
  } catch (error) {
    const failure = appointmentFailure(error, form, t);
    if (failure.init?.status === 404) throw data(null, { status: 404 });
    return failure;
  }
  throw data(null, { status: 400 });
}

export default function AppointmentPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const { appointment: a, reschedule } = loaderData;
  const rows: [MessageKey, string][] = [
    ["appointments.detail.reference", a.reference],
    ["appointments.detail.kind", t(`appointments.kind.${a.kind}` as MessageKey)],
    ["appointments.detail.store", `${a.store}（${a.storeAddress}）`],
    ["appointments.detail.when", a.when],
  ];
  if (a.materials.length) rows.push(["appointments.detail.materials", a.materials.join("、")]);
  if (a.note) rows.push(["appointments.detail.note", a.note]);
  if (a.address) {
    rows.push([
      "appointments.detail.address",
      `${t(`catalog.city.${a.address.city}` as MessageKey)} ${a.address.district} ${a.address.street}`,
    ]);
  }
  return (
    <Page
      title={loaderData.booked ? t("appointments.confirmed.title") : t("appointments.detail.title")}
      lead={loaderData.booked ? t("appointments.confirmed.lead", { hour: loaderData.reminderHour }) : undefined}
      width="narrow"
    >
      <BackLink to={links.memberAppointments()} label={t("appointments.detail.back")} />
      <div className="space-y-8">
        <section className="rounded-3xl border border-line bg-white p-5" aria-label={t("appointments.detail.title")}>
          <p className="mb-3">
            <span className="rounded-full bg-sand px-3 py-1 text-sm" data-testid="appointment-status">
              {t(`appointments.status.${a.status}` as MessageKey)}
            </span>
          </p>
          <dl className="space-y-3">
            {rows.map(([label, value]) => (
              <div key={label}>
                <dt className="text-sm text-muted">{t(label)}</dt>
                <dd
                  className="font-medium"
                  data-testid={label === "appointments.detail.when" ? "appointment-when" : undefined}
                >
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          {a.status === "booked" ? (
            <div className="mt-5 flex flex-wrap gap-2">
              <a href={loaderData.icsHref} download className={buttonVariants({ variant: "secondary", size: "sm" })}>
                {t("appointments.detail.ics")}
              </a>
              <a
                href={loaderData.googleHref}
                target="_blank"
                rel="noopener noreferrer"
                className={buttonVariants({ variant: "secondary", size: "sm" })}
              >
                {t("appointments.detail.google")}
              </a>
            </div>
          ) : null}
        </section>

        {a.status === "booked" && !loaderData.changeable ? (
          <Alert>{t("appointments.detail.cutoff", { cutoff: loaderData.cutoff })}</Alert>
        ) : null}

        {reschedule ? (
          <section id="reschedule" aria-labelledby="reschedule-title" className="space-y-4">
            <h2 id="reschedule-title" className="font-serif text-xl font-semibold">
              {t("appointments.detail.reschedule")}
            </h2>
            <p className="text-muted">{t("appointments.detail.rescheduleLead")}</p>
            {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
            <Form method="post" className="space-y-5" noValidate preventScrollReset>
              <input type="hidden" name="intent" value="reschedule" />
              <input type="hidden" name="version" value={a.version} />
              <SlotPicker
                t={t}
                days={reschedule.days}
                date={reschedule.date}
                times={reschedule.times}
                selectedTime={form.value("time")}
                dateErrors={form.errors("date")}
                timeErrors={form.errors("time")}
              />
              <Button
                type="submit"
                block
                pending={pendingIntent === "reschedule"}
                disabled={reschedule.times.length === 0}
              >
                {t("appointments.detail.rescheduleSubmit")}
              </Button>
            </Form>
          </section>
        ) : null}

        {loaderData.changeable ? (
          <Form
            method="post"
            preventScrollReset
            onSubmit={(event) => {
              if (!window.confirm(t("appointments.detail.cancelConfirm"))) event.preventDefault();
            }}
          >
            <input type="hidden" name="intent" value="cancel" />
            <Button type="submit" variant="secondary" block pending={pendingIntent === "cancel"}>
              {t("appointments.detail.cancel")}
            </Button>
          </Form>
        ) : null}
      </div>
    </Page>
  );
}
