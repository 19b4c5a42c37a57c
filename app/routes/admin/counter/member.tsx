import { data, Form, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { counterActor } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { StatTile, TierBadge } from "~/components/console/counter-ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { counterSummary, revealPhone } from "~/domain/counter/counter.server";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatLastValidDay, formatTaipei } from "~/lib/time";
import type { Route } from "./+types/member";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.member.title");

/** The member at the counter: name, tier, points, coupons, last visits; the phone masked. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { actor, storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const summary = await counterSummary(app.db, params.memberId, storeId, requestNow(request, app.config));
  if (!summary) notFound(request);
  const locale = getLocale(request);
  return {
    summary: {
      ...summary,
      visits: summary.visits.map((v) => ({ ...v, storeName: pick(v.storeName, locale) || v.storeId })),
    },
    can: {
      reveal: hasPermission(actor, "member.reveal", { storeId }),
      purchase: storeId !== null && hasPermission(actor, "counter.purchase", { storeId }),
      coupon: storeId !== null && hasPermission(actor, "counter.coupon", { storeId }),
      adjust: hasPermission(actor, "points.adjust", { storeId }),
    },
  };
}

/** Reveals the full phone number: the permission is checked and the view written to the audit log. */
export async function action({ request, context, params }: Route.ActionArgs) {
  counterActor(context, "member.reveal");
  const form = await readForm(request);
  if (form.get("intent") !== "reveal") throw data(null, { status: 400, statusText: "Bad Request" });
  const app = getApp(context);
  try {
    const phone = await revealPhone(
      app.db,
      params.memberId,
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return { phone };
  } catch {
    notFound(request);
  }
}

export default function CounterMember({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const pending = useNavigation().state === "submitting";
  const { summary, can } = loaderData;
  const { member } = summary;
  const phone = actionData && "phone" in actionData ? actionData.phone : null;
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
      {member.disabled ? (
        <Alert tone="error" className="mt-5">
          {t("console.counter.member.disabled")}
        </Alert>
      ) : null}

      <div className="mt-6 grid gap-5 md:grid-cols-[3fr_2fr]">
        <div className="space-y-5">
          <dl className="grid grid-cols-2 gap-3">
            <StatTile
              className="col-span-2 sm:col-span-1"
              label={t("console.counter.member.balance")}
              value={
                <span className="text-3xl">
                  {t("console.counter.points", { points: formatNumber(summary.balance, locale) })}
                </span>
              }
              testId="member-balance"
            />
            <StatTile
              className="col-span-2 sm:col-span-1"
              label={t("console.counter.member.expiring")}
              value={
                summary.expiring ? (
                  t("console.counter.member.expiringValue", {
                    points: formatNumber(summary.expiring.points, locale),
                    date: formatLastValidDay(summary.expiring.expiresAt, locale),
                  })
                ) : (
                  <span className="text-base font-normal text-muted">{t("console.counter.member.noExpiring")}</span>
                )
              }
              testId="member-expiring"
            />
          </dl>
          <div className="flex flex-wrap items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3">
            <p className="text-sm text-muted">{t("console.counter.member.phone")}</p>
            <p className="font-mono text-lg tracking-wider" data-testid="member-phone">
              {phone ?? member.maskedPhone}
            </p>
            {phone ? (
              <p className="text-sm text-muted">{t("console.counter.member.revealed")}</p>
            ) : can.reveal ? (
              <Form method="post" className="ml-auto">
                <button
                  type="submit"
                  name="intent"
                  value="reveal"
                  disabled={pending}
                  className="min-h-11 rounded-full border border-line px-4 text-sm hover:bg-sand"
                >
                  {t("console.counter.member.reveal")}
                </button>
              </Form>
            ) : null}
          </div>
          <div className="flex flex-wrap gap-3">
            {can.purchase && !member.disabled ? (
              <Link
                to={`/admin/counter/member/${member.id}/purchase`}
                className={buttonVariants({ variant: "primary", size: "lg" })}
              >
                {t("console.counter.member.purchase")}
              </Link>
            ) : null}
            {can.adjust ? (
              <Link
                to={`/admin/members/${member.id}/adjust`}
                className={buttonVariants({ variant: "secondary", size: "lg" })}
              >
                {t("console.counter.member.adjust")}
              </Link>
            ) : null}
          </div>
          <section aria-labelledby="visits-title" className="rounded-3xl border border-line bg-white p-5">
            <h2 id="visits-title" className="text-lg font-semibold">
              {t("console.counter.member.visits")}
            </h2>
            {summary.visits.length === 0 ? (
              <p className="mt-2 text-sm text-muted">{t("console.counter.member.noVisits")}</p>
            ) : (
              <ul className="mt-2 divide-y divide-line" data-testid="member-visits">
                {summary.visits.map((v) => (
                  <li key={v.purchaseId} className="flex items-start justify-between gap-3 py-2.5 text-sm">
                    <div className="min-w-0">
                      <p className="font-medium">{v.storeName}</p>
                      <p className="text-muted">
                        {formatTaipei(v.purchasedAt, locale, "dateTime")}
                        <span className="ml-2 break-all">{v.receiptNumber}</span>
                      </p>
                    </div>
                    <div className="shrink-0 text-right">
                      <p className="font-medium tabular-nums">
                        {t("console.counter.money", { amount: formatNumber(v.netAmount, locale) })}
                      </p>
                      <p className="text-muted">
                        {v.refundedAmount > 0
                          ? t("console.counter.day.refundedPart", { amount: formatNumber(v.refundedAmount, locale) })
                          : `+${t("console.counter.points", { points: v.pointsEarned })}`}
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <section aria-labelledby="coupons-title" className="h-fit rounded-3xl border border-line bg-white p-5">
          <h2 id="coupons-title" className="text-lg font-semibold">
            {t("console.counter.member.coupons")}
          </h2>
          {summary.coupons.length === 0 ? (
            <p className="mt-2 text-sm text-muted">{t("console.counter.member.noCoupons")}</p>
          ) : (
            <ul className="mt-3 space-y-3" data-testid="member-coupons">
              {summary.coupons.map((c) => (
                <li key={c.id} className="rounded-2xl bg-sand/60 p-3">
                  <p className="font-medium">{c.rewardName}</p>
                  <p className="text-sm text-muted">
                    {c.kind === "amount-off" && c.amountOff !== null
                      ? t("console.counter.coupon.amountOff", { amount: formatNumber(c.amountOff, locale) })
                      : t("console.counter.coupon.gift")}
                    {" · "}
                    {t("console.counter.member.couponExpires", { date: formatLastValidDay(c.expiresAt, locale) })}
                  </p>
                  {!c.usableHere ? (
                    <p className="mt-1 text-sm text-danger-700">{t("console.counter.member.otherStore")}</p>
                  ) : can.coupon && !member.disabled ? (
                    <Link
                      to={`/admin/counter/coupon?id=${c.id}`}
                      aria-label={t("console.counter.member.useCouponLabel", { name: c.rewardName })}
                      className={`${buttonVariants({ variant: "secondary", size: "sm" })} mt-2 min-h-11`}
                    >
                      {t("console.counter.member.useCoupon")}
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </ConsolePage>
  );
}
