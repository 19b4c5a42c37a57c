import { data, redirect } from "react-router";
import { appointmentPage, appointmentPageAction } from "~/adapters/appointment-page.server";
import { getApp } from "~/adapters/context.server";
import { AppointmentDetail } from "~/components/appointments/appointment-detail";
import { guestLinkOwner } from "~/domain/appointments/appointments.server";
import { appointmentIdOfToken } from "~/domain/appointments/manage-link.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/manage";

/**
 * A guest's booking by their link (ADR 044, "Later (2026-12-07, a guest's own page)"): the page that answers a guest's
 * booking and the link in its confirmation and reminder texts. The signed token is the only credential; a token
 * that does not check, or a booking that was never a guest's, is a 404 (nothing says whether such a booking
 * exists). Once signing up attached the booking to a member, the link leads to their member center (after login).
 * The same page and changes as a member's (app/adapters/appointment-page.server.ts), with the calendar file inline.
 */
export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "appointments.detail.title"),
  { name: "robots", content: "noindex" },
];

export function headers() {
  // The token is in the address: no referrer to other sites, never cached.
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

async function guestOf(context: Route.LoaderArgs["context"], token: string | undefined) {
  const app = getApp(context);
  const id = appointmentIdOfToken(app.config.secrets.session, token);
  const owner = id ? await guestLinkOwner(app.db, id) : null;
  if (!id || !owner) throw data(null, { status: 404 });
  if ("memberId" in owner) throw redirect(links.memberAppointment(id));
  return { id, owner: owner.guest, self: links.guestAppointment(token as string) };
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { id, owner, self } = await guestOf(context, params.token);
  return appointmentPage(context, request, {
    owner,
    id,
    self,
    icsHref: null,
    back: { href: links.bookAppointment(), label: "appointments.manage.back" },
  });
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { id, owner, self } = await guestOf(context, params.token);
  return appointmentPageAction(context, request, { owner, id, self });
}

export default function GuestAppointment({ loaderData }: Route.ComponentProps) {
  return <AppointmentDetail loaderData={loaderData} />;
}
