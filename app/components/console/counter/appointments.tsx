import { Form, useNavigation } from "react-router";
import { NeedsCallBadge, useVisitWords, VisitStatusBadge } from "~/components/console/visits/visit-parts";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import type { VisitRow } from "~/domain/appointments/visits.server";
import { useConsoleT } from "../use-console-t";
import { ListPanel } from "./lists";

/**
 * Today's appointments at the counter (issue 37, ADR 045): time, kind, who, the materials of interest, the note,
 * the status, the consultant; a booked one has its check-in button (the card scan checks in by itself when the
 * member has exactly one booking here today).
 */
export function TodayAppointments({
  rows,
  canCheckIn,
  title,
  testId = "counter-appointments",
}: {
  rows: VisitRow[];
  canCheckIn: boolean;
  title?: string;
  testId?: string;
}) {
  const t = useConsoleT();
  const words = useVisitWords();
  const navigation = useNavigation();
  const pendingId = navigation.state !== "idle" ? navigation.formData?.get("appointmentId") : null;
  return (
    <ListPanel
      title={title ?? t("console.visits.today.title")}
      empty={t("console.visits.today.empty")}
      testId={testId}
      className="mt-6"
    >
      {rows.map((v) => (
        <li key={v.id} className="py-3" data-testid="counter-appointment" data-reference={v.reference}>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <p className="flex flex-wrap items-center gap-2">
                <span className="font-semibold tabular-nums">{words.time(v)}</span>
                <span>{words.kind(v.kind)}</span>
                <VisitStatusBadge status={v.status} />
                {v.needsCall ? <NeedsCallBadge /> : null}
              </p>
              <p className="mt-1 text-ink">
                {v.memberId ? (
                  <Link to={`/admin/counter/member/${v.memberId}`} className="font-medium">
                    {words.who(v)}
                  </Link>
                ) : (
                  <span className="font-medium">{words.who(v)}</span>
                )}
                <span className="ml-2 font-mono text-sm text-muted">{v.reference}</span>
              </p>
              {v.materials.length ? (
                <p className="mt-1 text-sm text-muted">
                  {t("console.visits.materials")}：{words.materials(v)}
                </p>
              ) : null}
              {v.note ? (
                <p className="mt-1 text-sm break-words text-muted">
                  {t("console.visits.note")}：{v.note}
                </p>
              ) : null}
              <p className="mt-1 text-sm text-muted">
                {t("console.visits.consultant")}：{v.consultant?.displayName ?? t("console.visits.noConsultant")}
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              {canCheckIn && v.status === "booked" ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="checkin" />
                  <input type="hidden" name="appointmentId" value={v.id} />
                  <Button type="submit" size="lg" pending={pendingId === v.id} data-testid="check-in">
                    {t("console.visits.checkIn")}
                  </Button>
                </Form>
              ) : null}
              <Link
                to={`/admin/appointments/${v.id}`}
                className="inline-flex min-h-11 items-center px-2 text-sm"
                aria-label={t("console.visits.openLabel", { reference: v.reference })}
              >
                {t("console.visits.open")}
              </Link>
            </div>
          </div>
        </li>
      ))}
    </ListPanel>
  );
}
