import { ConsoleList } from "~/components/console/console-list";
import { Button } from "~/components/ui/button";
import { webhookMessageId } from "~/domain/webhooks/message-id";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { HiddenForm } from "../staff/post-forms";
import { useConsoleT } from "../use-console-t";

type LogRow = {
  id: string;
  eventType: string;
  /** As shownStatus derives it: `sending` is a pending row with a fresh claim. */
  status: "pending" | "sending" | "delivered" | "failed";
  attempts: number;
  occurredAt: string;
  dueAt: string;
  lastStatus: number | null;
  lastError: string | null;
  lastAt: string | null;
  lastMs: number | null;
};

/** An endpoint's delivery log (ADR 054): the newest deliveries, their latest answer, and a redelivery button. */
export function DeliveryLog({ rows }: { rows: LogRow[] }) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <section className="mt-6" aria-labelledby="webhook-log-title">
      <h2 id="webhook-log-title" className="text-lg font-semibold">
        {t("console.webhooks.log")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("console.webhooks.logLead")}</p>
      <ConsoleList
        count={t("console.webhooks.logCount", { count: String(rows.length) })}
        empty={t("console.webhooks.logEmpty")}
        label={t("console.webhooks.log")}
        testId="webhook-log"
        rows={rows}
        rowKey={(r) => r.id}
        rowTestId="webhook-delivery"
        stack
        columns={[
          {
            key: "event",
            header: t("console.webhooks.col.event"),
            cell: (r) => (
              <>
                <span className="font-medium">{r.eventType}</span>
                <span className="block break-all font-mono text-xs text-muted" data-testid="webhook-delivery-id">
                  {webhookMessageId(r.id)}
                </span>
              </>
            ),
          },
          {
            key: "status",
            header: t("console.webhooks.col.status"),
            cell: (r) => (
              <span data-testid="webhook-delivery-status" data-status={r.status}>
                {t(`console.webhooks.delivery.${r.status}`)}
              </span>
            ),
          },
          {
            key: "answer",
            header: t("console.webhooks.col.answer"),
            className: "text-sm",
            cell: (r) =>
              r.lastAt ? (
                <span data-testid="webhook-delivery-answer">
                  {t("console.webhooks.answer", {
                    answer: r.lastStatus === null ? (r.lastError ?? "") : `HTTP ${r.lastStatus}`,
                    ms: String(r.lastMs ?? 0),
                    attempts: String(r.attempts),
                  })}
                  {r.lastStatus !== null && r.lastError ? (
                    <span className="block text-muted">{r.lastError}</span>
                  ) : null}
                </span>
              ) : (
                <span className="text-muted">{t("console.webhooks.notYet")}</span>
              ),
          },
          {
            key: "when",
            header: t("console.webhooks.col.when"),
            className: "text-sm tabular-nums",
            cell: (r) => (
              <>
                {formatTaipei(r.occurredAt, locale, "dateTime")}
                {r.status === "pending" && r.attempts > 0 ? (
                  <span className="block text-muted">
                    {t("console.webhooks.nextTry", { at: formatTaipei(r.dueAt, locale, "dateTime") })}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            key: "action",
            header: t("console.webhooks.col.action"),
            className: "whitespace-nowrap",
            cell: (r) =>
              r.status === "sending" ? null : (
                <HiddenForm fields={{ intent: "redeliver", deliveryId: r.id }}>
                  <Button type="submit" variant="secondary" data-testid="webhook-redeliver">
                    <span aria-hidden="true">{t("console.webhooks.redeliver")}</span>
                    <span className="sr-only">
                      {t("console.webhooks.redeliverFor", { id: webhookMessageId(r.id) })}
                    </span>
                  </Button>
                </HiddenForm>
              ),
          },
        ]}
      />
    </section>
  );
}
