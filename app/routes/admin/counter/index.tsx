import { data, redirect } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { counterActor, counterFailure } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { TodayAppointments } from "~/components/console/counter/appointments";
import { DayList } from "~/components/console/counter/day-list";
import { MemberFinder, TaskLinks } from "~/components/console/counter/start";
import { useConsoleT } from "~/components/console/use-console-t";
import { CheckedInNotice } from "~/components/console/visits/checked-in";
import { Alert } from "~/components/ui/alert";
import { checkedInHref, checkedInNotice } from "~/domain/appointments/notice";
import { appointmentsToday, checkIn, checkInScanned } from "~/domain/appointments/visits.server";
import { counterDay, storeName } from "~/domain/counter/counter.server";
import { lookupSchema } from "~/domain/counter/forms.server";
import { signScanPass, withScan } from "~/domain/counter/scan-pass.server";
import { findMemberAtCounter } from "~/domain/loyalty/member-lookup.server";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

const appointmentIdSchema = z.string().uuid();

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.title");

/** The counter's start: find the member (camera or typed), the other tasks, and this store's day. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const [day, name] = storeId ? await Promise.all([counterDay(app.db, storeId, now), storeName(app.db, storeId)]) : [];
  // Today's appointments of this store (issue 37, ADR 045).
  const appointments =
    storeId && hasPermission(actor, "counter.appointments", { storeId })
      ? await appointmentsToday(app.db, storeId, now)
      : null;
  const checkedIn = checkedInNotice(new URL(request.url).searchParams);
  return {
    appointments,
    checkedIn,
    store: storeId ? { id: storeId, name: pick(name ?? null, getLocale(request)) || storeId } : null,
    today: now.toISOString(),
    day: day ?? null,
    can: {
      refund: hasPermission(actor, "counter.refund", { storeId }),
      coupon: hasPermission(actor, "counter.coupon", { storeId }),
      checkIn: storeId !== null && hasPermission(actor, "counter.appointments", { storeId }),
    },
  };
}

/**
 * Looks the member up (card token, phone in any spelling sign-up accepts, or member number) and opens the summary;
 * a card checks in the member's one booking of today here (issue 37). `intent=checkin`: one appointment's button.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { actor, storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  if (form.get("intent") === "checkin") {
    const { actor: clerk, storeId: here } = counterActor(context, "counter.appointments");
    if (!here) return data({ errors: {}, formError: t("console.counter.store.none") }, { status: 409 });
    const id = appointmentIdSchema.safeParse(form.get("appointmentId"));
    if (!id.success) throw data(null, { status: 400, statusText: "Bad Request" });
    try {
      const now = requestNow(request, app.config);
      const done = await checkIn(app.db, clerk, here, id.data, consoleAudit(context, request), now);
      return redirect(checkedInHref("/admin/counter", done));
    } catch (error) {
      return consoleFailure(error, null, t);
    }
  }
  const values = {
    query: String(form.get("query") ?? "")
      .trim()
      .slice(0, 60),
  };
  if (!storeId) return data({ errors: {}, values, formError: t("console.counter.store.none") }, { status: 409 });
  const parsed = parseForm(lookupSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  try {
    const now = requestNow(request, app.config);
    const audit = consoleAudit(context, request);
    const found = await findMemberAtCounter(app.db, parsed.data.query, {
      cardSecret: app.config.secrets.session,
      now,
      audit,
    });
    const page = `/admin/counter/member/${found.id}`;
    // The member's card (scanned, or its code typed or sent by a scanner) checks in their one booking of today,
    // and its scan pass lets points be spent without the member's code (ADR 052) and samples be lent (ADR 051);
    // a typed phone gets none.
    if ("cardToken" in parsed.data.query) {
      const subject = { memberId: found.id, storeId, userId: actor.userId };
      const pass = signScanPass(app.config.secrets.session, subject, now);
      const done = await checkInScanned(app.db, actor, storeId, found.id, audit, now);
      return redirect(withScan(done ? checkedInHref(page, done) : page, pass));
    }
    return redirect(page);
  } catch (error) {
    // A scanned card's refusal goes above the form, a typed one's beside the field.
    return counterFailure(error, { t }, { values, field: parsed.data.scanned ? undefined : "query" });
  }
}

export default function Counter({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const { store, day, can, appointments, checkedIn } = loaderData;
  return (
    <ConsolePage pace="counter" width="5xl" title={t("console.counter.title")} lead={t("console.counter.lead")}>
      {checkedIn ? <CheckedInNotice {...checkedIn} /> : null}
      {store ? null : (
        <Alert tone="info" className="mt-6">
          {t("console.counter.store.none")}
        </Alert>
      )}
      <div className="mt-6 grid gap-5 md:grid-cols-[3fr_2fr]">
        <MemberFinder />
        <TaskLinks can={can} />
      </div>
      {appointments ? <TodayAppointments rows={appointments} canCheckIn={can.checkIn} /> : null}
      {store && day ? <DayList store={store.name} today={loaderData.today} day={day} /> : null}
    </ConsolePage>
  );
}
