import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { BackLink } from "~/components/appointments/back-link";
import { Page } from "~/components/layout/page";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { memberAppointments } from "~/domain/appointments/appointments.server";
import { whenText } from "~/domain/appointments/display";
import { cutoffText } from "~/domain/showroom/settings";
import { showroomSettings } from "~/domain/showroom/settings.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { type MessageKey, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "appointments.list.title");

/** 我的預約 (issue 37): every booking of the member — upcoming first, then the past ones, every status. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, app.config);
  const rows = await memberAppointments(app.db, member.id);
  const items = rows.map((r) => ({
    id: r.id,
    reference: r.reference,
    store: pick(r.storeName, locale),
    kind: r.kind,
    status: r.status,
    when: whenText(r.startsAt, r.endsAt, locale),
    upcoming: r.status === "booked" && r.endsAt.getTime() > now.getTime(),
    startsAt: r.startsAt.getTime(),
  }));
  const upcoming = items.filter((i) => i.upcoming).sort((a, b) => a.startsAt - b.startsAt);
  const past = items.filter((i) => !i.upcoming);
  // The cut-off in force (a showroom setting, ADR 050), in the page's words.
  const cutoff = cutoffText((await showroomSettings(app.db)).changeCutoffMinutes, serverT(request));
  return { messages: routeMessages(locale, "appointments."), upcoming, past, cutoff };
}

type Item = Awaited<ReturnType<typeof loader>>["upcoming"][number];

const STATUS_TONE: Record<string, string> = {
  booked: "bg-brand-100 text-brand-900",
  checked_in: "bg-sand text-ink",
  cancelled: "border border-line text-muted",
  no_show: "border border-danger-700 text-danger-700",
};

function AppointmentList({ items, t }: { items: Item[]; t: ReturnType<typeof useT> }) {
  return (
    <ul className="space-y-3">
      {items.map((a) => (
        <li key={a.id}>
          <Link
            to={links.memberAppointment(a.id)}
            className="block rounded-2xl border border-line bg-white px-4 py-3 hover:border-ink"
            data-testid="appointment-item"
          >
            <span className="flex items-center justify-between gap-3">
              <span className="font-semibold">
                {t(`appointments.kind.${a.kind}` as MessageKey)}・{a.store}
              </span>
              <span className={cn("shrink-0 rounded-full px-2.5 py-0.5 text-xs", STATUS_TONE[a.status])}>
                {t(`appointments.status.${a.status}` as MessageKey)}
              </span>
            </span>
            <span className="mt-1 block text-sm tabular-nums text-muted">{a.when}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function MyAppointmentsPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const { upcoming, past } = loaderData;
  return (
    <Page
      title={t("appointments.list.title")}
      lead={t("appointments.list.lead", { cutoff: loaderData.cutoff })}
      width="narrow"
    >
      <BackLink to={links["member-center"]()} label={t("appointments.backToCenter")} />
      <div className="space-y-8">
        <Link to={links.bookAppointment()} className={buttonVariants({ block: true })}>
          {t("appointments.list.book")}
        </Link>
        <section aria-labelledby="upcoming" className="space-y-3">
          <h2 id="upcoming" className="font-serif text-xl font-semibold">
            {t("appointments.list.upcoming")}
          </h2>
          {upcoming.length === 0 ? (
            <p className="text-muted">{t("appointments.list.noneUpcoming")}</p>
          ) : (
            <AppointmentList items={upcoming} t={t} />
          )}
        </section>
        {past.length > 0 ? (
          <section aria-labelledby="past" className="space-y-3">
            <h2 id="past" className="font-serif text-xl font-semibold">
              {t("appointments.list.past")}
            </h2>
            <AppointmentList items={past} t={t} />
          </section>
        ) : null}
      </div>
    </Page>
  );
}
