import { useMemo } from "react";
import { data, Form } from "react-router";
import uplotCss from "uplot/dist/uPlot.min.css?url";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput } from "~/components/console/filter-fields";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { TimeChart } from "~/components/dashboard/chart";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import type { Dashboard } from "~/domain/reports/dashboard.server";
import { addIsoDays } from "~/domain/reports/filters";
import { requireStaff } from "~/domain/staff/guard.server";
import { ALL_PERMISSIONS, hasPermission, type Permission } from "~/domain/staff/permissions";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";
import { dashboardFor } from "./dashboard.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.dashboard.title");

/** uPlot's own stylesheet (1 kB), only on this page. */
export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: uplotCss }];

/**
 * The console's first page (ADR 025): the dashboard for those who may see reports (admins: every store; managers:
 * their stores), a short way to the counter for the others.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requireStaff(context);
  const permissions = ALL_PERMISSIONS.filter((p) => hasPermission(actor, p));
  if (!hasPermission(actor, "reports.view")) {
    return {
      kind: "home" as const,
      name: actor.displayName,
      counter: hasPermission(actor, "member.view"),
      permissions,
    };
  }
  const { status, body } = await dashboardFor(request, context);
  return data({ kind: "dashboard" as const, ...body, permissions }, { status });
}

const COLORS = { brand: "#7d5236", sand: "#c9a588", green: "#2f6b45", red: "#a8321f", ink: "#43291a" };

export default function ConsoleHome({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {loaderData.kind === "home" ? (
        <StaffHome name={loaderData.name} counter={loaderData.counter} />
      ) : (
        <DashboardPage {...loaderData} />
      )}
      <Access permissions={loaderData.permissions} />
    </>
  );
}

/** What the role lets this person do (a short list at the foot of the page). */
function Access({ permissions }: { permissions: readonly Permission[] }) {
  const t = useConsoleT();
  return (
    <section className="mx-auto max-w-7xl px-4 pb-10 sm:px-6" aria-labelledby="access-title">
      <details open className="rounded-2xl border border-line bg-white p-4">
        <summary className="min-h-11 cursor-pointer py-2.5 font-medium" id="access-title">
          {t("console.home.access")}
        </summary>
        <ul className="mt-3 grid gap-2 text-sm sm:grid-cols-2 lg:grid-cols-3" data-testid="console-permissions">
          {permissions.map((p) => (
            <li key={p} className="rounded-xl bg-sand/60 px-3 py-2" data-permission={p}>
              {t(`console.permission.${p}`)}
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}

function StaffHome({ name, counter }: { name: string; counter: boolean }) {
  const t = useConsoleT();
  return (
    <ConsolePage width="3xl" title={t("console.home.greeting", { name })}>
      {counter ? (
        <section className="mt-8 rounded-2xl border border-line bg-white p-6" aria-labelledby="counter-title">
          <h2 id="counter-title" className="text-lg font-semibold">
            {t("console.dashboard.home.title")}
          </h2>
          <p className="mt-2 text-muted">{t("console.dashboard.home.lead")}</p>
          <Link
            to="/admin/counter"
            className="mt-4 inline-flex min-h-11 items-center rounded-xl bg-brand-700 px-5 font-medium text-white hover:bg-brand-800"
          >
            {t("console.dashboard.home.counter")}
          </Link>
        </section>
      ) : null}
    </ConsolePage>
  );
}

type PageData = Extract<Route.ComponentProps["loaderData"], { kind: "dashboard" }>;

function useFormat() {
  const locale = useLocale();
  return useMemo(() => {
    const num = new Intl.NumberFormat(locale === "en" ? "en-US" : "zh-TW");
    const pct = new Intl.NumberFormat(locale === "en" ? "en-US" : "zh-TW", {
      style: "percent",
      maximumFractionDigits: 1,
    });
    return {
      n: (v: number) => num.format(v),
      ntd: (v: number) => `NT$${num.format(v)}`,
      pct: (v: number | null) => (v === null ? "—" : pct.format(v)),
      month: (iso: string) => iso.slice(0, 7),
    };
  }, [locale]);
}

function DashboardPage(props: PageData) {
  const t = useConsoleT();
  const locale = useLocale();
  const { filters, error, stores, allStores, dashboard: d } = props;
  const query = new URLSearchParams({
    from: filters.from,
    to: filters.to,
    ...(filters.store ? { store: filters.store } : {}),
  });
  const storeName = new Map(stores.map((s) => [s.id, pick(s.name, locale)]));
  const today = d?.today ?? filters.to;
  const presets = [7, 30, 90, 365].map((days) => {
    const q = new URLSearchParams({ from: addIsoDays(today, -(days - 1)), to: today });
    if (filters.store) q.set("store", filters.store);
    return { days, href: `/admin?${q}` };
  });
  const errorText = error ? t(`console.dashboard.error.${error}` as "console.dashboard.error.reversed") : null;
  return (
    <ConsolePage
      width="7xl"
      testId="dashboard"
      title={t("console.dashboard.title")}
      lead={
        d ? (
          <>
            {t("console.dashboard.lead", { from: d.from, to: d.to })}
            {filters.store ? ` · ${storeName.get(filters.store) ?? filters.store}` : ""}
          </>
        ) : null
      }
      action={
        <nav aria-label={t("console.dashboard.filters")} className="flex flex-wrap gap-2 text-sm">
          {presets.map((p) => (
            <Link
              key={p.days}
              to={p.href}
              className="min-h-11 rounded-full border border-line bg-white px-3 py-2.5 hover:border-brand-300"
            >
              {t(`console.dashboard.preset.${p.days}` as "console.dashboard.preset.7")}
            </Link>
          ))}
        </nav>
      }
    >
      <Form
        method="get"
        role="search"
        aria-label={t("console.dashboard.filters")}
        className="mt-5 grid gap-3 rounded-2xl border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1.4fr_auto]"
      >
        <FilterInput
          name="from"
          type="date"
          label={t("console.dashboard.from")}
          value={filters.from}
          errors={error === "invalid_from" ? [errorText as string] : undefined}
        />
        <FilterInput
          name="to"
          type="date"
          label={t("console.dashboard.to")}
          value={filters.to}
          errors={error && error !== "invalid_from" && error !== "unknown_store" ? [errorText as string] : undefined}
        />
        <label className="text-sm">
          <span className="block font-medium">{t("console.dashboard.store")}</span>
          <select
            name="store"
            defaultValue={filters.store}
            className={cn(inputClass, "select-chevron mt-1")}
            aria-invalid={error === "unknown_store" ? true : undefined}
            aria-describedby={error === "unknown_store" ? "store-error" : undefined}
          >
            <option value="">{allStores ? t("console.dashboard.allStores") : t("console.dashboard.myStores")}</option>
            {stores.map((s) => (
              <option key={s.id} value={s.id}>
                {pick(s.name, locale)}
              </option>
            ))}
          </select>
          {error === "unknown_store" ? (
            <span id="store-error" className="mt-1 block text-sm text-danger-800">
              {errorText}
            </span>
          ) : null}
        </label>
        <div className="flex items-end">
          <button
            type="submit"
            className="min-h-11 w-full rounded-xl bg-brand-700 px-5 font-medium text-white hover:bg-brand-800"
          >
            {t("console.dashboard.apply")}
          </button>
        </div>
      </Form>

      {d ? <Figures d={d} query={query} storeName={storeName} /> : null}
    </ConsolePage>
  );
}

function Figures({ d, query, storeName }: { d: Dashboard; query: URLSearchParams; storeName: Map<string, string> }) {
  const t = useConsoleT();
  const f = useFormat();
  const csv = (panel: string) => `/admin/dashboard/export?panel=${panel}&${query}`;
  const daysX = d.days.map((r) => r.day);
  const salesSeries = useMemo(
    () => [
      {
        label: t("console.dashboard.stores.net"),
        color: COLORS.brand,
        values: d.days.map((r) => r.netSales),
        kind: "bars" as const,
      },
    ],
    [d, t],
  );
  const signupSeries = useMemo(
    () => [
      { label: t("console.dashboard.signups.phone"), color: COLORS.brand, values: d.days.map((r) => r.signupsPhone) },
      { label: t("console.dashboard.signups.line"), color: COLORS.green, values: d.days.map((r) => r.signupsLine) },
    ],
    [d, t],
  );
  const pointSeries = useMemo(
    () => [
      { label: t("console.dashboard.points.issued"), color: COLORS.brand, values: d.months.map((m) => m.issued) },
      { label: t("console.dashboard.points.redeemed"), color: COLORS.green, values: d.months.map((m) => m.redeemed) },
      { label: t("console.dashboard.points.expired"), color: COLORS.red, values: d.months.map((m) => m.expired) },
    ],
    [d, t],
  );
  const monthsX = useMemo(() => d.months.map((m) => m.month), [d]);
  const tierTotal = d.tiers?.reduce((a, x) => a + x.members, 0) ?? 0;
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
        {d.liability ? (
          <Kpi
            id="kpi-liability"
            label={t("console.dashboard.kpi.liability")}
            value={f.ntd(d.liability.ntd)}
            detail={t("console.dashboard.kpi.liabilityDetail", {
              points: f.n(d.liability.points),
              value: (d.liability.pointValueCents / 100).toLocaleString("en-US", { maximumFractionDigits: 2 }),
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
          chart={
            <TimeChart
              days={daysX}
              series={salesSeries}
              label={t("console.dashboard.chartOf", { panel: t("console.dashboard.sales.title") })}
            />
          }
        >
          <Table
            head={[
              t("console.dashboard.day"),
              t("console.dashboard.stores.purchases"),
              t("console.dashboard.stores.net"),
            ]}
            rows={d.days.map((r) => [r.day, f.n(r.purchases), f.ntd(r.netSales)])}
            empty={t("console.dashboard.empty")}
          />
        </Panel>

        <Panel id="stores" title={t("console.dashboard.stores.title")} csv={csv("stores")}>
          <Table
            head={[
              t("console.dashboard.stores.store"),
              t("console.dashboard.stores.purchases"),
              t("console.dashboard.stores.sales"),
              t("console.dashboard.stores.refunds"),
              t("console.dashboard.stores.net"),
            ]}
            rows={d.stores.map((s) => [
              storeName.get(s.storeId) || s.storeId,
              f.n(s.purchases),
              f.ntd(s.sales),
              f.ntd(s.refunds),
              f.ntd(s.netSales),
            ])}
            bars={d.stores.map((s) => s.netSales)}
            empty={t("console.dashboard.empty")}
          />
        </Panel>

        {d.programme ? (
          <Panel
            id="signups"
            title={t("console.dashboard.signups.title")}
            csv={csv("signups")}
            lead={`${t("console.dashboard.signups.phone")} ${f.n(d.totals.signupsPhone)} · ${t("console.dashboard.signups.line")} ${f.n(d.totals.signupsLine)}`}
            chart={
              <TimeChart
                days={daysX}
                series={signupSeries}
                label={t("console.dashboard.chartOf", { panel: t("console.dashboard.signups.title") })}
              />
            }
          >
            <Table
              head={[
                t("console.dashboard.day"),
                t("console.dashboard.signups.phone"),
                t("console.dashboard.signups.line"),
                t("console.dashboard.signups.total"),
              ]}
              rows={d.days
                .filter((r) => r.signupsPhone + r.signupsLine > 0)
                .map((r) => [r.day, f.n(r.signupsPhone), f.n(r.signupsLine), f.n(r.signupsPhone + r.signupsLine)])}
              empty={t("console.dashboard.empty")}
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
              days={monthsX}
              series={pointSeries}
              monthly
              label={t("console.dashboard.chartOf", { panel: t("console.dashboard.points.title") })}
            />
          }
        >
          <Table
            head={[
              t("console.dashboard.month"),
              t("console.dashboard.points.issued"),
              t("console.dashboard.points.redeemed"),
              t("console.dashboard.points.cancelled"),
              t("console.dashboard.points.expired"),
              t("console.dashboard.points.reversed"),
            ]}
            rows={d.months.map((m) => [
              f.month(m.month),
              f.n(m.issued),
              f.n(m.redeemed),
              f.n(m.cancelled),
              f.n(m.expired),
              f.n(m.reversed),
            ])}
            empty={t("console.dashboard.empty")}
          />
        </Panel>

        {d.liability ? (
          <div className="grid gap-6 lg:grid-cols-2">
            <Panel id="liability" title={t("console.dashboard.liability.title")} csv={csv("liability")} narrow>
              <dl className="grid grid-cols-2 gap-3">
                <div className="rounded-xl bg-sand/50 p-3">
                  <dt className="text-sm text-muted">{t("console.dashboard.liability.outstanding")}</dt>
                  <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid="outstanding-points">
                    {f.n(d.liability.points)}
                  </dd>
                </div>
                <div className="rounded-xl bg-sand/50 p-3">
                  <dt className="text-sm text-muted">{t("console.dashboard.liability.value")}</dt>
                  <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid="liability-ntd">
                    {f.ntd(d.liability.ntd)}
                  </dd>
                </div>
              </dl>
              <h3 className="mt-4 text-sm font-semibold">{t("console.dashboard.liability.expiring")}</h3>
              <Table
                head={[t("console.dashboard.month"), t("console.dashboard.liability.points"), "NT$"]}
                rows={d.liability.expiring.map((e) => [f.month(e.month), f.n(e.points), f.ntd(e.ntd)])}
                empty={t("console.dashboard.liability.none")}
              />
            </Panel>
            <Panel id="tiers" title={t("console.dashboard.tiers.title")} csv={csv("tiers")} narrow>
              <Table
                head={[
                  t("console.dashboard.tiers.tier"),
                  t("console.dashboard.tiers.members"),
                  t("console.dashboard.tiers.share"),
                  t("console.dashboard.tiers.points"),
                ]}
                rows={(d.tiers ?? []).map((x) => [
                  t(`console.counter.tier.${x.tier}` as "console.counter.tier.basic"),
                  f.n(x.members),
                  f.pct(tierTotal ? x.members / tierTotal : null),
                  f.n(x.points),
                ])}
                bars={(d.tiers ?? []).map((x) => x.members)}
                empty={t("console.dashboard.empty")}
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
              <Table
                head={[
                  t("console.dashboard.moves.from"),
                  t("console.dashboard.moves.to"),
                  t("console.dashboard.moves.count"),
                ]}
                rows={(d.tierMoves ?? []).map((m) => [
                  t(`console.counter.tier.${m.from}` as "console.counter.tier.basic"),
                  t(`console.counter.tier.${m.to}` as "console.counter.tier.basic"),
                  f.n(m.moves),
                ])}
                empty={t("console.dashboard.moves.none")}
              />
            </Panel>
          </div>
        ) : null}

        <Panel id="rewards" title={t("console.dashboard.rewards.title")} csv={csv("rewards")}>
          <Table
            head={[
              t("console.dashboard.rewards.reward"),
              t("console.dashboard.rewards.issued"),
              t("console.dashboard.rewards.used"),
              t("console.dashboard.rewards.cancelled"),
              t("console.dashboard.rewards.points"),
            ]}
            rows={d.rewards.map((r) => [r.name, f.n(r.issued), f.n(r.used), f.n(r.cancelled), f.n(r.points)])}
            bars={d.rewards.map((r) => r.issued)}
            empty={t("console.dashboard.empty")}
          />
        </Panel>

        <Panel
          id="cohorts"
          title={t("console.dashboard.cohorts.title")}
          csv={csv("cohorts")}
          lead={t("console.dashboard.cohorts.lead")}
        >
          <TableScroll
            className="max-h-[28rem] overflow-y-auto rounded-xl border border-line"
            label={t("console.dashboard.cohorts.title")}
          >
            <table className="w-full border-collapse whitespace-nowrap text-sm tabular-nums" data-testid="cohort-table">
              <thead className="sticky top-0 bg-sand text-left">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">
                    {t("console.dashboard.cohorts.cohort")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t("console.dashboard.cohorts.size")}
                  </th>
                  {d.cohorts.months.map((month, k) => (
                    <th key={month} scope="col" className="px-2 py-2 text-right font-medium">
                      {t("console.dashboard.cohorts.offset", { n: String(k) })}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {d.cohorts.rows.map((r) => (
                  <tr key={r.signupMonth} className="border-t border-line">
                    <th scope="row" className="px-3 py-1.5 text-left font-medium">
                      {f.month(r.signupMonth)}
                    </th>
                    <td className="px-3 py-1.5 text-right">{f.n(r.size)}</td>
                    {r.active.map((a, k) => {
                      const s = a === null || r.size === 0 ? null : a / r.size;
                      return (
                        <td
                          key={d.cohorts.months[k]}
                          className={cn("px-2 py-1.5 text-right", heat(s))}
                          title={a === null ? undefined : f.n(a)}
                        >
                          {a === null ? "" : f.pct(s)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </Panel>
      </div>
    </>
  );
}

/** Cohort cells: darker the larger the share (text colours keep AA contrast on each shade). */
function heat(s: number | null): string {
  if (s === null) return "text-muted";
  if (s >= 0.5) return "bg-brand-700 text-white";
  if (s >= 0.25) return "bg-brand-500 text-white";
  if (s >= 0.1) return "bg-brand-300 text-ink";
  if (s > 0) return "bg-brand-100 text-ink";
  return "bg-brand-50 text-muted";
}

function Kpi({ id, label, value, detail }: { id: string; label: string; value: string; detail: string }) {
  return (
    <div className="rounded-2xl border border-line bg-white p-4" data-testid={id}>
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 font-serif text-2xl font-semibold tabular-nums sm:text-3xl">{value}</dd>
      {detail ? <dd className="mt-1 text-xs text-muted">{detail}</dd> : null}
    </div>
  );
}

function Panel({
  id,
  title,
  csv,
  lead,
  chart,
  narrow,
  children,
}: {
  id: string;
  title: string;
  csv: string;
  lead?: string;
  chart?: React.ReactNode;
  narrow?: boolean;
  children: React.ReactNode;
}) {
  const t = useConsoleT();
  return (
    <section
      className="rounded-2xl border border-line bg-white p-4 sm:p-5"
      aria-labelledby={`${id}-title`}
      data-panel={id}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={`${id}-title`} className="text-lg font-semibold">
          {title}
        </h2>
        <a
          href={csv}
          download
          className="text-sm text-brand-700 underline underline-offset-4"
          aria-label={t("console.dashboard.csvOf", { panel: title })}
        >
          {t("console.dashboard.csv")}
        </a>
      </div>
      {lead ? <p className="mt-1 text-sm text-muted">{lead}</p> : null}
      <div className={cn("mt-4 grid gap-5", Boolean(chart) && !narrow && "lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]")}>
        {chart ? <div className="min-w-0">{chart}</div> : null}
        <div className="min-w-0">{children}</div>
      </div>
    </section>
  );
}

function Table({ head, rows, bars, empty }: { head: string[]; rows: string[][]; bars?: number[]; empty: string }) {
  if (rows.length === 0)
    return <p className="rounded-xl bg-sand/40 px-4 py-6 text-center text-sm text-muted">{empty}</p>;
  const max = bars ? Math.max(1, ...bars) : 0;
  return (
    <TableScroll className="max-h-80 overflow-y-auto rounded-xl border border-line" label={head.join(" · ")}>
      <table className="w-full border-collapse whitespace-nowrap text-sm tabular-nums">
        <thead className="sticky top-0 bg-sand text-left">
          <tr>
            {head.map((h, i) => (
              <th key={h} scope="col" className={cn("px-3 py-2 font-medium", i > 0 && "text-right")}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, ri) => (
            <tr key={r[0]} className="border-t border-line">
              {r.map((c, i) =>
                i === 0 ? (
                  <th key={head[i]} scope="row" className="relative px-3 py-1.5 text-left font-normal">
                    {bars ? (
                      <span
                        aria-hidden
                        className="absolute inset-y-1 left-0 rounded-r bg-brand-100"
                        style={{ width: `${((bars[ri] ?? 0) / max) * 100}%` }}
                      />
                    ) : null}
                    <span className="relative">{c}</span>
                  </th>
                ) : (
                  <td key={head[i]} className="px-3 py-1.5 text-right">
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
