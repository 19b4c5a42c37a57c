import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { AuditCheck } from "~/components/console/audit/audit-check";
import { AuditEntry } from "~/components/console/audit/audit-entry";
import { actionLabel, fieldLabel, targetLabel, valueWords } from "~/components/console/audit/change-words";
import { ConsoleList, FilterBar } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput, FilterSelect } from "~/components/console/filter-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import { lastAuditCheck, runAuditCheck } from "~/domain/audit/chain-check.server";
import { AUDIT_MAX_RANGE_DAYS, auditActions, auditStaff, searchAuditLog } from "~/domain/audit/console.server";
import { AUDIT_TARGET_TYPES } from "~/domain/audit/target-types";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, listHref, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { addDays, fromTaipeiWallClock } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.audit.title");

const AUDIT_QUERY = {
  who: listField.text(200),
  action: listField.text(200),
  targetType: listField.text(200),
  targetId: listField.text(200),
  store: listField.text(200),
  from: listField.date(),
  to: listField.date(),
  before: listField.int(1, Number.MAX_SAFE_INTEGER, null),
};
type FilterName = Exclude<keyof typeof AUDIT_QUERY, "before">;

/** The audit log (admins): filters in the URL, Taipei days, newest first, 50 a page; the chain check's status. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "audit.view");
  const t = serverT(request);
  const url = new URL(request.url);
  const query = parseListQuery(url, AUDIT_QUERY);
  const { before: _before, ...raw } = query.raw;
  const { from, to, before } = query.values;
  const errors: Partial<Record<FilterName, string[]>> = {};
  if (query.issues.from) errors.from = [t("console.audit.error.date")];
  if (query.issues.to) errors.to = [t("console.audit.error.date")];
  const fromAt = from ? fromTaipeiWallClock(from) : null;
  const toAt = to ? fromTaipeiWallClock(addDays(to, 1)) : null;
  if (fromAt && toAt && toAt <= fromAt) errors.to = [t("console.audit.error.order")];
  else if (fromAt && toAt && toAt.getTime() - fromAt.getTime() > AUDIT_MAX_RANGE_DAYS * 86_400_000) {
    errors.to = [t("console.audit.error.span")];
  }
  const locale = getLocale(request);
  const valid = Object.keys(errors).length === 0;
  const search = { actorUserId: raw.who, action: raw.action, targetType: raw.targetType, targetId: raw.targetId };
  const [page, actions, staff, stores, check] = await Promise.all([
    valid
      ? searchAuditLog(app.db, actor, { ...search, storeId: raw.store, from: fromAt, to: toAt, before })
      : Promise.resolve({ rows: [], nextBefore: null }),
    auditActions(app.db, actor),
    auditStaff(app.db, actor),
    storeChoicesFor(app.db, actor, locale),
    lastAuditCheck(app.db),
  ]);
  const storeName = new Map(stores.map((s) => [s.id, s.name]));
  const who = (r: (typeof page.rows)[number]) =>
    r.actorType === "staff"
      ? (r.actorName ?? r.actorUserId ?? "")
      : r.actorType === "api_key"
        ? `POS：${r.apiKeyName ?? ""}`
        : (r.actorRole ?? "system");
  const targetTypes = [...AUDIT_TARGET_TYPES, ...(raw.targetType && !isKnown(raw.targetType) ? [raw.targetType] : [])];
  return {
    filters: raw,
    errors,
    actions: actions.map((a) => ({ value: a, label: actionLabel(a, t) })),
    targetTypes: targetTypes.map((type) => ({ value: type, label: targetLabel(type, t) })),
    staff: staff.map((s) => ({ value: s.userId, label: s.displayName })),
    stores: stores.map((s) => ({ value: s.id, label: s.name })),
    check: check && {
      ok: check.ok,
      rows: check.rows,
      seq: check.ok ? null : check.seq,
      reason: check.ok ? null : check.reason,
      lastSeq: check.lastSeq ?? null,
      signedSeq: check.signedSeq ?? null,
      signedAt: check.signedAt ?? null,
      checkedAt: check.checkedAt,
    },
    checked: url.searchParams.get("checked") === "1",
    rows: page.rows.map((r) => ({
      ...r,
      occurredAt: r.occurredAt.toISOString(),
      who: who(r),
      role: r.actorType === "staff" ? r.actorRole : null,
      actionLabel: actionLabel(r.action, t),
      targetLabel: targetLabel(r.targetType, t),
      store: r.storeId ? (storeName.get(r.storeId) ?? r.storeId) : null,
      changes: Object.entries(r.changes ?? {}).map(([field, change]) => ({
        field,
        label: fieldLabel(field, t),
        before: valueWords(change.before, t, locale),
        after: valueWords(change.after, t, locale),
      })),
    })),
    nextHref: page.nextBefore ? listHref("/admin/audit", AUDIT_QUERY, query, { before: page.nextBefore }) : null,
  };
}

const isKnown = (type: string) => (AUDIT_TARGET_TYPES as readonly string[]).includes(type);

/** Runs the chain check now (otherwise hourly). */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "audit.view");
  await readForm(request);
  await runAuditCheck(
    { db: app.db, anchor: app.config.auditAnchor, logger: app.logger },
    requestNow(request, app.config),
  );
  return redirect("/admin/audit?checked=1");
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const { filters, errors } = loaderData;
  const select = (name: "who" | "action" | "targetType" | "store", options: { value: string; label: string }[]) => (
    <FilterSelect name={name} label={t(`console.audit.${name}`)} value={filters[name]} options={options} />
  );
  return (
    <ConsolePage title={t("console.audit.title")} lead={t("console.audit.lead")}>
      <AuditCheck check={loaderData.check} checked={loaderData.checked} />
      <ConsoleList
        filters={
          <FilterBar
            submitLabel={t("console.staff.filter")}
            label={t("console.audit.filters")}
            columns="lg:grid-cols-4"
          >
            {select("who", loaderData.staff)}
            {select("action", loaderData.actions)}
            {select("targetType", loaderData.targetTypes)}
            <FilterInput name="targetId" label={t("console.audit.targetId")} value={filters.targetId} />
            {select("store", loaderData.stores)}
            {(["from", "to"] as const).map((name) => (
              <FilterInput
                key={name}
                name={name}
                type="date"
                label={t(`console.audit.${name}`)}
                value={filters[name]}
                errors={errors[name]}
              />
            ))}
            <Link
              to="/admin/audit"
              className="min-h-11 self-end px-2 py-3 text-sm text-muted underline underline-offset-4"
            >
              {t("console.audit.clear")}
            </Link>
          </FilterBar>
        }
        empty={t("console.audit.empty")}
        rows={loaderData.rows}
        rowKey={(r) => String(r.pos)}
        columns={[]}
        paging={{ kind: "more", href: loaderData.nextHref, label: t("console.audit.older") }}
      >
        <ol className="mt-6 space-y-3" data-testid="audit-rows">
          {loaderData.rows.map((r) => (
            <AuditEntry key={r.pos} row={r} />
          ))}
        </ol>
      </ConsoleList>
    </ConsolePage>
  );
}
