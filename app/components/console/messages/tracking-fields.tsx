import { Field } from "~/components/ui/field";
import type { CampaignFormValues } from "~/domain/member-messages/campaign-values";
import { useFormState } from "~/lib/use-form-state";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

/**
 * How a campaign's results are measured (ADR 055): the share of the audience held back as the control group
 * (they receive nothing) and the Taipei days after a delivery or a click within which a purchase counts.
 */
export function TrackingFields({ initial }: { initial: CampaignFormValues }) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <DetailSection
      id="tracking-title"
      title={t("console.messages.tracking.title")}
      lead={t("console.messages.tracking.lead")}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t("console.messages.tracking.controlPercent")}
          description={t("console.messages.tracking.controlPercentHint")}
          errors={form.errors("controlPercent")}
          inputProps={{
            name: "controlPercent",
            inputMode: "numeric",
            defaultValue: initial.controlPercent || "0",
          }}
        />
        <Field
          label={t("console.messages.tracking.attributionDays")}
          description={t("console.messages.tracking.attributionDaysHint")}
          errors={form.errors("attributionDays")}
          inputProps={{
            name: "attributionDays",
            inputMode: "numeric",
            defaultValue: initial.attributionDays || "7",
          }}
        />
      </div>
    </DetailSection>
  );
}
