import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink, useFilterFields } from "~/components/console/console-list";
import { CatalogListPage, useCatalogColumns } from "~/components/console/materials/catalog-page";
import { StatusChip } from "~/components/console/materials/editor-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { consoleMaterialList, type MaterialSort } from "~/domain/materials/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { useLocale } from "~/lib/i18n";
import { getLocale } from "~/lib/i18n.server";
import { listField, listHref, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.materials.title");

const STATUSES = ["draft", "published"] as const;
/** The sorts (the domain's `MATERIAL_SORTS`, written here for the page: that module is server-only). */
const SORTS = ["updated", "name"] as const satisfies readonly MaterialSort[];

const MATERIAL_QUERY = {
  q: listField.text(200),
  category: listField.text(200),
  status: listField.choice(STATUSES, null),
  sort: listField.choice(SORTS, "updated"),
  after: listField.cursor(),
};

/** The materials of the catalogue (admins): search by name or series, filter, sort, 25 a page (keyset). */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const query = parseListQuery(new URL(request.url), MATERIAL_QUERY);
  const list = await consoleMaterialList(getApp(context).db, query.values, getLocale(request));
  const { category, nextAfter } = list;
  return {
    filters: { ...query.values, status: query.values.status ?? "", category },
    categories: list.categories,
    rows: list.rows,
    nextHref: nextAfter ? listHref("/admin/materials", MATERIAL_QUERY, query, { category, after: nextAfter }) : null,
  };
}

export default function MaterialList({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const filter = useFilterFields("console.materials");
  const locale = useLocale();
  const { filters } = loaderData;
  const columns = useCatalogColumns<(typeof loaderData.rows)[number]>("materials", [
    [
      "name",
      (m) => (
        <div className="flex items-center gap-3">
          <span
            aria-hidden
            className="size-10 shrink-0 overflow-hidden rounded-lg border border-line"
            style={{ backgroundColor: m.swatch }}
          >
            {m.image ? <img src={m.image} alt="" className="size-full object-cover" loading="lazy" /> : null}
          </span>
          <span>
            <RowLink to={`/admin/materials/${m.id}`}>{m.name}</RowLink>
            <span className="block text-xs text-muted">{m.series}</span>
          </span>
        </div>
      ),
    ],
    ["category", (m) => m.category],
    [
      "status",
      (m) => (
        <StatusChip on={m.published}>
          {t(m.published ? "console.materials.status.published" : "console.materials.status.draft")}
        </StatusChip>
      ),
    ],
    ["updated", (m) => formatTaipei(m.updatedAt, locale, "dateTime"), "tabular-nums"],
  ]);
  return (
    <CatalogListPage area="materials">
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.materials.submit")}
            columns="lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
            fields={[
              filter.search("q", filters.q, { placeholder: t("console.materials.searchHint") }),
              {
                name: "category",
                label: t("console.materials.category"),
                value: filters.category,
                options: loaderData.categories.map((c) => ({ value: c.id, label: c.name })),
              },
              filter.choice("status", filters.status, STATUSES, { any: true }),
              filter.choice("sort", filters.sort, SORTS),
            ]}
          />
        }
        empty={t("console.materials.empty")}
        emptyTestId="materials-empty"
        label={t("console.materials.title")}
        testId="materials-table"
        rows={loaderData.rows}
        rowKey={(m) => m.id}
        rowTestId="material-row"
        columns={columns}
        paging={{ kind: "more", href: loaderData.nextHref, label: t("console.materials.more") }}
      />
    </CatalogListPage>
  );
}
