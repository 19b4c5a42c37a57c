import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { FieldRow } from "../detail-section";
import { useConsoleT } from "../use-console-t";
import { ApproveRejectStepUp, HiddenForm } from "./post-forms";

export type PendingAdjustment = {
  id: string;
  memberName: string;
  memberNumber: string;
  amount: number;
  reason: string;
  detail: string | null;
  requesterName: string | null;
  storeName: string | null;
  requestedAt: string;
  own: boolean;
};

/** The step-up answer of a decision: which adjustment, approve or reject, and the code's errors. */
export type Asking = { adjustmentId: string; intent: string; errors: string[] | null };

/** Points with their sign, as the console writes them (+2,500 / -300). */
export function useSignedPoints() {
  const locale = useLocale();
  return (value: number) => {
    const n = value.toLocaleString(locale === "en" ? "en-US" : "zh-TW");
    return value > 0 ? `+${n}` : n;
  };
}

/**
 * The step-up code of a decision, asked again: inside the adjustment's card (`row`), its button naming the
 * member and the points, or above the list when the adjustment is no longer listed.
 */
export function DecisionStepUp({ asking, row }: { asking: Asking; row: PendingAdjustment | null }) {
  const t = useConsoleT();
  const signed = useSignedPoints();
  const reject = asking.intent === "reject";
  const params = row ? { name: row.memberName, points: signed(row.amount) } : null;
  return (
    <ApproveRejectStepUp
      fields={{ adjustmentId: asking.adjustmentId, intent: asking.intent }}
      reject={reject}
      label={
        params
          ? t(reject ? "console.approvals.confirmReject" : "console.approvals.confirmApprove", params)
          : t(reject ? "console.approvals.reject" : "console.approvals.approve")
      }
      errors={asking.errors}
      inCard={row !== null}
      testId="approval-step-up"
    />
  );
}

/** One adjustment waiting: who, how many points and why, who asked where and when; approve or reject. */
export function ApprovalCard({ row, asking }: { row: PendingAdjustment; asking: Asking | null }) {
  const t = useConsoleT();
  const locale = useLocale();
  const signed = useSignedPoints();
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("adjustmentId") === row.id &&
    navigation.formData?.get("intent") === intent;
  const decide = (intent: "approve" | "reject", label: string) => (
    <Button
      type="submit"
      name="intent"
      value={intent}
      variant={intent === "approve" ? "primary" : "secondary"}
      pending={busy(intent)}
      aria-label={t(intent === "approve" ? "console.approvals.approveFor" : "console.approvals.rejectFor", {
        name: row.memberName,
      })}
    >
      {label}
    </Button>
  );
  return (
    <li className="rounded-2xl border border-line bg-white p-5" data-testid="approval" data-adjustment-id={row.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-medium">
            {row.memberName} <span className="text-sm text-muted tabular-nums">{row.memberNumber}</span>
          </p>
          <p className="mt-1 text-sm">
            {t(`console.adjust.reason.${row.reason}` as "console.adjust.reason.other")}
            {row.detail ? `：${row.detail}` : ""}
          </p>
        </div>
        <p
          className={`font-serif text-2xl font-semibold tabular-nums ${row.amount < 0 ? "text-danger-700" : "text-brand-700"}`}
        >
          {t("console.adjust.points", { points: signed(row.amount) })}
        </p>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <FieldRow label={t("console.approvals.requester")}>{row.requesterName ?? "—"}</FieldRow>
        <FieldRow label={t("console.approvals.store")}>{row.storeName ?? "—"}</FieldRow>
        <FieldRow label={t("console.approvals.requestedAt")} className="tabular-nums">
          {formatTaipei(row.requestedAt, locale, "dateTime")}
        </FieldRow>
      </dl>
      {asking ? <DecisionStepUp asking={asking} row={row} /> : null}
      <HiddenForm
        fields={{ adjustmentId: row.id }}
        className={asking ? "hidden" : "mt-4 flex flex-wrap items-center gap-3"}
      >
        {row.own ? (
          <p className="text-sm text-muted">{t("console.approvals.own")}</p>
        ) : (
          decide("approve", t("console.approvals.approve"))
        )}
        {decide("reject", row.own ? t("console.approvals.withdraw") : t("console.approvals.reject"))}
      </HiddenForm>
    </li>
  );
}
