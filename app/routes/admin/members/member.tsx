import { data, redirect } from "react-router";
import { z } from "zod";
import { consultantAction, isConsultantForm } from "~/adapters/clerk.server";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { authDeps, getApp } from "~/adapters/context.server";
import { ConsultantForm } from "~/components/console/clerk/consultant-form";
import { ConsolePage } from "~/components/console/console-page";
import { MemberCoupons } from "~/components/console/members/member-coupons";
import { MemberHistory } from "~/components/console/members/member-history";
import { MemberNotes } from "~/components/console/members/member-notes";
import { MemberPoints } from "~/components/console/members/member-points";
import { MemberProfile } from "~/components/console/members/member-profile";
import { MemberReferrals } from "~/components/console/referrals/member-referrals";
import { useConsoleT } from "~/components/console/use-console-t";
import { MemberAppointments } from "~/components/console/visits/member-appointments";
import { Alert } from "~/components/ui/alert";
import { memberAppointments } from "~/domain/appointments/visits.server";
import {
  addMemberNote,
  cancelMemberCoupon,
  consoleMemberDetail,
  endMemberSessions,
  memberActionSchema,
  memberDetailView,
  memberPageData,
  resendMemberEmailVerification,
  setMemberDisabled,
} from "~/domain/members/console.server";
import { memberReferralView } from "~/domain/referrals/referrals.server";
import { overdueSamplesOf } from "~/domain/samples/samples.server";
import { consultantChoices, consultantOfMember } from "~/domain/staff/clerk.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission, storesFor } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm, tooManyRequestsText } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatIsoDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/member";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.members.detailTitle");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = requirePermission(context, "member.view");
  const app = getApp(context);
  const { searchParams } = new URL(request.url);
  const now = requestNow(request, app.config);
  const canBind = hasPermission(actor, "member.consultant");
  // The path's id before any query: a member id is a UUID, anything else is no member (never a database error).
  if (!z.uuid().safeParse(params.memberId).success) throw data(null, { status: 404 });
  // The clerk on the sale (ADR 042): the member's consultant, and whom this staff member may bind them to.
  const [page, current, choices, overdue, appointments, referrals] = await Promise.all([
    memberPageData(app.db, actor, params.memberId, searchParams, getLocale(request), now),
    consultantOfMember(app.db, params.memberId),
    canBind ? consultantChoices(app.db, actor, null) : [],
    // Samples out past their due day (issue 37 part 3, ADR 046).
    overdueSamplesOf(app.db, params.memberId, now, storesFor(actor, "samples.manage")),
    // Showroom appointments (issue 37): kept, no-show, cancelled.
    memberAppointments(app.db, actor, params.memberId),
    // Referrals (issue 38, ADR 053).
    memberReferralView(app.db, params.memberId),
  ]);
  if (!page) throw data(null, { status: 404 });
  const locale = getLocale(request);
  return {
    ...page,
    appointments,
    referrals,
    consultant: { current, choices, me: actor.userId, canBind },
    overdueSamples: overdue.map((o) => ({
      id: o.id,
      material: pick(o.materialName, locale),
      store: pick(o.storeName, locale),
      dueBackOn: o.dueBackOn ?? "",
    })),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "member.view");
  const form = await readForm(request);
  if (isConsultantForm(form)) return consultantAction(context, request, params.memberId, form);
  const t = serverT(request);
  const parsed = parseForm(memberActionSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.staff.error.intent") });
  const input = parsed.data;
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const { memberId } = params;
  const page = `/admin/members/${encodeURIComponent(memberId)}`;
  try {
    switch (input.intent) {
      case "reveal": {
        const detail = await consoleMemberDetail(app.db, actor, memberId, { reveal: true, audit, now });
        if (!detail) throw data(null, { status: 404 });
        return { revealed: memberDetailView(detail) };
      }
      case "disable":
      case "enable":
        await setMemberDisabled(
          app.db,
          actor,
          memberId,
          { disabled: input.intent === "disable", reason: input.reason, confirmed: input.confirmed === "1" },
          audit,
          now,
        );
        break;
      case "resend-verification": {
        const sent = await resendMemberEmailVerification(authDeps(context), actor, memberId, audit, now);
        if (!sent.ok) {
          const wait = tooManyRequestsText(sent.retryAfterSeconds, t);
          return formFailure({ errors: {}, values: formValues(form), formError: wait }, 429);
        }
        break;
      }
      case "end-sessions":
        await endMemberSessions(app.db, actor, memberId, audit, now);
        break;
      case "cancel-coupon": {
        const coupon = encodeURIComponent(input.couponId);
        // Not confirmed (an old page's button, a hand-made post): ask first.
        if (input.confirmed !== "1") return redirect(`${page}?cancel=${coupon}`);
        await cancelMemberCoupon(app.db, actor, memberId, input.couponId, audit, now);
        return redirect(`${page}?done=cancel-coupon&coupon=${coupon}`);
      }
      case "note":
        await addMemberNote(app.db, actor, memberId, input.note, audit, now);
        break;
    }
  } catch (error) {
    // A coupon refused by the loyalty area is worded for this page: used, expired, or not (any longer) there.
    return consoleFailure(error, form, t, {
      wording: {
        coupon_used: "console.members.error.coupon_used",
        coupon_expired: "console.members.error.coupon_expired",
        "*": "console.members.error.coupon_not_found",
      },
    });
  }
  return redirect(`${page}?done=${input.intent}`);
}

