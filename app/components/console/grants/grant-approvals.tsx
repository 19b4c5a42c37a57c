import { FieldRow } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";

/** A bulk grant waiting for a second admin, as the approvals page lists it (issue 35 item 5, ADR 023). */
export type PendingGrant = {
  id: string;
  reason: string;
  total: number;
  rows: number;
  starterName: string | null;
  createdAt: string;
  own: boolean;
};

/**
 * The grants waiting for approval, beside the pending adjustments: the total, the rows to book, who started it,
 * why and when; the decision is taken on the grant's own page (its refused rows and the limit are there). The
 * starter's own grants are listed too, marked as someone else's to decide.
 */
export function PendingGrants({ grants }: { grants: PendingGrant[] }) {
  const t = useConsoleT();
  const locale = useLocale();
  const n = (v: number) => v.toLocaleString("en-US");
  return (
    <section className="mt-10" aria-labelledby="approvals-grants-title" data-testid="approvals-grants">
      <h2 id="approvals-grants-title" className="font-serif text-xl font-semibold">
        {t("console.grants.approvals.title")}
      </h2>
      {grants.length === 0 ? (
        <p
          className="mt-3 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="approvals-grants-empty"
        >
          {t("console.grants.approvals.empty")}
        </p>
      ) : (
        <ul className="mt-4 space-y-4">
          {grants.map((g) => (
            <li
              key={g.id}
              className="rounded-2xl border border-line bg-white p-5"
              data-testid="approval-grant"
              data-grant-id={g.id}
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <p className="max-w-prose break-words font-medium">{g.reason}</p>
                <p className="font-serif text-2xl font-semibold tabular-nums text-brand-700">
                  {t("console.grants.approvals.total", { points: n(g.total) })}
                </p>
              </div>
              <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
                <FieldRow label={t("console.grants.approvals.rows")} className="tabular-nums">
                  {n(g.rows)}
                </FieldRow>
                <FieldRow label={t("console.grants.starter")}>{g.starterName ?? "—"}</FieldRow>
                <FieldRow label={t("console.approvals.requestedAt")} className="tabular-nums">
                  {formatTaipei(g.createdAt, locale, "dateTime")}
                </FieldRow>
              </dl>
              <div className="mt-4 flex flex-wrap items-center gap-3">
                {g.own ? <p className="text-sm text-muted">{t("console.grants.approvals.own")}</p> : null}
                <Link
                  to={`/admin/grants/${g.id}`}
                  className={buttonVariants({ variant: g.own ? "secondary" : "primary", size: "sm" })}
                  data-testid="approval-grant-open"
                >
                  {g.own ? t("console.grants.approvals.view") : t("console.grants.approvals.decide")}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
