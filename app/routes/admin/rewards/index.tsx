import { Form } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FilterSelect } from "~/components/console/filter-fields";
import { PageNumbers } from "~/components/console/pager";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button, buttonVariants } from "~/components/ui/button";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { REWARD_SORTS, REWARD_STATUSES, REWARDS_PAGE_SIZE, type RewardQuery } from "~/domain/programme/reward-list";
import { listRewards } from "~/domain/programme/rewards.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { listField, parseListQuery } from "~/lib/list-query";
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
  const query: RewardQuery = parseListQuery(new URL(request.url), REWARD_QUERY).values;
  const { rows, total } = await listRewards(getApp(context).db, query);
  const pages = Math.max(1, Math.ceil(total / REWARDS_PAGE_SIZE));
  const href = (page: number) => {
    const p = new URLSearchParams();
    if (query.q) p.set("q", query.q);
    if (query.status !== "active") p.set("status", query.status);
    if (query.sort !== "name") p.set("sort", query.sort);
    if (query.dir !== "asc") p.set("dir", query.dir);
    if (page > 1) p.set("page", String(page));
    const qs = p.toString();
    return `/admin/rewards${qs ? `?${qs}` : ""}`;
  };
  return {
    query,
    total,
    pages,
    prevHref: query.page > 1 ? href(query.page - 1) : null,
    nextHref: query.page < pages ? href(query.page + 1) : null,
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
  const locale = useLocale();
  const { query } = loaderData;
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
      <Form
        method="get"
        role="search"
        className="mt-6 grid gap-3 rounded-2xl border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto] lg:items-end"
      >
        <label className="block text-sm">
          <span className="block font-medium">{t("console.programme.rewards.search")}</span>
          <input type="search" name="q" defaultValue={query.q} maxLength={60} className={cn(inputClass, "mt-1")} />
        </label>
        <FilterSelect
          anyOption={false}
          name="status"
          label={t("console.programme.rewards.status")}
          value={query.status}
          options={REWARD_STATUSES.map((s) => ({ value: s, label: t(`console.programme.rewards.status.${s}`) }))}
        />
        <FilterSelect
          anyOption={false}
          name="sort"
          label={t("console.programme.rewards.sort")}
          value={query.sort}
          options={REWARD_SORTS.map((s) => ({ value: s, label: t(`console.programme.rewards.sort.${s}`) }))}
        />
        <FilterSelect
          anyOption={false}
          name="dir"
          label={t("console.programme.rewards.dir")}
          value={query.dir}
          options={(["asc", "desc"] as const).map((d) => ({
            value: d,
            label: t(`console.programme.rewards.dir.${d}`),
          }))}
        />
        <Button type="submit">{t("console.programme.rewards.submit")}</Button>
      </Form>
      <p className="mt-4 text-sm text-muted" aria-live="polite">
        {t("console.programme.rewards.count", { count: loaderData.total })}
      </p>
      {loaderData.rows.length === 0 ? (
        <p
          className="mt-3 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="rewards-empty"
        >
          {t("console.programme.rewards.empty")}
        </p>
      ) : (
        <TableScroll label={t("console.programme.rewards.title")} className="mt-3 rounded-2xl border border-line">
          <table className="w-full min-w-[48rem] text-left text-sm" data-testid="rewards-table">
            <thead className="border-b border-line bg-sand/50 text-muted">
              <tr>
                {(["name", "kind", "cost", "stock", "issued", "window", "status"] as const).map((col) => (
                  <th
                    key={col}
                    scope="col"
                    className="px-4 py-3 font-medium"
                    aria-sort={
                      (col === "name" && query.sort === "name") ||
                      (col === "cost" && query.sort === "cost") ||
                      (col === "stock" && query.sort === "stock")
                        ? query.dir === "asc"
                          ? "ascending"
                          : "descending"
                        : undefined
                    }
                  >
                    {t(`console.programme.rewards.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.rows.map((r) => (
                <tr key={r.id} data-testid="reward-row">
                  <td className="max-w-[18rem] px-4 py-3 break-words">
                    <Link
                      to={`/admin/rewards/${r.id}`}
                      className="font-medium underline decoration-line underline-offset-4 hover:decoration-ink"
                    >
                      {r.name}
                    </Link>
                  </td>
                  <td className="px-4 py-3">{t(`console.programme.kind.${r.kind}`)}</td>
                  <td className="px-4 py-3 tabular-nums">{r.pointsCost.toLocaleString("en-US")}</td>
                  <td className="px-4 py-3 tabular-nums">
                    {r.stock === null ? t("console.programme.rewards.unlimited") : r.stock.toLocaleString("en-US")}
                  </td>
                  <td className="px-4 py-3 tabular-nums" data-testid="reward-issued">
                    {r.issued.toLocaleString("en-US")}
                  </td>
                  <td className="px-4 py-3 tabular-nums">
                    {!r.validFrom && !r.validUntil
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
                          .join(" ")}
                  </td>
                  <td className="px-4 py-3">
                    {r.active ? (
                      t("console.programme.rewards.status.active")
                    ) : (
                      <span className="rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                        {t("console.programme.rewards.status.retired")}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {loaderData.pages > 1 ? (
        <PageNumbers
          label={t("console.programme.rewards.pagination")}
          status={t("console.programme.rewards.page", { page: query.page, pages: loaderData.pages })}
          prevHref={loaderData.prevHref}
          nextHref={loaderData.nextHref}
          prevLabel={t("console.programme.rewards.prev")}
          nextLabel={t("console.programme.rewards.next")}
        />
      ) : null}
    </ConsolePage>
  );
}