export default function ConsoleMember({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const revealed = actionData && "revealed" in actionData ? actionData.revealed : null;
  const m = revealed ?? loaderData.member;
  const { cancelled, notice } = loaderData;
  const done = (text: string, testId?: string) => (
    <Alert tone="success">{testId ? <span data-testid={testId}>{text}</span> : text}</Alert>
  );
  return (
    <ConsolePage
      back={{ to: "/admin/members", label: t("console.members.back") }}
      title={m.name}
      titleTestId="member-name"
      badges={
        <>
          <span className="font-mono text-sm text-muted">{m.memberNumber}</span>
          <span className="rounded-full bg-sand px-3 py-1 text-sm">
            {t(`console.counter.tier.${m.tier}` as "console.counter.tier.basic")}
          </span>
          {m.disabled ? (
            <span
              className="rounded-full bg-danger-700/10 px-3 py-1 text-sm text-danger-800"
              data-testid="member-disabled"
            >
              {m.deleted ? t("console.members.deleted") : t("console.staff.disabledBadge")}
            </span>
          ) : null}
        </>
      }
      notices={
        form.formError ? (
          <Alert tone="error">{form.formError}</Alert>
        ) : (
          <>
            {revealed ? <Alert>{t("console.members.revealedNote")}</Alert> : null}
            {cancelled
              ? done(
                  cancelled.fromReferral
                    ? t("console.members.referralCouponCancelled", { name: cancelled.name })
                    : t("console.members.couponCancelled", {
                        name: cancelled.name,
                        points: cancelled.points.toLocaleString("en-US"),
                      }),
                  "coupon-cancelled",
                )
              : null}
            {notice ? done(t(`console.members.done.${notice}`), "member-done") : null}
            {loaderData.resent ? done(t("console.members.verificationSent", { minutes: loaderData.minutes })) : null}
          </>
        )
      }
    >
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <MemberProfile member={m} revealed={Boolean(revealed)} />
        <MemberPoints member={m} />
      </div>
      <div className="mt-6">
        <ConsultantForm
          current={loaderData.consultant.current}
          choices={loaderData.consultant.choices}
          me={loaderData.consultant.me}
          canBind={loaderData.consultant.canBind}
          result={actionData && "consultant" in actionData ? actionData.consultant : null}
        />
      </div>
      {loaderData.overdueSamples.length > 0 ? (
        <section
          aria-labelledby="overdue-samples"
          className="mt-6 rounded-3xl border border-danger-700 bg-white p-5"
          data-testid="overdue-samples"
        >
          <h2 id="overdue-samples" className="text-lg font-semibold text-danger-800">
            {t("console.samples.overdue.title")}
          </h2>
          <ul className="mt-2 space-y-1">
            {loaderData.overdueSamples.map((o) => (
              <li key={o.id}>
                {t("console.samples.overdue.item", {
                  material: o.material,
                  store: o.store,
                  date: formatIsoDate(o.dueBackOn, locale),
                })}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <MemberCoupons member={m} confirmCancel={loaderData.confirmCancel} />
      <MemberHistory member={m} storeNames={loaderData.storeNames} />
      <MemberAppointments rows={loaderData.appointments} />
      {loaderData.referrals ? <MemberReferrals data={loaderData.referrals} /> : null}
      <MemberNotes member={m} canAudit={loaderData.canAudit} />
    </ConsolePage>
  );
}
