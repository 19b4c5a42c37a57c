import type { AppointmentKind, AppointmentStatus } from "@platform/db/schema/appointments";
import { StatusBadge } from "~/components/console/status-badge";
import { useConsoleT } from "~/components/console/use-console-t";
import type { VisitRow } from "~/domain/appointments/visits.server";
import { useLocale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import { formatTaipei } from "~/lib/time";

/** Showroom visits' small pieces (issue 37, ADR 045): the status chip, the kind, the time, the materials. */

const TONES: Record<AppointmentStatus, string> = {
  booked: "bg-brand-50 text-brand-800",
  checked_in: "bg-emerald-50 text-emerald-800",
  no_show: "bg-amber-100 text-amber-900",
  cancelled: "bg-line/60 text-muted",
};

export function VisitStatusBadge({ status }: { status: AppointmentStatus }) {
  const t = useConsoleT();
  return (
    <StatusBadge
      status={status}
      label={t(`console.visits.status.${status}`)}
      tone={TONES[status]}
      testId="visit-status"
    />
  );
}

/** The "needs a call" flag: a store holiday fell on the booking after it was made. */
export function NeedsCallBadge() {
  const t = useConsoleT();
  return (
    <StatusBadge
      status="needs_call"
      label={t("console.visits.needsCall")}
      tone="bg-danger-700/10 text-danger-800"
      testId="visit-needs-call"
    />
  );
}

export function useVisitWords() {
  const t = useConsoleT();
  const locale = useLocale();
  return {
    kind: (kind: AppointmentKind) => t(`console.visits.kind.${kind}`),
    time: (v: Pick<VisitRow, "startsAt" | "endsAt">) =>
      `${formatTaipei(v.startsAt, locale, "time")}–${formatTaipei(v.endsAt, locale, "time")}`,
    day: (v: Pick<VisitRow, "startsAt">) => formatTaipei(v.startsAt, locale, "date"),
    materials: (v: Pick<VisitRow, "materials">) => v.materials.map((m) => pick(m.name, locale) || m.id).join("、"),
    store: (v: Pick<VisitRow, "storeName" | "storeId">) => pick(v.storeName, locale) || v.storeId,
    who: (v: Pick<VisitRow, "name" | "guest">) => (v.guest ? t("console.visits.guest", { name: v.name }) : v.name),
  };
}
