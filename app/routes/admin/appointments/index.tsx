import { APPOINTMENT_KINDS, APPOINTMENT_STATUSES } from "@platform/db/schema/appointments";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput, FilterSelect } from "~/components/console/filter-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { NeedsCallBadge, useVisitWords, VisitStatusBadge } from "~/components/console/visits/visit-parts";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { listAppointments } from "~/domain/appointments/visits.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { addDays, type CalendarDate, taipeiDate } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.visits.title");

const VISIT_QUERY = {
  store: listField.text(40),
  from: listField.date(),
  to: listField.date(),
  kind: listField.choice(APPOINTMENT_KINDS, ""),
  status: listField.choice(APPOINTMENT_STATUSES, ""),
};
/** The longest range one list shows. */
const MAX_RANGE_DAYS = 62;

const isoOf = (d: CalendarDate) => `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;

/**
 * Appointments by store and day (issue 37, ADR 045): today at the store worked at unless the filters say otherwise;
 * a clerk sees only their stores (a store they may not pick is refused beside the field and lists nothing).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "counter.appointments");
  const app = getApp(context);
  const t = serverT(request);
  const query = parseListQuery(new URL(request.url), VISIT_QUERY);
  // No store in the address: the store worked at; `store=` (全部): every store the person may see.
  const stores = await storeChoicesFor(app.db, actor, getLocale(request));
  const today = taipeiDate(requestNow(request, app.config));
  const from = query.values.from ?? today;
  const to = query.values.to ?? from;
  const errors: Partial<Record<"store" | "from" | "to", string[]>> = {};
  if (query.issues.from) errors.from = [t("console.visits.error.date")];
  if (query.issues.to) errors.to = [t("console.visits.error.date")];
  const fromIso = isoOf(from);
  const toIso = isoOf(to);
  if (!errors.to && toIso < fromIso) errors.to = [t("console.visits.error.order")];
  else if (!errors.to && toIso > isoOf(addDays(from, MAX_RANGE_DAYS))) {
    errors.to = [t("console.visits.error.span", { days: String(MAX_RANGE_DAYS) })];
  }
  // The store worked at first, when the filter does not name one.
  const url = new URL(request.url);
  const store =
    !url.searchParams.has("store") && actor.currentStoreId && stores.some((s) => s.id === actor.currentStoreId)
      ? actor.currentStoreId
      : query.values.store;
  if (store && !stores.some((s) => s.id === store)) errors.store = [t("console.visits.error.store")];
  const valid = Object.keys(errors).length === 0;
  const list = valid
    ? await listAppointments(app.db, actor, {
        store,
        from: fromIso,
        to: toIso,
        kind: query.values.kind ?? "",
        status: query.values.status ?? "",
      })
    : { rows: [], truncated: false };
  return {
    filters: { ...query.raw, store, from: query.raw.from || fromIso, to: query.raw.to || toIso },
    errors,
    stores: stores.map((s) => ({ value: s.id, label: s.name })),
    rows: list.rows,
    truncated: list.truncated,
  };
}

export default function Appointments({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const words = useVisitWords();
  const { filters, errors, rows } = loaderData;
  return (
    <ConsolePage
      width="7xl"
      title={t("console.visits.title")}
      lead={t("console.visits.lead")}
      action={
        <Link to="/admin/appointments/follow-ups" className={buttonVariants({ variant: "secondary" })}>
          {t("console.visits.followUps.title")}
        </Link>
      }
    >
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.staff.filter")}
            label={t("console.visits.filters")}
            columns="lg:grid-cols-5"
          >
            <FilterSelect
              name="store"
              label={t("console.visits.col.store")}
              value={filters.store}
              options={loaderData.stores}
              errors={errors.store}
            />
            <FilterInput
              name="from"
              type="date"
              label={t("console.visits.from")}
              value={filters.from}
              errors={errors.from}
            />
            <FilterInput name="to" type="date" label={t("console.visits.to")} value={filters.to} errors={errors.to} />
            <FilterSelect
              name="kind"
              label={t("console.visits.col.kind")}
              value={filters.kind}
              options={APPOINTMENT_KINDS.map((k) => ({ value: k, label: t(`console.visits.kind.${k}`) }))}
            />
            <FilterSelect
              name="status"
              label={t("console.visits.col.status")}
              value={filters.status}
              options={APPOINTMENT_STATUSES.map((s) => ({ value: s, label: t(`console.visits.status.${s}`) }))}
            />
          </FilterBar>
        }
        count={
          loaderData.truncated
            ? t("console.visits.countTruncated", { count: rows.length })
            : t("console.visits.count", { count: rows.length })
        }
        countTestId="visit-count"
        empty={t("console.visits.empty")}
        rows={rows}
        label={t("console.visits.title")}
        rowKey={(r) => r.id}
        rowTestId="visit-row"
        columns={[
          {
            key: "when",
            header: t("console.visits.col.when"),
            className: "tabular-nums whitespace-nowrap",
            cell: (r) => (
              <RowLink to={`/admin/appointments/${r.id}`}>
                {words.day(r)} {words.time(r)}
              </RowLink>
            ),
          },
          { key: "kind", header: t("console.visits.col.kind"), cell: (r) => words.kind(r.kind) },
          {
            key: "who",
            header: t("console.visits.col.who"),
            cell: (r) => (r.memberId ? <Link to={`/admin/members/${r.memberId}`}>{words.who(r)}</Link> : words.who(r)),
          },
          { key: "store", header: t("console.visits.col.store"), cell: (r) => words.store(r) },
          {
            key: "status",
            header: t("console.visits.col.status"),
            cell: (r) => (
              <span className="flex flex-wrap gap-1">
                <VisitStatusBadge status={r.status} />
                {r.needsCall ? <NeedsCallBadge /> : null}
              </span>
            ),
          },
          {
            key: "consultant",
            header: t("console.visits.consultant"),
            cell: (r) => r.consultant?.displayName ?? t("console.visits.noConsultant"),
          },
        ]}
      />
    </ConsolePage>
  );
}
