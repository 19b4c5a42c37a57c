import { data } from "react-router";
import uplotCss from "uplot/dist/uPlot.min.css?url";
import { FilterBar } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { Figures } from "~/components/console/dashboard/figures";
import { useRangeAndStoreFields } from "~/components/console/range-filters";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import { addIsoDays } from "~/domain/reports/filters";
import { requireStaff } from "~/domain/staff/guard.server";
import { ALL_PERMISSIONS, hasPermission, type Permission } from "~/domain/staff/permissions";
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

function DashboardPage({ filters, error, stores, allStores, dashboard: d }: PageData) {
  const t = useConsoleT();
  const locale = useLocale();
  const withStore = (q: Record<string, string>) =>
    new URLSearchParams({ ...q, ...(filters.store ? { store: filters.store } : {}) }).toString();
  const storeName = new Map(stores.map((s) => [s.id, pick(s.name, locale)]));
  const today = d?.today ?? filters.to;
  const rangeFields = useRangeAndStoreFields(
    filters,
    error,
    stores,
    allStores ? t("console.dashboard.allStores") : t("console.dashboard.myStores"),
  );
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
          {[7, 30, 90, 365].map((days) => (
            <Link
              key={days}
              to={`/admin?${withStore({ from: addIsoDays(today, -(days - 1)), to: today })}`}
              className="min-h-11 rounded-full border border-line bg-white px-3 py-2.5 hover:border-brand-300"
            >
              {t(`console.dashboard.preset.${days}` as "console.dashboard.preset.7")}
            </Link>
          ))}
        </nav>
      }
    >
      <FilterBar
        label={t("console.dashboard.filters")}
        submitLabel={t("console.dashboard.apply")}
        columns="lg:grid-cols-[1fr_1fr_1.4fr_auto]"
        fields={[...rangeFields]}
      />
      {d ? <Figures d={d} query={withStore({ from: filters.from, to: filters.to })} storeName={storeName} /> : null}
    </ConsolePage>
  );
}
