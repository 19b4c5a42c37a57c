import { data } from "react-router";
import { ConsoleTable, EmptyState, FilterBar } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { useRangeAndStoreFields } from "~/components/console/range-filters";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import { useLocale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";
import { clerkReportFor } from "./reports.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.clerk.report.title");

/** Sales and new members per clerk and store, and a consultant's members with their last visit (ADR 042). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { status, body } = await clerkReportFor(request, context);
  return data(body, { status });
}

const ntd = (n: number) => `NT$${n.toLocaleString("en-US")}`;
const num = (n: number) => n.toLocaleString("en-US");

export default function ClerkReports({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { filters, error, stores, sales, consultants, consultant, members } = loaderData;
  const storeName = new Map(stores.map((s) => [s.id, pick(s.name, locale)]));
  const rangeFields = useRangeAndStoreFields(filters, error, stores, t("console.dashboard.myStores"));
  const total = (sales ?? []).reduce(
    (sum, r) => ({
      purchases: sum.purchases + r.purchases,
      amount: sum.amount + r.amount,
      points: sum.points + r.points,
      newMembers: sum.newMembers + r.newMembers,
    }),
    { purchases: 0, amount: 0, points: 0, newMembers: 0 },
  );
  type Row = NonNullable<typeof sales>[number];
  return (
    <ConsolePage
      width="7xl"
      testId="clerk-reports"
      title={t("console.clerk.report.title")}
      lead={sales ? t("console.clerk.report.lead", { from: filters.from, to: filters.to }) : null}
    >
      <FilterBar
        label={t("console.clerk.report.filters")}
        submitLabel={t("console.dashboard.apply")}
        columns="lg:grid-cols-[1fr_1fr_1.4fr_1.4fr_auto]"
        fields={[
          ...rangeFields,
          consultants.length > 1
            ? {
                name: "consultant",
                label: t("console.clerk.report.consultant"),
                value: filters.consultant,
                anyOption: false,
                options: consultants.map((c) => ({ value: c.userId, label: c.displayName })),
              }
            : null,
        ]}
      />
      <section className="mt-8" aria-labelledby="sales-title">
        <h2 id="sales-title" className="text-lg font-semibold">
          {t("console.clerk.report.sales")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("console.clerk.report.salesNote")}</p>
        {sales === null ? null : sales.length === 0 ? (
          <div className="mt-3">
            <EmptyState testId="clerk-sales-empty">{t("console.clerk.report.noSales")}</EmptyState>
          </div>
        ) : (
          <ConsoleTable<Row>
            className="mt-3"
            labelledBy="sales-title"
            testId="clerk-sales"
            rowTestId="clerk-sales-row"
            rows={sales}
            rowKey={(r) => `${r.storeId}/${r.staffUserId}`}
            rowProps={(r) => ({ "data-clerk": r.displayName, "data-store": r.storeId })}
            columns={[
              { key: "clerk", header: t("console.clerk.report.col.clerk"), cell: (r) => r.displayName },
              {
                key: "store",
                header: t("console.clerk.report.col.store"),
                cell: (r) => storeName.get(r.storeId) || r.storeId,
              },
              {
                key: "purchases",
                header: t("console.clerk.report.col.purchases"),
                align: "right",
                className: "tabular-nums",
                testId: "clerk-purchases",
                cell: (r) => num(r.purchases),
              },
              {
                key: "amount",
                header: t("console.clerk.report.col.amount"),
                align: "right",
                className: "tabular-nums",
                testId: "clerk-amount",
                cell: (r) => ntd(r.amount),
              },
              {
                key: "points",
                header: t("console.clerk.report.col.points"),
                align: "right",
                className: "tabular-nums",
                testId: "clerk-points",
                cell: (r) => num(r.points),
              },
              {
                key: "newMembers",
                header: t("console.clerk.report.col.newMembers"),
                align: "right",
                className: "tabular-nums",
                testId: "clerk-new-members",
                cell: (r) => num(r.newMembers),
              },
            ]}
          />
        )}
        {sales && sales.length > 0 ? (
          <p className="mt-2 text-sm tabular-nums" data-testid="clerk-sales-total">
            {t("console.clerk.report.total", {
              purchases: num(total.purchases),
              amount: ntd(total.amount),
              points: num(total.points),
              newMembers: num(total.newMembers),
            })}
          </p>
        ) : null}
      </section>
      <section className="mt-10" aria-labelledby="consultant-list-title">
        <h2 id="consultant-list-title" className="text-lg font-semibold">
          {t("console.clerk.report.members", { name: consultant?.displayName ?? "" })}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("console.clerk.report.membersNote")}</p>
        {members.length === 0 ? (
          <div className="mt-3">
            <EmptyState testId="consultant-members-empty">{t("console.clerk.report.noMembers")}</EmptyState>
          </div>
        ) : (
          <ConsoleTable<(typeof members)[number]>
            className="mt-3"
            labelledBy="consultant-list-title"
            testId="consultant-members"
            rowTestId="consultant-member-row"
            minWidth="20rem"
            rows={members}
            rowKey={(m) => m.memberId}
            columns={[
              {
                key: "number",
                header: t("console.clerk.report.col.member"),
                cell: (m) => (
                  <Link to={`/admin/counter/member/${m.memberId}`} className="font-mono underline underline-offset-2">
                    {m.memberNumber}
                  </Link>
                ),
              },
              { key: "name", header: t("console.clerk.report.col.name"), cell: (m) => m.name },
              {
                key: "lastVisit",
                header: t("console.clerk.report.col.lastVisit"),
                className: "tabular-nums",
                testId: "consultant-last-visit",
                cell: (m) =>
                  m.lastVisitAt ? formatTaipei(m.lastVisitAt, locale, "dateTime") : t("console.clerk.report.never"),
              },
            ]}
          />
        )}
      </section>
    </ConsolePage>
  );
}
