import type { CampaignStatus } from "@platform/db/schema/member-message-kinds";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import type { CampaignFormValues, ComposerFrame } from "~/domain/member-messages/campaign-values";
import { formatNumber, type MessageKey, useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { DetailSection, FieldRow } from "../detail-section";
import { useConsoleT } from "../use-console-t";
import { CampaignOutcome, type CampaignOutcomeData } from "./campaign-outcome";
import { CampaignPreviews } from "./campaign-previews";

const RESULT_ORDER = [
  "sent",
  "queued",
  "held",
  "sending",
  "failed",
  "unreachable",
  "opted-out",
  "capped",
  "cancelled",
  "control",
];

export type CampaignResultsData = {
  byStatus: Record<string, number>;
  byChannel: Record<string, number>;
  total: number;
};

/**
 * A sent or scheduled campaign: what became of its messages, the cancel button while it can stop, what it did
 * (clicks, attributed purchases, the uplift over its control group; ADR 055), its texts.
 */
export function CampaignResults({
  campaign: c,
  results,
  outcome,
  values,
  frame,
}: {
  outcome: CampaignOutcomeData | null;
  campaign: { status: CampaignStatus; scheduledAt: string | null; startedAt: string | null };
  results: CampaignResultsData;
  values: CampaignFormValues;
  frame: ComposerFrame;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const n = (count: number | undefined) => formatNumber(count ?? 0, locale);
  const at = (when: string) => formatTaipei(when, locale, "dateTime");
  const { byStatus, byChannel, total } = results;
  const pending = (byStatus.queued ?? 0) + (byStatus.held ?? 0) + (byStatus.sending ?? 0);
  const times = [
    c.scheduledAt ? t("console.messages.results.scheduledAt", { when: at(c.scheduledAt) }) : null,
    c.startedAt ? t("console.messages.results.startedAt", { when: at(c.startedAt) }) : null,
  ];
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <div className="min-w-0 space-y-6 self-start">
        <DetailSection
          id="results-title"
          title={t("console.messages.results.title")}
          lead={t("console.messages.results.lead")}
          testId="campaign-results"
          className="self-start"
        >
          <p className="text-sm">{times.filter(Boolean).join(" · ")}</p>
          {total > 0 ? (
            <div>
              <div
                className="h-2 overflow-hidden rounded-full bg-sand"
                role="progressbar"
                aria-label={t("console.messages.results.sent")}
                aria-valuemin={0}
                aria-valuemax={total}
                aria-valuenow={total - pending}
              >
                <div className="h-full bg-brand-700" style={{ width: `${((total - pending) / total) * 100}%` }} />
              </div>
              <p className="mt-2 text-sm text-muted">{t("console.messages.results.total", { count: n(total) })}</p>
            </div>
          ) : null}
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-3">
            {RESULT_ORDER.filter((s) => byStatus[s]).map((s) => (
              <FieldRow
                key={s}
                label={t(`console.messages.results.${s}` as MessageKey)}
                className="text-xl font-semibold tabular-nums"
                testId={`result-${s}`}
              >
                {n(byStatus[s])}
              </FieldRow>
            ))}
          </dl>
          {(byStatus.sent ?? 0) > 0 ? (
            <p className="text-sm" data-testid="result-channels">
              {t("console.messages.results.byChannel", {
                line: n(byChannel.line),
                sms: n(byChannel.sms),
                email: n(byChannel.email),
              })}
            </p>
          ) : null}
          {c.status === "scheduled" || c.status === "sending" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="cancel" />
              <Button type="submit" variant="secondary">
                {t("console.messages.action.cancel")}
              </Button>
            </Form>
          ) : null}
        </DetailSection>
        {outcome ? <CampaignOutcome outcome={outcome} /> : null}
      </div>
      <CampaignPreviews values={values} frame={frame} />
    </div>
  );
}
