import { ConsoleTable } from "~/components/console/console-list";
import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import type { VisitRow } from "~/domain/appointments/visits.server";
import { useVisitWords, VisitStatusBadge } from "./visit-parts";

/** The member's appointments on the console's member page (issue 37): kept, no-show, cancelled, to come. */
export function MemberAppointments({ rows }: { rows: VisitRow[] }) {
  const t = useConsoleT();
  const words = useVisitWords();
  return (
    <DetailSection id="visits-title" title={t("console.visits.member.title")} className="mt-6" testId="member-visits">
      {rows.length === 0 ? (
        <p className="text-sm text-muted">{t("console.visits.member.empty")}</p>
      ) : (
        <ConsoleTable
          labelledBy="visits-title"
          minWidth="28rem"
          rows={rows}
          rowKey={(r) => r.id}
          rowTestId="member-visit"
          columns={[
            {
              key: "when",
              header: t("console.visits.col.when"),
              className: "tabular-nums whitespace-nowrap",
              cell: (r) => (
                <Link to={`/admin/appointments/${r.id}`}>
                  {words.day(r)} {words.time(r)}
                </Link>
              ),
            },
            { key: "kind", header: t("console.visits.col.kind"), cell: (r) => words.kind(r.kind) },
            { key: "store", header: t("console.visits.col.store"), cell: (r) => words.store(r) },
            {
              key: "status",
              header: t("console.visits.col.status"),
              cell: (r) => <VisitStatusBadge status={r.status} />,
            },
          ]}
        />
      )}
    </DetailSection>
  );
}
