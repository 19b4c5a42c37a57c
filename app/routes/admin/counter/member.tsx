import { data, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consultantAction, isConsultantForm } from "~/adapters/clerk.server";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { counterActor } from "~/adapters/counter.server";
import { ConsultantForm } from "~/components/console/clerk/consultant-form";
import { ConsolePage } from "~/components/console/console-page";
import { TodayAppointments } from "~/components/console/counter/appointments";
import { EinvoicePanel } from "~/components/console/counter/einvoice";
import { MemberCoupons, MemberFigures, MemberVisits, PhoneLine } from "~/components/console/counter/member";
import { TierBadge } from "~/components/console/counter/ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { CheckedInNotice } from "~/components/console/visits/checked-in";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { checkedInHref, checkedInNotice } from "~/domain/appointments/notice";
import { checkIn, memberAppointmentsToday } from "~/domain/appointments/visits.server";
import { counterSummary, revealPhone } from "~/domain/counter/counter.server";
import { revealSchema } from "~/domain/counter/forms.server";
import { withScan } from "~/domain/counter/scan-link";
import { verifyScanPass } from "~/domain/counter/scan-pass.server";
import { readEinvoiceAtCounter } from "~/domain/einvoice/einvoice.server";
import { LoyaltyError } from "~/domain/loyalty/errors";
import { consultantChoices, consultantOf } from "~/domain/staff/clerk.server";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { parseForm, readForm } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/member";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.member.title");

