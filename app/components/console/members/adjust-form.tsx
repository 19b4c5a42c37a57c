import { Form, useNavigation } from "react-router";
import { DetailSection } from "~/components/console/detail-section";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, TextareaField } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { NativeSelectField } from "~/components/ui/native-select";
import { ADJUSTMENT_REASONS, MAX_DETAIL_LENGTH } from "~/domain/loyalty/adjustment-input";
import { useFormState } from "~/lib/use-form-state";

/**
 * The points adjustment form (issue 13): amount, reason from the list, the words `other` needs, the step-up code
 * when the last one is old (shown from the start, so nothing typed is lost), and the form's own key.
 */
export function AdjustForm({
  requestKey,
  stepUp,
  limitHint,
}: {
  requestKey: string;
  stepUp: boolean;
  limitHint: string | null;
}) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const asked = Boolean((form.state as { stepUp?: boolean } | undefined)?.stepUp);
  return (
    <DetailSection id="adjust-form-title" title={t("console.adjust.formTitle")} lead={limitHint} className="mt-6">
      <Form method="post" className="space-y-5" key={requestKey}>
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <input type="hidden" name="requestKey" value={form.value("requestKey", requestKey)} />
        <Field
          label={t("console.adjust.amount")}
          description={t("console.adjust.amountHint")}
          errors={form.errors("amount")}
          inputProps={{
            name: "amount",
            type: "text",
            inputMode: "numeric",
            autoComplete: "off",
            required: true,
            maxLength: 14,
            defaultValue: form.value("amount"),
            className: "tabular-nums sm:max-w-60",
          }}
        />
        <NativeSelectField
          label={t("console.adjust.reason")}
          errors={form.errors("reason")}
          selectProps={{
            name: "reason",
            required: true,
            defaultValue: form.value("reason", ""),
            className: "sm:max-w-80",
          }}
        >
          <option value="" disabled>
            {t("console.adjust.reasonChoose")}
          </option>
          {ADJUSTMENT_REASONS.map((reason) => (
            <option key={reason} value={reason}>
              {t(`console.adjust.reason.${reason}`)}
            </option>
          ))}
        </NativeSelectField>
        <TextareaField
          label={t("console.adjust.detail")}
          description={t("console.adjust.detailHint", { max: MAX_DETAIL_LENGTH })}
          errors={form.errors("detail")}
          textareaProps={{ name: "detail", rows: 3, maxLength: MAX_DETAIL_LENGTH, defaultValue: form.value("detail") }}
        />
        <StepUpField show={asked || stepUp} errors={form.errors("stepUpCode")} />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" pending={pending}>
            {t("console.adjust.submit")}
          </Button>
          <Link to="/admin" className="min-h-11 content-center px-3 text-sm underline underline-offset-4">
            {t("console.adjust.cancel")}
          </Link>
        </div>
      </Form>
    </DetailSection>
  );
}
