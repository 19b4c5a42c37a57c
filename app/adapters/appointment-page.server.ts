import { data, type RouterContextProvider } from "react-router";
import { appointmentFailure, rescheduleSchema } from "~/adapters/appointments.server";
import { getApp, toastSettings } from "~/adapters/context.server";
import type { AppointmentPageView } from "~/components/appointments/appointment-detail";
import {
  bookableStore,
  cancelAppointment,
  freeTimes,
  materialNames,
  type Owner,
  ownAppointment,
  rescheduleAppointment,
} from "~/domain/appointments/appointments.server";
import { googleCalendarLink, icsFile } from "~/domain/appointments/calendar";
import { calendarEventOf } from "~/domain/appointments/calendar-event.server";
import { dayLabel, taipeiClock, whenText } from "~/domain/appointments/display";
import { APPOINTMENT_MESSAGES_QUEUE } from "~/domain/appointments/messages.server";
import { bookableDays, canChange, parseDay } from "~/domain/appointments/rules";
import { cutoffText } from "~/domain/showroom/settings";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { isoDate } from "~/domain/stores/hours";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { redirectWithToast } from "~/lib/toast.server";

/**
 * One booking's page, for its owner: a member in the member center (their session) or a guest by their link
 * (manage-link.server.ts). What, where and when (Taipei), the calendar file and Google's link, and — until the
 * cut-off — moving it to another free time (`?date=` picks the day) or cancelling it. Both routes call these two
 * functions with the owner they resolved, so a member and a guest see and may do the same things.
 */
export type AppointmentPageTarget = {
  owner: Owner;
  id: string;
  /** The page's own address (where a change lands, with its notice). */
  self: string;
  /** The calendar file: the member center's .ics address, or null for a `data:` link (a guest). */
  icsHref: string | null;
  back: { href: string; label: "appointments.detail.back" | "appointments.manage.back" };
};

export async function appointmentPage(
  context: Readonly<RouterContextProvider>,
  request: Request,
  target: AppointmentPageTarget,
): Promise<AppointmentPageView> {
  const app = getApp(context);
  const locale = getLocale(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const row = await ownAppointment(app.db, target.owner, target.id);
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
    icsHref: target.icsHref ?? `data:text/calendar;charset=utf-8,${encodeURIComponent(icsFile(event))}`,
    icsName: `hanliving-${row.reference}.ics`,
    googleHref: googleCalendarLink(event),
    back: target.back,
    /** A guest's page: reached by its link only, so the page says to keep it. */
    guest: target.owner.memberId === null,
  };
}

/** The page's two changes: `intent=cancel` or `intent=reschedule` (date and time), for the owner only. */
export async function appointmentPageAction(
  context: Readonly<RouterContextProvider>,
  request: Request,
  target: Pick<AppointmentPageTarget, "owner" | "id" | "self">,
) {
  const app = getApp(context);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const form = await readForm(request);
  const intent = form.get("intent");
  try {
    if (intent === "cancel") {
      await cancelAppointment(app.db, target.owner, target.id, now);
      return redirectWithToast(toastSettings(context), target.self, {
        type: "success",
        message: "notice.appointmentCancelled",
      });
    }
    if (intent === "reschedule") {
      const parsed = parseForm(rescheduleSchema(t), form);
      if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("appointments.error.fix") });
      await rescheduleAppointment(app.db, target.owner, target.id, parsed.data, now);
      await app.jobs
        .send(APPOINTMENT_MESSAGES_QUEUE, {})
        .catch((error) => app.logger.warn({ err: error }, "appointment confirmation not queued"));
      return redirectWithToast(toastSettings(context), target.self, {
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
