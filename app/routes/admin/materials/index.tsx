import { Form } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FilterSelect } from "~/components/console/filter-fields";
import { MoreLink } from "~/components/console/pager";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button, buttonVariants } from "~/components/ui/button";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { consoleCategories, MATERIAL_SORTS, searchConsoleMaterials } from "~/domain/materials/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.materials.title");

const STATUSES = ["draft", "published"] as const;

const MATERIAL_QUERY = {
  q: listField.text(200),
  category: listField.text(200),
  status: listField.choice(STATUSES, null),
  sort: listField.choice(MATERIAL_SORTS, "updated"),
  after: listField.cursor(),
};

/** The materials of the catalogue (admins): search by name or series, filter, sort, 25 a page (keyset). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const { db } = getApp(context);
  const locale = getLocale(request);
  const url = new URL(request.url);
  const { values } = parseListQuery(url, MATERIAL_QUERY);
  const categories = await consoleCategories(db);
  const { status } = values;
  const filters = {
    q: values.q,
    category: categories.some((c) => c.id === values.category) ? values.category : "",
    status: status ?? "",
    sort: values.sort,
  };
  const result = await searchConsoleMaterials(db, {
    q: filters.q,
    categoryId: filters.category || null,
    status,
    sort: filters.sort,
    after: values.after,
  });
  const next = new URLSearchParams(Object.entries(filters).filter(([k, v]) => v && !(k === "sort" && v === "updated")));
  if (result.nextAfter) next.set("after", result.nextAfter);
  return {
    filters,
    categories: categories.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
    rows: result.rows.map((r) => ({
      id: r.id,
      name: pick(r.name, locale),
      series: pick(r.series, locale),
      category: pick(r.categoryName, locale),
      published: r.published,
      updatedAt: r.updatedAt.toISOString(),
      image: r.images[0]?.src ?? null,
      swatch: r.swatch,
    })),
    nextHref: result.nextAfter ? `/admin/materials?${next.toString()}` : null,
  };
}

export default function MaterialList({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { filters } = loaderData;
  return (
    <ConsolePage
      title={t("console.materials.title")}
      lead={t("console.materials.lead")}
      action={
        <Link to="/admin/materials/new" className={buttonVariants()}>
          {t("console.materials.new")}
        </Link>
      }
    >
      <Form method="get" role="search" className="mt-6 space-y-4 rounded-2xl border border-line bg-white p-4">
        <label className="block text-sm">
          <span className="block font-medium">{t("console.materials.search")}</span>
          <input
            type="search"
            name="q"
            defaultValue={filters.q}
            maxLength={200}
            placeholder={t("console.materials.searchHint")}
            className={cn(inputClass, "mt-1")}
          />
        </label>
        <div className="grid gap-3 sm:grid-cols-3">
          <FilterSelect
            name="category"
            label={t("console.materials.category")}
            value={filters.category}
            options={loaderData.categories.map((c) => ({ value: c.id, label: c.name }))}
          />
          <FilterSelect
            name="status"
            label={t("console.materials.status")}
            value={filters.status}
            options={STATUSES.map((s) => ({ value: s, label: t(`console.materials.status.${s}`) }))}
          />
          <label className="text-sm">
            <span className="block font-medium">{t("console.materials.sort")}</span>
            <select name="sort" defaultValue={filters.sort} className={cn(inputClass, "select-chevron mt-1")}>
              {(["updated", "name"] as const).map((s) => (
                <option key={s} value={s}>
                  {t(`console.materials.sort.${s}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <Button type="submit">{t("console.materials.submit")}</Button>
      </Form>

      {loaderData.rows.length === 0 ? (
        <p
          className="mt-6 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="materials-empty"
        >
          {t("console.materials.empty")}
        </p>
      ) : (
        <TableScroll label={t("console.materials.title")} className="mt-6 rounded-2xl border border-line">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="materials-table">
            <thead className="border-b border-line bg-sand/50 text-muted">
              <tr>
                {(["name", "category", "status", "updated"] as const).map((col) => (
                  <th key={col} scope="col" className="px-4 py-3 font-medium">
                    {t(`console.materials.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.rows.map((m) => (
                <tr key={m.id} data-testid="material-row">
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <span
                        aria-hidden
                        className="size-10 shrink-0 overflow-hidden rounded-lg border border-line"
                        style={{ backgroundColor: m.swatch }}
                      >
                        {m.image ? (
                          <img src={m.image} alt="" className="size-full object-cover" loading="lazy" />
                        ) : null}
                      </span>
                      <span>
                        <Link
                          to={`/admin/materials/${m.id}`}
                          className="font-medium underline decoration-line underline-offset-4 hover:decoration-ink"
                        >
                          {m.name}
                        </Link>
                        <span className="block text-xs text-muted">{m.series}</span>
                      </span>
                    </div>
                  </td>
                  <td className="px-4 py-3">{m.category}</td>
                  <td className="px-4 py-3">
                    <span
                      className={cn(
                        "rounded-full px-2 py-0.5 text-xs",
                        m.published ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
                      )}
                    >
                      {t(m.published ? "console.materials.status.published" : "console.materials.status.draft")}
                    </span>
                  </td>
                  <td className="px-4 py-3 tabular-nums">{formatTaipei(m.updatedAt, locale, "dateTime")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <MoreLink href={loaderData.nextHref} label={t("console.materials.more")} />
    </ConsolePage>
  );
}
