import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink, useFilterFields } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { REWARD_SORTS, REWARD_STATUSES, REWARDS_PAGE_SIZE, type RewardQuery } from "~/domain/programme/reward-list";
import { listRewards } from "~/domain/programme/rewards.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { useLocale } from "~/lib/i18n";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatLastValidDay, formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.programme.rewards.title");

/** The query of the list, read from the URL (unknown values fall back to the defaults). */
const REWARD_QUERY = {
  q: listField.text(60),
  status: listField.choice(REWARD_STATUSES, "active"),
  sort: listField.choice(REWARD_SORTS, "name"),
  dir: listField.choice(["asc", "desc"], "asc"),
  page: listField.int(1, 10_000, 1),
};

/** Rewards (admins): search by name, offered / retired / all, sort, 20 a page; filters live in the URL. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "programme.edit");
  const parsed = parseListQuery(new URL(request.url), REWARD_QUERY);
  const query: RewardQuery = parsed.values;
  const { rows, total } = await listRewards(getApp(context).db, query);
  const pages = Math.max(1, Math.ceil(total / REWARDS_PAGE_SIZE));
  return {
    query,
    total,
    pages,
    ...pageHrefs("/admin/rewards", REWARD_QUERY, parsed, query.page, pages),
    rows: rows.map((r) => ({
      ...r,
      validFrom: r.validFrom?.toISOString() ?? null,
      // The end of the offer (exclusive): shown as the last day offered.
      validUntil: r.validUntil?.toISOString() ?? null,
      updatedAt: r.updatedAt.toISOString(),
    })),
  };
}

export default function Rewards({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const filter = useFilterFields("console.programme.rewards");
  const locale = useLocale();
  const { query } = loaderData;
  const sorted = (col: string) =>
    query.sort === col ? (query.dir === "asc" ? ("ascending" as const) : ("descending" as const)) : undefined;
  return (
    <ConsolePage
      title={t("console.programme.rewards.title")}
      lead={t("console.programme.rewards.lead")}
      action={
        <Link to="/admin/rewards/new" className={buttonVariants()}>
          {t("console.programme.rewards.new")}
        </Link>
      }
    >
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.programme.rewards.submit")}
            columns="lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
            fields={[
              filter.search("q", query.q),
              filter.choice("status", query.status, REWARD_STATUSES),
              filter.choice("sort", query.sort, REWARD_SORTS),
              filter.choice("dir", query.dir, ["asc", "desc"]),
            ]}
          />
        }
        count={t("console.programme.rewards.count", { count: loaderData.total })}
        empty={t("console.programme.rewards.empty")}
        emptyTestId="rewards-empty"
        label={t("console.programme.rewards.title")}
        testId="rewards-table"
        minWidth="48rem"
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        rowTestId="reward-row"
        columns={[
          {
            key: "name",
            header: t("console.programme.rewards.col.name"),
            sort: sorted("name"),
            className: "max-w-[18rem] break-words",
            cell: (r) => <RowLink to={`/admin/rewards/${r.id}`}>{r.name}</RowLink>,
          },
          {
            key: "kind",
            header: t("console.programme.rewards.col.kind"),
            cell: (r) => t(`console.programme.kind.${r.kind}`),
          },
          {
            key: "cost",
            header: t("console.programme.rewards.col.cost"),
            sort: sorted("cost"),
            className: "tabular-nums",
            cell: (r) => r.pointsCost.toLocaleString("en-US"),
          },
          {
            key: "stock",
            header: t("console.programme.rewards.col.stock"),
            sort: sorted("stock"),
            className: "tabular-nums",
            cell: (r) =>
              r.stock === null ? t("console.programme.rewards.unlimited") : r.stock.toLocaleString("en-US"),
          },
          {
            key: "issued",
            header: t("console.programme.rewards.col.issued"),
            className: "tabular-nums",
            testId: "reward-issued",
            cell: (r) => r.issued.toLocaleString("en-US"),
          },
          {
            key: "window",
            header: t("console.programme.rewards.col.window"),
            className: "tabular-nums",
            cell: (r) =>
              !r.validFrom && !r.validUntil
                ? t("console.programme.rewards.always")
                : [
                    r.validFrom
                      ? t("console.programme.rewards.from", { date: formatTaipei(r.validFrom, locale, "date") })
                      : null,
                    r.validUntil
                      ? t("console.programme.rewards.until", { date: formatLastValidDay(r.validUntil, locale) })
                      : null,
                  ]
                    .filter(Boolean)
                    .join(" "),
          },
          {
            key: "status",
            header: t("console.programme.rewards.col.status"),
            cell: (r) =>
              r.active ? (
                t("console.programme.rewards.status.active")
              ) : (
                <span className="rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                  {t("console.programme.rewards.status.retired")}
                </span>
              ),
          },
        ]}
        paging={{
          kind: "pages",
          pages: loaderData.pages,
          label: t("console.programme.rewards.pagination"),
          status: t("console.programme.rewards.page", { page: query.page, pages: loaderData.pages }),
          prevHref: loaderData.prevHref,
          nextHref: loaderData.nextHref,
          prevLabel: t("console.programme.rewards.prev"),
          nextLabel: t("console.programme.rewards.next"),
        }}
      />
    </ConsolePage>
  );
}
