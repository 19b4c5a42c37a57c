import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useConsoleT } from "../use-console-t";

export type AuditCheckStatus = {
  ok: boolean;
  rows: number;
  seq: number | null;
  reason: string | null;
  lastSeq: number | null;
  signedSeq: number | null;
  signedAt: string | null;
  checkedAt: string;
} | null;

/** The chain check's status line: intact, cut off at the end, rewritten, a signed head that does not verify, broken. */
function checkText(check: AuditCheckStatus, t: ReturnType<typeof useConsoleT>, locale: ReturnType<typeof useLocale>) {
  if (!check) return t("console.audit.check.never");
  const time = formatTaipei(check.checkedAt, locale, "dateTime");
  if (check.ok) return t("console.audit.check.ok", { rows: check.rows.toLocaleString("en-US"), time });
  const signedAt = check.signedAt ? formatTaipei(check.signedAt, locale, "dateTime") : "—";
  if (check.reason === "truncated" && check.lastSeq !== null && check.signedSeq !== null) {
    return t("console.audit.check.truncated", {
      lastSeq: String(check.lastSeq),
      signedSeq: String(check.signedSeq),
      count: String(check.signedSeq - check.lastSeq),
      signedAt,
      time,
    });
  }
  if (check.reason === "rewritten")
    return t("console.audit.check.rewritten", { seq: String(check.seq), signedAt, time });
  if (check.reason === "signed_head_invalid") return t("console.audit.check.signedHeadInvalid", { time });
  return t("console.audit.check.broken", { seq: String(check.seq), reason: check.reason ?? "", time });
}

/** The audit log's chain check: its last result and a button that runs it now (otherwise hourly). */
export function AuditCheck({ check, checked }: { check: AuditCheckStatus; checked: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  const navigation = useNavigation();
  return (
    <>
      <div
        className="mt-6 flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-line bg-white p-4"
        data-testid="audit-check"
      >
        <p className={cn("text-sm", check && !check.ok && "font-medium text-danger-800")}>
          {checkText(check, t, locale)}
        </p>
        <Form method="post">
          <Button type="submit" size="sm" variant="secondary" pending={navigation.state === "submitting"}>
            {t("console.audit.check.run")}
          </Button>
        </Form>
      </div>
      {checked && check?.ok ? (
        <Alert tone="success" className="mt-3">
          {t("console.audit.check.done")}
        </Alert>
      ) : null}
    </>
  );
}
