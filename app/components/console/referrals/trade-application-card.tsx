import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { TextareaField } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import type { MessageKey } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { ApproveRejectStepUp } from "../staff/post-forms";
import { useConsoleT } from "../use-console-t";

export type TradeApplicationView = {
  id: string;
  memberId: string;
  memberName: string;
  memberNumber: string;
  taxIdNumber: string;
  companyName: string;
  kind: string;
  state: "pending" | "approved" | "rejected";
  reason: string | null;
  createdAt: string;
  decidedAt: string | null;
};

const TONE = {
  pending: "bg-brand-50 text-brand-800 ring-brand-300/40",
  approved: "bg-success-50 text-success-700 ring-success-700/20",
  rejected: "bg-danger-700/10 text-danger-800 ring-danger-700/20",
} as const;

/** The step-up answer of a decision: which application, approve or reject (with the reason typed), the code's errors. */
export type TradeAsking = {
  applicationId: string;
  intent: "approve" | "reject";
  reason: string;
  errors: string[] | null;
};

/**
 * The second factor of a decision, asked again (ADR 057 "Later"): the same post with the code, its button naming the
 * company; inside the application's card (`row`), or above the list when it is no longer pending there.
 */
export function TradeDecisionStepUp({ asking, row }: { asking: TradeAsking; row: TradeApplicationView | null }) {
  const t = useConsoleT();
  const reject = asking.intent === "reject";
  return (
    <ApproveRejectStepUp
      fields={{
        applicationId: asking.applicationId,
        intent: asking.intent,
        ...(reject ? { reason: asking.reason } : {}),
      }}
      reject={reject}
      label={
        row
          ? t(reject ? "console.trade.confirmReject" : "console.trade.confirmApprove", { company: row.companyName })
          : t(reject ? "console.trade.reject" : "console.trade.approve")
      }
      errors={asking.errors}
      inCard={row !== null}
      testId="trade-step-up"
    />
  );
}

/**
 * One application in the console's list (ADR 057): the member, the 統編, the company and the kind; a pending one has
 * an approve button and a reject form whose reason is required (the errors of the row last posted are shown in it).
 */
export function TradeApplicationCard({
  row,
  locale,
  errors,
  reasonTyped,
  busy,
  asking,
}: {
  row: TradeApplicationView;
  locale: string;
  errors: string[] | null;
  reasonTyped: string;
  busy: boolean;
  /** The decision on this application waiting for the second factor. */
  asking: TradeAsking | null;
}) {
  const t = useConsoleT();
  return (
    <li
      className="rounded-2xl border border-line bg-white p-4 sm:p-5"
      data-testid="trade-application"
      data-state={row.state}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold">
            <Link to={`/admin/members/${row.memberId}`}>
              {row.memberName} ({row.memberNumber})
            </Link>
          </p>
          <p className="mt-1 text-sm">
            {row.companyName} · <span className="tabular-nums">{row.taxIdNumber}</span> ·{" "}
            {t(`console.trade.kind.${row.kind}` as MessageKey)}
          </p>
          <p className="mt-1 text-sm text-muted">
            {t("console.trade.appliedAt", { date: formatTaipei(row.createdAt, locale, "dateTime") })}
            {row.decidedAt
              ? ` · ${t("console.trade.decidedAt", { date: formatTaipei(row.decidedAt, locale, "dateTime") })}`
              : ""}
          </p>
          {row.state === "rejected" && row.reason ? (
            <p className="mt-1 text-sm">{t("console.trade.reason", { reason: row.reason })}</p>
          ) : null}
        </div>
        <span className={`rounded-full px-3 py-1 text-sm font-semibold ring-1 ${TONE[row.state]}`}>
          {t(`console.trade.state.${row.state}` as MessageKey)}
        </span>
      </div>
      {asking ? (
        <>
          {asking.intent === "reject" ? (
            <p className="mt-4 text-sm">{t("console.trade.reason", { reason: asking.reason })}</p>
          ) : null}
          <TradeDecisionStepUp asking={asking} row={row} />
        </>
      ) : row.state === "pending" ? (
        <div className="mt-4 grid gap-4 sm:grid-cols-[auto_1fr] sm:items-start">
          <Form method="post">
            <input type="hidden" name="applicationId" value={row.id} />
            <Button type="submit" name="intent" value="approve" disabled={busy}>
              {t("console.trade.approve")}
            </Button>
          </Form>
          <Form method="post" className="space-y-2" noValidate>
            <input type="hidden" name="applicationId" value={row.id} />
            <TextareaField
              label={t("console.trade.rejectReason")}
              errors={errors}
              textareaProps={{ name: "reason", rows: 2, maxLength: 500, defaultValue: reasonTyped }}
            />
            <Button type="submit" name="intent" value="reject" variant="secondary" disabled={busy}>
              {t("console.trade.reject")}
            </Button>
          </Form>
        </div>
      ) : null}
    </li>
  );
}
