import { Form, redirect, useNavigation } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput, FilterSelect } from "~/components/console/filter-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { lastAuditCheck, runAuditCheck } from "~/domain/audit/chain-check.server";
import { AUDIT_MAX_RANGE_DAYS, auditActions, auditStaff, searchAuditLog } from "~/domain/audit/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { addDays, formatTaipei, fromTaipeiWallClock } from "~/lib/time";
import type { Route } from "./+types/index";
import { actionLabel, fieldLabel, valueWords } from "./change-words";

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
  const [page, actions, staff, stores, check] = await Promise.all([
    valid
      ? searchAuditLog(app.db, actor, {
          actorUserId: raw.who || null,
          action: raw.action || null,
          targetType: raw.targetType || null,
          targetId: raw.targetId || null,
          storeId: raw.store || null,
          from: fromAt,
          to: toAt,
          before,
        })
      : Promise.resolve({ rows: [], nextBefore: null }),
    auditActions(app.db, actor),
    auditStaff(app.db, actor),
    storeChoicesFor(app.db, actor, locale),
    lastAuditCheck(app.db),
  ]);
  const storeName = new Map(stores.map((s) => [s.id, s.name]));
  const next = new URLSearchParams(Object.entries(raw).filter(([, v]) => v));
  if (page.nextBefore) next.set("before", String(page.nextBefore));
  return {
    filters: raw,
    errors,
    actions: actions.map((a) => ({ value: a, label: actionLabel(a, t) })),
    staff,
    stores,
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
      seq: r.seq,
      occurredAt: r.occurredAt.toISOString(),
      who:
        r.actorType === "staff"
          ? (r.actorName ?? r.actorUserId ?? "")
          : r.actorType === "api_key"
            ? `POS：${r.apiKeyName ?? ""}`
            : (r.actorRole ?? "system"),
      role: r.actorType === "staff" ? r.actorRole : null,
      actorUserId: r.actorUserId,
      action: r.action,
      actionLabel: actionLabel(r.action, t),
      targetType: r.targetType,
      targetId: r.targetId,
      store: r.storeId ? (storeName.get(r.storeId) ?? r.storeId) : null,
      changes: Object.entries(r.changes ?? {}).map(([field, change]) => ({
        field,
        label: fieldLabel(field, t),
        before: valueWords(change.before, t, locale),
        after: valueWords(change.after, t, locale),
      })),
      ip: r.ip,
      requestId: r.requestId,
    })),
    nextHref: page.nextBefore ? `/admin/audit?${next.toString()}` : null,
  };
}

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

type CheckStatus = Route.ComponentProps["loaderData"]["check"];

/** The chain check's status line: intact, cut off at the end, rewritten, a signed head that does not verify, broken. */
function checkText(check: CheckStatus, t: ReturnType<typeof useConsoleT>, locale: ReturnType<typeof useLocale>) {
  if (!check) return t("console.audit.check.never");
  const time = formatTaipei(check.checkedAt, locale, "dateTime");
  if (check.ok) return t("console.audit.check.ok", { rows: check.rows.toLocaleString("en-US"), time });
  const signedAt = check.signedAt ? formatTaipei(check.signedAt, locale, "dateTime") : "—";
  if (check.reason === "truncated" && check.lastSeq !== null && check.signedSeq !== null) {
    return t("console.audit.check.truncated", {
      lastSeq: String(check.lastSeq),
      signedSeq: String(check.signedSeq),
      count: String(check.signedSeq - check.lastSeq),
      signedAt,
      time,
    });
  }
  if (check.reason === "rewritten")
    return t("console.audit.check.rewritten", { seq: String(check.seq), signedAt, time });
  if (check.reason === "signed_head_invalid") return t("console.audit.check.signedHeadInvalid", { time });
  return t("console.audit.check.broken", { seq: String(check.seq), reason: check.reason ?? "", time });
}

