import type { AppointmentKind } from "@platform/db/schema/appointments";
import { share as visitShare } from "~/domain/reports/filters";
import type { Showroom } from "~/domain/reports/showroom.server";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";
import { useFigureFormat } from "./format";
import { FigureTable, Kpi, Panel } from "./panel";

/**
 * The dashboard's 展示廳 section (ADR 048): headline figures, then one panel per part (appointments, purchases
 * after a visit, samples, quotes), each with its CSV.
 */
export function ShowroomSection({
  showroom: s,
  csv,
  storeName,
}: {
  showroom: Showroom;
  csv: (panel: string) => string;
  storeName: Map<string, string>;
}) {
  const t = useConsoleT();
  const f = useFigureFormat();
  const kind = (k: AppointmentKind) => t(`console.dashboard.showroom.kind.${k}` as MessageKey);
  const label = (r: { storeId: string; kind: AppointmentKind }) =>
    `${storeName.get(r.storeId) || r.storeId} · ${kind(r.kind)}`;
  const total = t("console.dashboard.showroom.total");
  const a = s.appointments.total;
  const v = s.visits.total;
  const shareCell = (part: number, kept: number) => `${f.pct(visitShare(part, kept))} (${f.n(part)})`;
  const visitCells = (r: Showroom["visits"]["total"]) => [
    f.n(r.kept),
    shareCell(r.bought30, r.kept),
    f.ntd(r.amount30),
    shareCell(r.bought90, r.kept),
    f.ntd(r.amount90),
  ];
  const appointmentCells = (r: Showroom["appointments"]["total"]) =>
    [r.booked, r.upcoming, r.kept, r.noShow, r.cancelled].map(f.n);
  const store = (id: string) => storeName.get(id) || id;
  const sm = s.samples.total;
  const q = s.quotes.total;
  const sampleCells = (r: Showroom["samples"]["total"]) => [r.handedOut, r.out, r.overdue].map(f.n);
  const quoteCells = (r: Showroom["quotes"]["total"]) => [
    f.n(r.requested),
    f.n(r.answered),
    shareCell(r.bought, r.answered),
    f.ntd(r.amount),
  ];
  return (
    <section
      className="grid gap-4 rounded-2xl border border-line bg-sand/30 p-4 sm:p-5"
      aria-labelledby="showroom-title"
      data-testid="dashboard-showroom"
    >
      <div>
        <h2 id="showroom-title" className="font-serif text-xl font-semibold">
          {t("console.dashboard.showroom.title")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("console.dashboard.showroom.lead")}</p>
      </div>
      <dl className="grid gap-3 sm:grid-cols-3">
        <Kpi
          id="kpi-showroom-kept"
          label={t("console.dashboard.showroom.kpi.kept")}
          value={f.n(a.kept)}
          detail={t("console.dashboard.showroom.kpi.keptDetail", {
            booked: f.n(a.booked),
            noShow: f.n(a.noShow),
            cancelled: f.n(a.cancelled),
          })}
        />
        {([30, 90] as const).map((days) => (
          <Kpi
            key={days}
            id={`kpi-showroom-bought${days}`}
            label={t(`console.dashboard.showroom.kpi.bought${days}`)}
            value={f.pct(visitShare(days === 30 ? v.bought30 : v.bought90, v.kept))}
            detail={t("console.dashboard.showroom.kpi.boughtDetail", {
              bought: f.n(days === 30 ? v.bought30 : v.bought90),
              kept: f.n(v.kept),
              amount: f.ntd(days === 30 ? v.amount30 : v.amount90),
            })}
          />
        ))}
      </dl>

      <Panel
        id="appointments"
        level="h3"
        title={t("console.dashboard.showroom.appointments.title")}
        csv={csv("appointments")}
      >
        <FigureTable
          head={(["storeKind", "booked", "upcoming", "kept", "noShow", "cancelled"] as const).map((c) =>
            t(`console.dashboard.showroom.appointments.${c}`),
          )}
          rows={
            s.appointments.rows.length
              ? [...s.appointments.rows.map((r) => [label(r), ...appointmentCells(r)]), [total, ...appointmentCells(a)]]
              : []
          }
          minWidth="34rem"
          empty={t("console.dashboard.showroom.appointments.empty")}
        />
      </Panel>

      <Panel
        id="visits"
        level="h3"
        title={t("console.dashboard.showroom.visits.title")}
        csv={csv("visits")}
        lead={t("console.dashboard.showroom.visits.lead")}
      >
        <FigureTable
          head={[
            t("console.dashboard.showroom.appointments.storeKind"),
            ...(["kept", "share30", "amount30", "share90", "amount90"] as const).map((c) =>
              t(`console.dashboard.showroom.visits.${c}`),
            ),
          ]}
          rows={
            s.visits.rows.length
              ? [...s.visits.rows.map((r) => [label(r), ...visitCells(r)]), [total, ...visitCells(v)]]
              : []
          }
          minWidth="46rem"
          empty={t("console.dashboard.showroom.visits.empty")}
        />
        {v.open30 + v.open90 > 0 ? (
          <p className="mt-3 text-sm text-muted" data-testid="showroom-open-windows">
            {t("console.dashboard.showroom.visits.open", { open30: f.n(v.open30), open90: f.n(v.open90) })}
          </p>
        ) : null}
      </Panel>

      <Panel
        id="samples"
        level="h3"
        title={t("console.dashboard.showroom.samples.title")}
        csv={csv("samples")}
        lead={t("console.dashboard.showroom.samples.lead")}
      >
        <FigureTable
          head={(["store", "handedOut", "out", "overdue"] as const).map((c) =>
            t(`console.dashboard.showroom.samples.${c}`),
          )}
          rows={
            s.samples.rows.length
              ? [...s.samples.rows.map((r) => [store(r.storeId), ...sampleCells(r)]), [total, ...sampleCells(sm)]]
              : []
          }
          minWidth="28rem"
          empty={t("console.dashboard.showroom.samples.empty")}
        />
      </Panel>

      <Panel
        id="quotes"
        level="h3"
        title={t("console.dashboard.showroom.quotes.title")}
        csv={csv("quotes")}
        lead={t("console.dashboard.showroom.quotes.lead")}
      >
        <FigureTable
          head={(["store", "requested", "answered", "share", "amount"] as const).map((c) =>
            t(`console.dashboard.showroom.quotes.${c}`),
          )}
          rows={
            s.quotes.rows.length
              ? [...s.quotes.rows.map((r) => [store(r.storeId), ...quoteCells(r)]), [total, ...quoteCells(q)]]
              : []
          }
          minWidth="34rem"
          empty={t("console.dashboard.showroom.quotes.empty")}
        />
        {q.open > 0 ? (
          <p className="mt-3 text-sm text-muted" data-testid="showroom-quotes-open">
            {t("console.dashboard.showroom.quotes.open", { open: f.n(q.open) })}
          </p>
        ) : null}
      </Panel>
    </section>
  );
}
