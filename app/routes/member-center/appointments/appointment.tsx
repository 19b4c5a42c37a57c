import { data } from "react-router";
import { z } from "zod";
import { appointmentPage, appointmentPageAction } from "~/adapters/appointment-page.server";
import { requireMember } from "~/adapters/current-member.server";
import { AppointmentDetail } from "~/components/appointments/appointment-detail";
import type { Owner } from "~/domain/appointments/appointments.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/appointment";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "appointments.detail.title");

const idParam = z.uuid();

function ownerOf(member: { id: string; phoneNumber: string }): Owner {
  return { memberId: member.id, phone: member.phoneNumber };
}

/**
 * One booking of the member (issue 37; the page itself is app/adapters/appointment-page.server.ts, shared with a
 * guest's link): another member's id, or no uuid, is a 404.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  return appointmentPage(context, request, {
    owner: ownerOf(member),
    id: id.data,
    self: links.memberAppointment(id.data),
    icsHref: links.memberAppointmentIcs(id.data),
    back: { href: links.memberAppointments(), label: "appointments.detail.back" },
  });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const id = idParam.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  return appointmentPageAction(context, request, {
    owner: ownerOf(member),
    id: id.data,
    self: links.memberAppointment(id.data),
  });
}

export default function AppointmentPage({ loaderData }: Route.ComponentProps) {
  return <AppointmentDetail loaderData={loaderData} />;
}
