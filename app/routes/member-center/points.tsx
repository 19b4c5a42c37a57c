import { data } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { ChevronLeft, ChevronRight } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { pointsHistory } from "~/domain/loyalty/member-center.server";
import { cn } from "~/lib/cn";
import { formatNumber, useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/points";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.memberPoints.title");

const pageParam = z.coerce.number().int().min(1).max(10_000).catch(1);

/** /member-center/points: the whole ledger, 30 entries a page, Taipei dates. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const locale = getLocale(request);
  const page = pageParam.parse(new URL(request.url).searchParams.get("page") ?? 1);
  const { entries, hasMore } = await pointsHistory(getApp(context).db, member.id, page);
  return data(
    {
      messages: routeMessages(locale, "member.center.history.", "member.center.activity.", "member.center.points."),
      page,
      hasMore,
      entries: entries.map((e) => ({
        id: e.id,
        kind: e.kind,
        amount: e.amount,
        at: e.at.toISOString(),
        purchase: e.purchase
          ? {
              netAmount: e.purchase.netAmount,
              receiptNumber: e.purchase.receiptNumber,
              store: e.purchase.storeName ? pick(e.purchase.storeName, locale) : null,
              pointsSpentValue: e.purchase.pointsSpentValue ?? 0,
            }
          : null,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function PointsHistoryPage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const pager = "inline-flex min-h-11 items-center gap-1 rounded-full border border-line px-4 text-sm hover:bg-sand";
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 sm:py-12">
      <Link
        to={links["member-center"]()}
        className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 hover:underline"
      >
        <ChevronLeft className="size-4" />
        {t("member.center.history.back")}
      </Link>
      <h1 className="mt-2 font-serif text-3xl font-semibold tracking-wide">{t("member.center.history.title")}</h1>
      <p className="mt-1 text-muted">{t("member.center.history.lead")}</p>
      {d.entries.length === 0 ? (
        <p className="mt-8 rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
          {t("member.center.activity.empty")}
        </p>
      ) : (
        <table className="mt-8 w-full overflow-hidden rounded-2xl bg-white text-left shadow-sm" data-testid="history">
          <thead className="bg-sand text-sm text-muted">
            <tr>
              {/* On a phone the date goes under the item: three columns leave the item too narrow. */}
              <th scope="col" className="hidden px-4 py-3 font-medium sm:table-cell">
                {t("member.center.history.date")}
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                {t("member.center.history.item")}
              </th>
              <th scope="col" className="px-4 py-3 text-right font-medium">
                {t("member.center.history.points")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {d.entries.map((e) => (
              <tr key={e.id}>
                <td className="hidden px-4 py-3 align-top text-sm whitespace-nowrap text-muted sm:table-cell">
                  <time dateTime={e.at}>{formatTaipei(e.at, locale)}</time>
                </td>
                <td className="px-4 py-3">
                  <span className="block text-ink">{t(`member.center.activity.kind.${e.kind}`)}</span>
                  <time dateTime={e.at} className="block text-sm text-muted sm:hidden">
                    {formatTaipei(e.at, locale)}
                  </time>
                  {e.purchase ? (
                    // Each part moves to the next line whole (a receipt number is not split before its last
                    // digits); only a part longer than the whole line breaks inside.
                    <span className="block text-sm text-muted">
                      <span className="inline-block max-w-full wrap-anywhere">
                        {t("member.center.activity.purchase", { amount: formatNumber(e.purchase.netAmount, locale) })}
                      </span>
                      {e.purchase.pointsSpentValue > 0 ? (
                        <>
                          {" · "}
                          <span className="inline-block max-w-full wrap-anywhere" data-testid="paid-with-points">
                            {t("member.center.activity.paidWithPoints", {
                              value: formatNumber(e.purchase.pointsSpentValue, locale),
                            })}
                          </span>
                        </>
                      ) : null}
                      {e.purchase.store ? (
                        <>
                          {" · "}
                          <span className="inline-block max-w-full wrap-anywhere">{e.purchase.store}</span>
                        </>
                      ) : null}
                      {" · "}
                      <span className="inline-block max-w-full wrap-anywhere">
                        {t("member.center.activity.receipt", { receipt: e.purchase.receiptNumber })}
                      </span>
                    </span>
                  ) : null}
                </td>
                <td
                  className={cn(
                    "px-4 py-3 text-right align-top font-semibold whitespace-nowrap tabular-nums",
                    e.amount > 0 ? "text-success-700" : "text-danger-800",
                  )}
                >
                  {`${e.amount > 0 ? "+" : "−"}${formatNumber(Math.abs(e.amount), locale)}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav aria-label={t("member.center.history.title")} className="mt-6 flex justify-between gap-3">
        {d.page > 1 ? (
          <Link to={links.memberPoints(d.page - 1)} className={pager} rel="prev">
            <ChevronLeft className="size-4" />
            {t("member.center.history.newer")}
          </Link>
        ) : (
          <span />
        )}
        {d.hasMore ? (
          <Link to={links.memberPoints(d.page + 1)} className={pager} rel="next">
            {t("member.center.history.older")}
            <ChevronRight className="size-4" />
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
