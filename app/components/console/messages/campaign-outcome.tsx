import { formatNumber, type MessageKey, useLocale } from "~/lib/i18n";
import { DetailSection, FieldRow } from "../detail-section";
import { useConsoleT } from "../use-console-t";

/** A campaign's results as the console shows them (computed by `campaignOutcome`, ADR 055). */
export type CampaignOutcomeData = {
  delivered: number;
  clicked: number;
  purchases: number;
  revenue: number;
  pointsUsed: number;
  treated: { members: number; buyers: number };
  control: { members: number; buyers: number };
  attributionDays: number;
  /** Conversion of each group (0–1) and the uplift in percentage points, when there is a control group. */
  treatedRate: number | null;
  controlRate: number | null;
  uplift: number | null;
};

/** Delivered, clicked, purchased, revenue, points used; with a control group, each group's conversion and the uplift. */
export function CampaignOutcome({ outcome: o }: { outcome: CampaignOutcomeData }) {
  const t = useConsoleT();
  const locale = useLocale();
  const n = (v: number) => formatNumber(v, locale);
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  const figures: Array<[string, MessageKey, string]> = [
    ["delivered", "console.messages.outcome.delivered", n(o.delivered)],
    ["clicked", "console.messages.outcome.clicked", n(o.clicked)],
    ["purchases", "console.messages.outcome.purchases", n(o.purchases)],
    ["revenue", "console.messages.outcome.revenue", `NT$${n(o.revenue)}`],
    ["points", "console.messages.outcome.pointsUsed", n(o.pointsUsed)],
  ];
  const group = (key: MessageKey, g: { members: number; buyers: number }, rate: number | null) =>
    t(key, { rate: rate === null ? "—" : pct(rate), buyers: n(g.buyers), members: n(g.members) });
  return (
    <DetailSection
      id="outcome-title"
      title={t("console.messages.outcome.title")}
      lead={t("console.messages.outcome.lead", { days: o.attributionDays })}
      testId="campaign-outcome"
    >
      <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
        {figures.map(([id, label, value]) => (
          <FieldRow key={id} label={t(label)} className="text-xl font-semibold tabular-nums" testId={`outcome-${id}`}>
            {value}
          </FieldRow>
        ))}
      </dl>
      {o.control.members > 0 ? (
        <div className="space-y-1 text-sm" data-testid="outcome-uplift">
          <p>{group("console.messages.outcome.treated", o.treated, o.treatedRate)}</p>
          <p>{group("console.messages.outcome.control", o.control, o.controlRate)}</p>
          <p className="font-semibold">
            {t("console.messages.outcome.uplift", {
              points: o.uplift === null ? "—" : `${o.uplift >= 0 ? "+" : ""}${o.uplift.toFixed(1)}`,
            })}
          </p>
        </div>
      ) : (
        <p className="text-sm text-muted">{t("console.messages.outcome.noControl")}</p>
      )}
    </DetailSection>
  );
}
