import { useMemo } from "react";
import { TimeChart } from "~/components/dashboard/chart";
import type { Dashboard } from "~/domain/reports/dashboard.server";
import { useConsoleT } from "../use-console-t";
import { CohortsPanel } from "./cohorts";
import { useFigureFormat } from "./format";
import { FigureTable, Kpi, Panel } from "./panel";
import { ShowroomSection } from "./showroom";

const COLORS = { brand: "#7d5236", green: "#2f6b45", red: "#a8321f", muted: "#5e574e" };

/** The dashboard's figures for a range: the headline figures, then one panel per report (chart, table, CSV). */
export function Figures({ d, query, storeName }: { d: Dashboard; query: string; storeName: Map<string, string> }) {
  const t = useConsoleT();
  const f = useFigureFormat();
  const csv = (panel: string) => `/admin/dashboard/export?panel=${panel}&${query}`;
  const empty = t("console.dashboard.empty");
  const tier = (x: string) => t(`console.counter.tier.${x}` as "console.counter.tier.basic");
  const chartOf = (panel: string) => t("console.dashboard.chartOf", { panel });
  const daysX = d.days.map((r) => r.day);
  const series = useMemo(
    () => ({
      sales: [
        {
          label: t("console.dashboard.stores.net"),
          color: COLORS.brand,
          values: d.days.map((r) => r.netSales),
          kind: "bars" as const,
        },
      ],
      signups: [
        { label: t("console.dashboard.signups.phone"), color: COLORS.brand, values: d.days.map((r) => r.signupsPhone) },
        { label: t("console.dashboard.signups.line"), color: COLORS.green, values: d.days.map((r) => r.signupsLine) },
      ],
      points: [
        { label: t("console.dashboard.points.issued"), color: COLORS.brand, values: d.months.map((m) => m.issued) },
        { label: t("console.dashboard.points.redeemed"), color: COLORS.green, values: d.months.map((m) => m.redeemed) },
        { label: t("console.dashboard.points.expired"), color: COLORS.red, values: d.months.map((m) => m.expired) },
        // Points given back when a redemption was cancelled: the table's 取消退回 column, in the chart too.
        {
          label: t("console.dashboard.points.cancelled"),
          color: COLORS.muted,
          values: d.months.map((m) => m.cancelled),
        },
      ],
      months: d.months.map((m) => m.month),
    }),
    [d, t],
  );
  const tierTotal = d.tiers?.reduce((a, x) => a + x.members, 0) ?? 0;
  const l = d.liability;
  return (
    <>
      <dl className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" data-testid="dashboard-kpis">
        <Kpi
          id="kpi-net-sales"
          label={t("console.dashboard.kpi.netSales")}
          value={f.ntd(d.totals.netSales)}
          detail={`${t("console.dashboard.kpi.purchases")} ${f.n(d.totals.purchases)}`}
        />
        <Kpi
          id="kpi-active"
          label={t("console.dashboard.kpi.active")}
          value={f.n(d.totals.active30)}
          detail={t("console.dashboard.kpi.activeDetail", { a30: f.n(d.totals.active30), a90: f.n(d.totals.active90) })}
        />
        {l ? (
          <Kpi
            id="kpi-liability"
            label={t("console.dashboard.kpi.liability")}
            value={f.ntd(l.ntd)}
            detail={t("console.dashboard.kpi.liabilityDetail", {
              points: f.n(l.points),
              value: (l.pointValueCents / 100).toLocaleString("en-US", { maximumFractionDigits: 2 }),
            })}
          />
        ) : (
          <Kpi
            id="kpi-purchases"
            label={t("console.dashboard.kpi.purchases")}
            value={f.n(d.totals.purchases)}
            detail=""
          />
        )}
        <Kpi
          id="kpi-redemption"
          label={t("console.dashboard.kpi.redemption")}
          value={f.pct(d.totals.redemptionRate)}
          detail={t("console.dashboard.kpi.redemptionDetail", {
            redeemed: f.n(d.totals.redeemed),
            issued: f.n(d.totals.issued),
            cancelled: f.n(d.totals.cancelled),
          })}
        />
      </dl>

      {!d.programme ? (
        <p className="mt-4 rounded-xl bg-sand/60 px-4 py-3 text-sm text-muted">
          {t("console.dashboard.programmeOnly")}
        </p>
      ) : null}

      <div className="mt-6 grid gap-6">
        <Panel
          id="sales"
          title={t("console.dashboard.sales.title")}
          csv={csv("sales")}
          chart={<TimeChart days={daysX} series={series.sales} label={chartOf(t("console.dashboard.sales.title"))} />}
        >
          <FigureTable
            head={[
              t("console.dashboard.day"),
              t("console.dashboard.stores.purchases"),
              t("console.dashboard.stores.net"),
            ]}
            rows={d.days.map((r) => [r.day, f.n(r.purchases), f.ntd(r.netSales)])}
            empty={empty}
          />
        </Panel>

        <Panel id="stores" title={t("console.dashboard.stores.title")} csv={csv("stores")}>
          <FigureTable
            head={(["store", "purchases", "sales", "refunds", "net"] as const).map((c) =>
              t(`console.dashboard.stores.${c}`),
            )}
            rows={d.stores.map((s) => [
              storeName.get(s.storeId) || s.storeId,
              f.n(s.purchases),
              f.ntd(s.sales),
              f.ntd(s.refunds),
              f.ntd(s.netSales),
            ])}
            bars={d.stores.map((s) => s.netSales)}
            empty={empty}
          />
        </Panel>

        {d.programme ? (
          <Panel
            id="signups"
            title={t("console.dashboard.signups.title")}
            csv={csv("signups")}
            lead={`${t("console.dashboard.signups.phone")} ${f.n(d.totals.signupsPhone)} · ${t("console.dashboard.signups.line")} ${f.n(d.totals.signupsLine)}`}
            chart={
              <TimeChart days={daysX} series={series.signups} label={chartOf(t("console.dashboard.signups.title"))} />
            }
          >
            <FigureTable
              head={[
                t("console.dashboard.day"),
                ...(["phone", "line", "total"] as const).map((c) => t(`console.dashboard.signups.${c}`)),
              ]}
              rows={d.days
                .filter((r) => r.signupsPhone + r.signupsLine > 0)
                .map((r) => [r.day, f.n(r.signupsPhone), f.n(r.signupsLine), f.n(r.signupsPhone + r.signupsLine)])}
              empty={empty}
            />
          </Panel>
        ) : null}

        <Panel
          id="points"
          title={t("console.dashboard.points.title")}
          narrow
          csv={csv("points")}
          chart={
            <TimeChart
              days={series.months}
              series={series.points}
              monthly
              label={chartOf(t("console.dashboard.points.title"))}
            />
          }
        >
          <FigureTable
            head={[
              t("console.dashboard.month"),
              ...(["issued", "redeemed", "cancelled", "expired", "reversed"] as const).map((c) =>
                t(`console.dashboard.points.${c}`),
              ),
            ]}
            rows={d.months.map((m) => [
              f.month(m.month),
              ...[m.issued, m.redeemed, m.cancelled, m.expired, m.reversed].map(f.n),
            ])}
            empty={empty}
          />
        </Panel>

        {l ? (
          <div className="grid gap-6 lg:grid-cols-2">
            <Panel id="liability" title={t("console.dashboard.liability.title")} csv={csv("liability")} narrow>
              <dl className="grid grid-cols-2 gap-3">
                {(
                  [
                    ["outstanding", "outstanding-points", f.n(l.points)],
                    ["value", "liability-ntd", f.ntd(l.ntd)],
                  ] as const
                ).map(([key, testId, value]) => (
                  <div key={key} className="rounded-xl bg-sand/50 p-3">
                    <dt className="text-sm text-muted">{t(`console.dashboard.liability.${key}`)}</dt>
                    <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId}>
                      {value}
                    </dd>
                  </div>
                ))}
              </dl>
              <h3 className="mt-4 text-sm font-semibold">{t("console.dashboard.liability.expiring")}</h3>
              <FigureTable
                head={[t("console.dashboard.month"), t("console.dashboard.liability.points"), "NT$"]}
                rows={l.expiring.map((e) => [f.month(e.month), f.n(e.points), f.ntd(e.ntd)])}
                empty={t("console.dashboard.liability.none")}
              />
            </Panel>
            <Panel id="tiers" title={t("console.dashboard.tiers.title")} csv={csv("tiers")} narrow>
              <FigureTable
                head={(["tier", "members", "share", "points"] as const).map((c) => t(`console.dashboard.tiers.${c}`))}
                rows={(d.tiers ?? []).map((x) => [
                  tier(x.tier),
                  f.n(x.members),
                  f.pct(tierTotal ? x.members / tierTotal : null),
                  f.n(x.points),
                ])}
                bars={(d.tiers ?? []).map((x) => x.members)}
                empty={empty}
              />
              <h3 className="mt-4 text-sm font-semibold">
                {t("console.dashboard.moves.title")}{" "}
                <a
                  href={csv("moves")}
                  download
                  className="ml-2 font-normal text-brand-700 underline underline-offset-4"
                >
                  {t("console.dashboard.csvOf", { panel: t("console.dashboard.moves.title") })}
                </a>
              </h3>
              <FigureTable
                head={(["from", "to", "count"] as const).map((c) => t(`console.dashboard.moves.${c}`))}
                rows={(d.tierMoves ?? []).map((m) => [tier(m.from), tier(m.to), f.n(m.moves)])}
                empty={t("console.dashboard.moves.none")}
              />
            </Panel>
          </div>
        ) : null}

        <Panel id="rewards" title={t("console.dashboard.rewards.title")} csv={csv("rewards")}>
          <FigureTable
            head={(["reward", "issued", "used", "cancelled", "revoked", "points"] as const).map((c) =>
              t(`console.dashboard.rewards.${c}`),
            )}
            rows={d.rewards.map((r) => [
              r.name,
              f.n(r.issued),
              f.n(r.used),
              f.n(r.cancelled),
              f.n(r.revoked),
              f.n(r.points),
            ])}
            bars={d.rewards.map((r) => r.issued)}
            empty={empty}
          />
        </Panel>

        <CohortsPanel cohorts={d.cohorts} csv={csv("cohorts")} />

        <ShowroomSection showroom={d.showroom} csv={csv} storeName={storeName} />
      </div>
    </>
  );
}
