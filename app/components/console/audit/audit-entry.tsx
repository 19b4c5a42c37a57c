import { Link } from "~/components/ui/link";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useConsoleT } from "../use-console-t";

export type AuditEntryRow = {
  seq: number;
  occurredAt: string;
  who: string;
  role: string | null;
  actorUserId: string | null;
  action: string;
  actionLabel: string;
  targetType: string;
  targetLabel: string;
  targetId: string | null;
  store: string | null;
  changes: { field: string; label: string; before: string; after: string }[];
  ip: string | null;
  requestId: string | null;
};

const quiet = "underline decoration-line underline-offset-4";

/** One row of the audit log, as a card: what, when, who (a link to their rows), on what, the changed fields. */
export function AuditEntry({ row: r }: { row: AuditEntryRow }) {
  const t = useConsoleT();
  const locale = useLocale();
  const target = `/admin/audit?targetType=${encodeURIComponent(r.targetType)}&targetId=${encodeURIComponent(r.targetId ?? "")}`;
  return (
    <li className="rounded-2xl border border-line bg-white p-4 [overflow-wrap:anywhere]" data-testid="audit-row">
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
          <Link to={`/admin/audit?who=${encodeURIComponent(r.actorUserId)}`} className={`font-medium ${quiet}`}>
            {r.who}
          </Link>
        ) : (
          <span className="font-medium">{r.who}</span>
        )}
        {r.role ? <span className="ml-2 text-muted">{t(`console.role.${r.role}` as "console.role.staff")}</span> : null}
        {r.store ? <span className="ml-2 text-muted">· {r.store}</span> : null}
        <span className="ml-2 text-muted">
          → <span data-target-type={r.targetType}>{r.targetLabel}</span>
          {r.targetId ? (
            <Link to={target} className={`ml-1 break-all ${quiet}`}>
              {r.targetId}
            </Link>
          ) : null}
        </span>
      </p>
      {r.changes.length ? (
        <dl className="mt-2 grid grid-cols-[minmax(0,1fr)] gap-x-4 gap-y-1 rounded-xl bg-sand/50 p-3 text-xs sm:grid-cols-[auto_minmax(0,1fr)]">
          {r.changes.map((c) => (
            <div key={c.field} className="contents">
              <dt className="font-medium">{c.label}</dt>
              <dd className="min-w-0">
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
  );
}
