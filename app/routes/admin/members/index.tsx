import { Form, redirectDocument } from "react-router";
import { requireRecentSecondFactorFor } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput, FilterSelect } from "~/components/console/filter-fields";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { TIER_ORDER as TIERS } from "~/domain/loyalty/tier-names";
import { searchMembers } from "~/domain/members/console-search.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";
import { memberFilters } from "./filters.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.members.title");

/** Member search (any staff; names in full for managers and admins): one box, filters, 25 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "member.view");
  const app = getApp(context);
  // A manager filters by their own stores only; an admin by every store.
  const stores = await storeChoicesFor(app.db, actor, getLocale(request));
  const { filters, errors, search, href, valid } = memberFilters(new URL(request.url), serverT(request), stores);
  const result = valid ? await searchMembers(app.db, actor, search) : { rows: [], nextAfter: null };
  return {
    filters,
    errors,
    stores,
    rows: result.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    nextHref: result.nextAfter ? href("/admin/members", result.nextAfter) : null,
    canExport: hasPermission(actor, "member.export"),
    // A bulk point grant to the members of these filters (issue 35 item 5): the new grant reads the same query.
    grantHref: hasPermission(actor, "points.bulk") && valid ? withFrom(href("/admin/grants/new", null)) : null,
    searched: Object.values(filters).some(Boolean),
  };
}

/**
 * The CSV export of the list as filtered (`member.export`), after the step-up code when the second factor is not
 * recent: the form comes back with the code field (401, or 400 for a wrong code); then the export itself is
 * loaded as a document, so the browser downloads it and the list stays.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "member.export");
  const app = getApp(context);
  const form = await readForm(request);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  const stores = await storeChoicesFor(app.db, actor, getLocale(request));
  const { href } = memberFilters(new URL(request.url), serverT(request), stores);
  return redirectDocument(href("/admin/members/export", null));
}

function withFrom(href: string): string {
  return `${href}${href.includes("?") ? "&" : "?"}source=members`;
}

const DATE_LABELS = { from: "console.members.signedUpFrom", to: "console.members.signedUpTo" } as const;

export default function MemberSearch({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { filters, errors } = loaderData;
  const choices = (values: readonly string[], key: (v: string) => string) =>
    values.map((value) => ({ value, label: t(key(value) as "console.members.title") }));
  const selects = [
    { name: "tier", label: t("console.members.tier"), options: choices(TIERS, (v) => `console.counter.tier.${v}`) },
    {
      name: "status",
      label: t("console.staff.status"),
      options: choices(["active", "disabled"], (v) => `console.staff.status.${v}`),
    },
    {
      name: "line",
      label: t("console.members.line"),
      options: choices(["yes", "no"], (v) => `console.members.line.${v}`),
    },
    {
      name: "store",
      label: t("console.members.lastStore"),
      options: loaderData.stores.map((s) => ({ value: s.id, label: s.name })),
    },
  ] as const;
  return (
    <ConsolePage title={t("console.members.title")} lead={t("console.members.lead")}>
      <ConsoleList
        filters={
          <>
            <FilterBar submitLabel={t("console.members.submit")} columns="lg:grid-cols-3 xl:grid-cols-6">
              <div className="sm:col-span-2 lg:col-span-3 xl:col-span-6">
                <FilterInput
                  type="search"
                  name="q"
                  label={t("console.members.search")}
                  placeholder={t("console.members.searchHint")}
                  value={filters.q}
                  errors={errors.q}
                />
              </div>
              {selects.map((f) => (
                <FilterSelect key={f.name} {...f} value={filters[f.name]} errors={errors[f.name]} />
              ))}
              {(["from", "to"] as const).map((name) => (
                <FilterInput
                  key={name}
                  name={name}
                  type="date"
                  label={t(DATE_LABELS[name])}
                  value={filters[name]}
                  errors={errors[name]}
                />
              ))}
            </FilterBar>
            {loaderData.canExport ? <ExportForm /> : null}
            {loaderData.grantHref ? (
              <Link
                to={loaderData.grantHref}
                className={`${buttonVariants({ variant: "secondary" })} mt-3`}
                data-testid="members-grant"
              >
                {t("console.grants.fromMembers")}
              </Link>
            ) : null}
          </>
        }
        empty={loaderData.searched ? t("console.members.empty") : t("console.members.none")}
        emptyTestId="members-empty"
        label={t("console.members.title")}
        testId="members-table"
        rows={loaderData.rows}
        rowKey={(m) => m.id}
        rowTestId="member-row"
        className="mt-6"
        columns={[
          {
            key: "number",
            header: t("console.members.col.number"),
            className: "font-mono",
            cell: (m) => <RowLink to={`/admin/members/${m.id}`}>{m.memberNumber}</RowLink>,
          },
          {
            key: "name",
            header: t("console.members.col.name"),
            cell: (m) => (
              <>
                {m.name}
                {m.disabled ? (
                  <span className="ml-2 rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                    {m.deleted ? t("console.members.deleted") : t("console.staff.disabledBadge")}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            key: "phone",
            header: t("console.members.col.phone"),
            className: "font-mono tabular-nums",
            cell: (m) => m.phone,
          },
          {
            key: "tier",
            header: t("console.members.col.tier"),
            cell: (m) => t(`console.counter.tier.${m.tier}` as "console.counter.tier.basic"),
          },
          {
            key: "balance",
            header: t("console.members.col.balance"),
            className: "tabular-nums",
            cell: (m) => m.balance.toLocaleString("en-US"),
          },
          {
            key: "since",
            header: t("console.members.col.since"),
            className: "tabular-nums",
            cell: (m) => formatTaipei(m.createdAt, locale, "date"),
          },
        ]}
        paging={{ kind: "more", href: loaderData.nextHref, label: t("console.members.more") }}
      />
    </ConsolePage>
  );
}

/**
 * The export of the list as filtered (posted to this page with its filters), with the code field once the server
 * asked for it (not before: it would take the focus from the search box).
 */
function ExportForm() {
  const t = useConsoleT();
  const form = useFormState();
  const asked = Boolean((form.state as { stepUp?: boolean } | undefined)?.stepUp);
  return (
    <Form method="post" className="mt-3 flex flex-wrap items-end gap-3" data-testid="member-export">
      <StepUpField show={asked} errors={form.errors("stepUpCode")} />
      <Button type="submit" variant="secondary">
        {t("console.members.export")}
      </Button>
    </Form>
  );
}
