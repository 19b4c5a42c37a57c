import { Form, redirectDocument } from "react-router";
import { requireRecentSecondFactorFor } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput, FilterSelect } from "~/components/console/filter-fields";
import { MoreLink } from "~/components/console/pager";
import { StepUpField } from "~/components/console/step-up-field";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { ErrorList } from "~/components/ui/field";
import { inputClass } from "~/components/ui/input-class";
import { Link } from "~/components/ui/link";
import { TIER_ORDER as TIERS } from "~/domain/loyalty/tier-names";
import { searchMembers } from "~/domain/members/console-search.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";
import { memberExportPath, memberFilters } from "./filters.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.members.title");

/** Member search (any staff; names in full for managers and admins): one box, filters, 25 a page. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "member.view");
  const app = getApp(context);
  const t = serverT(request);
  // A manager filters by their own stores only; an admin by every store.
  const stores = await storeChoicesFor(app.db, actor, getLocale(request));
  const { filters, errors, search, valid } = memberFilters(new URL(request.url), t, stores);
  const result = valid
    ? await searchMembers(app.db, actor, search)
    : { kind: "all" as const, rows: [], nextAfter: null };
  const next = new URLSearchParams(Object.entries(filters).filter(([, v]) => v));
  if (result.nextAfter) next.set("after", result.nextAfter);
  return {
    filters,
    errors,
    stores,
    kind: result.kind,
    rows: result.rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    nextHref: result.nextAfter ? `/admin/members?${next.toString()}` : null,
    canExport: hasPermission(actor, "member.export"),
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
  const { filters } = memberFilters(new URL(request.url), serverT(request), stores);
  return redirectDocument(memberExportPath(filters));
}

export default function MemberSearch({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { filters, errors } = loaderData;
  return (
    <ConsolePage title={t("console.members.title")} lead={t("console.members.lead")}>
      <Form method="get" role="search" className="mt-6 space-y-4 rounded-2xl border border-line bg-white p-4">
        <label className="block text-sm">
          <span className="block font-medium">{t("console.members.search")}</span>
          <input
            type="search"
            name="q"
            defaultValue={filters.q}
            placeholder={t("console.members.searchHint")}
            aria-invalid={errors.q ? true : undefined}
            aria-describedby={errors.q ? "members-q-error" : undefined}
            className={cn(inputClass, "mt-1")}
          />
          <ErrorList id="members-q-error" errors={errors.q} />
        </label>
        <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-6">
          <FilterSelect
            name="tier"
            label={t("console.members.tier")}
            value={filters.tier}
            options={TIERS.map((tier) => ({ value: tier, label: t(`console.counter.tier.${tier}`) }))}
          />
          <FilterSelect
            name="status"
            label={t("console.staff.status")}
            value={filters.status}
            options={[
              { value: "active", label: t("console.staff.status.active") },
              { value: "disabled", label: t("console.staff.status.disabled") },
            ]}
          />
          <FilterSelect
            name="line"
            label={t("console.members.line")}
            value={filters.line}
            options={[
              { value: "yes", label: t("console.members.line.yes") },
              { value: "no", label: t("console.members.line.no") },
            ]}
          />
          <FilterSelect
            name="store"
            label={t("console.members.lastStore")}
            value={filters.store}
            options={loaderData.stores.map((s) => ({ value: s.id, label: s.name }))}
            errors={errors.store}
          />
          <FilterInput
            name="from"
            type="date"
            label={t("console.members.signedUpFrom")}
            value={filters.from}
            errors={errors.from}
          />
          <FilterInput
            name="to"
            type="date"
            label={t("console.members.signedUpTo")}
            value={filters.to}
            errors={errors.to}
          />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit">{t("console.members.submit")}</Button>
        </div>
      </Form>
      {loaderData.canExport ? <ExportForm /> : null}

      {loaderData.rows.length === 0 ? (
        <p
          className="mt-6 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="members-empty"
        >
          {loaderData.searched ? t("console.members.empty") : t("console.members.none")}
        </p>
      ) : (
        <TableScroll label={t("console.members.title")} className="mt-6 rounded-2xl border border-line">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="members-table">
            <thead className="border-b border-line bg-sand/50 text-muted">
              <tr>
                {(["number", "name", "phone", "tier", "balance", "since"] as const).map((col) => (
                  <th key={col} scope="col" className="px-4 py-3 font-medium">
                    {t(`console.members.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.rows.map((m) => (
                <tr key={m.id} data-testid="member-row">
                  <td className="px-4 py-3 font-mono">
                    <Link
                      to={`/admin/members/${m.id}`}
                      className="underline decoration-line underline-offset-4 hover:decoration-ink"
                    >
                      {m.memberNumber}
                    </Link>
                  </td>
                  <td className="px-4 py-3">
                    {m.name}
                    {m.disabled ? (
                      <span className="ml-2 rounded-full bg-danger-700/10 px-2 py-0.5 text-xs text-danger-800">
                        {m.deleted ? t("console.members.deleted") : t("console.staff.disabledBadge")}
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3 font-mono tabular-nums">{m.phone}</td>
                  <td className="px-4 py-3">{t(`console.counter.tier.${m.tier}` as "console.counter.tier.basic")}</td>
                  <td className="px-4 py-3 tabular-nums">{m.balance.toLocaleString("en-US")}</td>
                  <td className="px-4 py-3 tabular-nums">{formatTaipei(m.createdAt, locale, "date")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <MoreLink href={loaderData.nextHref} label={t("console.members.more")} />
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