/** The member at the counter: name, tier, points, coupons, last visits; the phone masked. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { actor, storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const summary = await counterSummary(app.db, params.memberId, storeId, now);
  if (!summary) notFound(request);
  const locale = getLocale(request);
  // The member's appointments of today here (issue 37, ADR 045).
  const appointments =
    storeId && hasPermission(actor, "counter.appointments", { storeId })
      ? await memberAppointmentsToday(app.db, storeId, summary.member.id, requestNow(request, app.config))
      : null;
  // The clerk on the sale (ADR 042): the member's consultant and whom this clerk may bind them to.
  const [consultant, consultantChoicesHere] = await Promise.all([
    consultantOf(app.db, summary.member.consultantUserId),
    hasPermission(actor, "member.consultant", { storeId }) ? consultantChoices(app.db, actor, storeId) : [],
  ]);
  // The card's scan pass (ADR 052): it goes on to the purchase form (a spend of points then needs no code) and
  // offers the walk-in sample loan (ADR 051); a typed phone or number has none.
  const scan = new URL(request.url).searchParams.get("scan");
  const scanned =
    storeId !== null &&
    verifyScanPass(
      app.config.secrets.session,
      scan,
      { memberId: summary.member.id, storeId, userId: actor.userId },
      now,
    );
  const canLend = scanned && storeId !== null && hasPermission(actor, "samples.manage", { storeId });
  return {
    appointments,
    scan: scanned ? scan : null,
    lend:
      canLend && !summary.member.disabled ? withScan(`/admin/counter/member/${summary.member.id}/samples`, scan) : null,
    checkedIn: checkedInNotice(new URL(request.url).searchParams),
    consultant: { current: consultant, choices: consultantChoicesHere, me: actor.userId },
    summary: {
      ...summary,
      visits: summary.visits.map((v) => ({ ...v, storeName: pick(v.storeName, locale) || v.storeId })),
    },
    can: {
      reveal: hasPermission(actor, "member.reveal", { storeId }),
      purchase: storeId !== null && hasPermission(actor, "counter.purchase", { storeId }),
      coupon: storeId !== null && hasPermission(actor, "counter.coupon", { storeId }),
      adjust: hasPermission(actor, "points.adjust", { storeId }),
      einvoice: hasPermission(actor, "counter.einvoice", { storeId }),
      consultant: storeId !== null && hasPermission(actor, "member.consultant", { storeId }),
    },
  };
}

/** Reveals the full phone number: the permission is checked and the view written to the audit log. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const form = await readForm(request);
  // A check-in of one of the member's appointments of today here (issue 37, ADR 045).
  if (form.get("intent") === "checkin") {
    const { actor, storeId } = counterActor(context, "counter.appointments");
    const app = getApp(context);
    const id = z.string().uuid().safeParse(form.get("appointmentId"));
    if (!storeId || !id.success) throw data(null, { status: 400, statusText: "Bad Request" });
    try {
      const now = requestNow(request, app.config);
      const done = await checkIn(app.db, actor, storeId, id.data, consoleAudit(context, request), now);
      const page = checkedInHref(`/admin/counter/member/${encodeURIComponent(params.memberId)}`, done);
      return redirect(
        withScan(page, z.string().max(80).safeParse(new URL(request.url).searchParams.get("scan")).data ?? null),
      );
    } catch (error) {
      return consoleFailure(error, null, serverT(request));
    }
  }
  // The e-invoice carrier and 統編 (ADR 041): their own permission, audited in the read's transaction.
  if (form.get("intent") === "einvoice") {
    const { actor } = counterActor(context, "counter.einvoice");
    const app = getApp(context);
    try {
      const audit = consoleAudit(context, request);
      return {
        einvoice: await readEinvoiceAtCounter(app.db, actor, params.memberId, audit, requestNow(request, app.config)),
      };
    } catch (error) {
      if (error instanceof LoyaltyError) notFound(request);
      throw error;
    }
  }
  // The consultant form (ADR 042), at the store being worked at.
  if (isConsultantForm(form)) {
    counterActor(context, "member.consultant");
    return consultantAction(context, request, params.memberId, form);
  }
  counterActor(context, "member.reveal");
  if (!parseForm(revealSchema, form).ok) {
    throw data(null, { status: 400, statusText: "Bad Request" });
  }
  const app = getApp(context);
  try {
    const audit = consoleAudit(context, request);
    return { phone: await revealPhone(app.db, params.memberId, audit, requestNow(request, app.config)) };
  } catch {
    notFound(request);
  }
}

export default function CounterMember({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const pending = useNavigation().state === "submitting";
  const { summary, can } = loaderData;
  const { member } = summary;
  const linkButton = (to: string, label: string, variant: "primary" | "secondary") => (
    <Link to={to} className={buttonVariants({ variant, size: "lg" })}>
      {label}
    </Link>
  );
  return (
    <ConsolePage
      pace="counter"
      width="5xl"
      back={{ to: "/admin/counter", label: t("console.counter.back") }}
      title={<span data-testid="member-name">{member.name}</span>}
      lead={
        <span className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <TierBadge tier={summary.tier} />
          <span>
            {t("console.counter.member.number")}{" "}
            <span className="font-mono text-ink" data-testid="member-number">
              {member.memberNumber}
            </span>
          </span>
        </span>
      }
    >
      {loaderData.checkedIn ? <CheckedInNotice {...loaderData.checkedIn} /> : null}
      {actionData && "formError" in actionData && actionData.formError ? (
        <Alert tone="error" className="mt-5">
          {actionData.formError}
        </Alert>
      ) : null}
      {loaderData.appointments?.length ? (
        <TodayAppointments
          rows={loaderData.appointments}
          canCheckIn
          title={t("console.visits.today.member")}
          testId="member-appointments"
        />
      ) : null}
      {member.disabled ? (
        <Alert tone="error" className="mt-5">
          {t("console.counter.member.disabled")}
        </Alert>
      ) : null}
      <div className="mt-6 grid gap-5 md:grid-cols-[3fr_2fr]">
        <div className="space-y-5">
          <MemberFigures summary={summary} />
          <PhoneLine
            masked={member.maskedPhone}
            revealed={actionData && "phone" in actionData ? (actionData.phone ?? null) : null}
            canReveal={can.reveal}
            pending={pending}
          />
          <div className="flex flex-wrap gap-3">
            {can.purchase && !member.disabled
              ? linkButton(
                  withScan(`/admin/counter/member/${member.id}/purchase`, loaderData.scan),
                  t("console.counter.member.purchase"),
                  "primary",
                )
              : null}
            {loaderData.lend ? linkButton(loaderData.lend, t("console.counter.member.lend"), "secondary") : null}
            {can.adjust
              ? linkButton(`/admin/members/${member.id}/adjust`, t("console.counter.member.adjust"), "secondary")
              : null}
          </div>
          {can.einvoice && !member.disabled ? (
            <EinvoicePanel
              shown={actionData && "einvoice" in actionData ? (actionData.einvoice ?? null) : null}
              pending={pending}
            />
          ) : null}
          <ConsultantForm
            current={loaderData.consultant.current}
            choices={loaderData.consultant.choices}
            me={loaderData.consultant.me}
            canBind={can.consultant}
            result={actionData && "consultant" in actionData ? actionData.consultant : null}
          />
          <MemberVisits visits={summary.visits} />
        </div>
        <MemberCoupons coupons={summary.coupons} canUse={can.coupon && !member.disabled} />
      </div>
    </ConsolePage>
  );
}
