import { data } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { ownAppointment } from "~/domain/appointments/appointments.server";
import { icsFile } from "~/domain/appointments/calendar";
import { calendarEventOf } from "~/domain/appointments/calendar-event.server";
import { requestNow } from "~/lib/clock.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import type { Route } from "./+types/calendar";

/** The booking's calendar file (RFC 5545, one VEVENT in UTC), for its member only. */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const id = z.uuid().safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const row = await ownAppointment(app.db, { memberId: member.id, phone: member.phoneNumber }, id.data);
  if (!row) throw data(null, { status: 404 });
  const event = calendarEventOf(
    row,
    getLocale(request),
    serverT(request),
    app.config.publicBaseUrl,
    requestNow(request, app.config),
  );
  return new Response(icsFile(event), {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="hanliving-${row.reference}.ics"`,
      "Cache-Control": "private, no-store",
    },
  });
}