export default function AuditLog({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const navigation = useNavigation();
  const { filters, errors, check } = loaderData;
  return (
    <ConsolePage title={t("console.audit.title")} lead={t("console.audit.lead")}>
      <div
        className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-line bg-white p-4"
        data-testid="audit-check"
      >
        <p className={cn("text-sm", check && !check.ok && "font-medium text-danger-800")}>
          {checkText(check, t, locale)}
        </p>
        <Form method="post">
          <Button type="submit" size="sm" variant="secondary" pending={navigation.state === "submitting"}>
            {t("console.audit.check.run")}
          </Button>
        </Form>
      </div>
      {loaderData.checked && check?.ok ? (
        <Alert tone="success" className="mt-3">
          {t("console.audit.check.done")}
        </Alert>
      ) : null}

      <Form
        method="get"
        role="search"
        aria-label={t("console.audit.filters")}
        className="mt-6 grid gap-3 rounded-2xl border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-4"
      >
        <FilterSelect
          name="who"
          label={t("console.audit.who")}
          value={filters.who}
          options={loaderData.staff.map((s) => ({ value: s.userId, label: s.displayName }))}
        />
        <FilterSelect
          name="action"
          label={t("console.audit.action")}
          value={filters.action}
          options={loaderData.actions}
        />
        <FilterInput name="targetType" label={t("console.audit.targetType")} value={filters.targetType} />
        <FilterInput name="targetId" label={t("console.audit.targetId")} value={filters.targetId} />
        <FilterSelect
          name="store"
          label={t("console.audit.store")}
          value={filters.store}
          options={loaderData.stores.map((s) => ({ value: s.id, label: s.name }))}
        />
        <FilterInput
          name="from"
          type="date"
          label={t("console.audit.from")}
          value={filters.from}
          errors={errors.from}
        />
        <FilterInput name="to" type="date" label={t("console.audit.to")} value={filters.to} errors={errors.to} />
        <div className="flex items-end gap-2">
          <Button type="submit" variant="secondary">
            {t("console.staff.filter")}
          </Button>
          <Link to="/admin/audit" className="min-h-11 px-2 py-3 text-sm text-muted underline underline-offset-4">
            {t("console.audit.clear")}
          </Link>
        </div>
      </Form>

      {loaderData.rows.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-line bg-white p-6 text-center text-muted">
          {t("console.audit.empty")}
        </p>
      ) : (
        <ol className="mt-6 space-y-3" data-testid="audit-rows">
          {loaderData.rows.map((r) => (
            <li key={r.seq} className="rounded-2xl border border-line bg-white p-4" data-testid="audit-row">
              <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1">
                <p className="text-sm font-medium" data-action={r.action}>
                  {r.actionLabel}
                </p>
                <p className="text-sm text-muted tabular-nums">
                  #{r.seq} · {formatTaipei(r.occurredAt, locale, "dateTime")}
                </p>
              </div>
              <p className="mt-1 text-sm">
                {r.actorUserId ? (
                  <Link
                    to={`/admin/audit?who=${encodeURIComponent(r.actorUserId)}`}
                    className="font-medium underline decoration-line underline-offset-4"
                  >
                    {r.who}
                  </Link>
                ) : (
                  <span className="font-medium">{r.who}</span>
                )}
                {r.role ? (
                  <span className="ml-2 text-muted">{t(`console.role.${r.role}` as "console.role.staff")}</span>
                ) : null}
                {r.store ? <span className="ml-2 text-muted">· {r.store}</span> : null}
                <span className="ml-2 text-muted">
                  → {r.targetType}
                  {r.targetId ? (
                    <Link
                      to={`/admin/audit?targetType=${encodeURIComponent(r.targetType)}&targetId=${encodeURIComponent(r.targetId)}`}
                      className="ml-1 break-all underline decoration-line underline-offset-4"
                    >
                      {r.targetId}
                    </Link>
                  ) : null}
                </span>
              </p>
              {r.changes.length ? (
                <dl className="mt-2 grid gap-x-4 gap-y-1 rounded-xl bg-sand/50 p-3 text-xs sm:grid-cols-[auto_1fr]">
                  {r.changes.map((c) => (
                    <div key={c.field} className="contents">
                      <dt className="font-medium">{c.label}</dt>
                      <dd className="break-words">
                        {c.before} → {c.after}
                      </dd>
                    </div>
                  ))}
                </dl>
              ) : null}
              <p className="mt-2 text-xs text-muted">
                {r.ip ? `IP ${r.ip}` : ""}
                {r.requestId ? ` · ${t("console.audit.request")} ${r.requestId}` : ""}
              </p>
            </li>
          ))}
        </ol>
      )}
      {loaderData.nextHref ? (
        <p className="mt-6 text-center">
          <Link to={loaderData.nextHref} className="underline underline-offset-4">
            {t("console.audit.older")}
          </Link>
        </p>
      ) : null}
    </ConsolePage>
  );
}
