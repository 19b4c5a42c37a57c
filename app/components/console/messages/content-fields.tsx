import { Field, TextareaField } from "~/components/ui/field";
import type { CampaignFormValues } from "~/domain/member-messages/campaign-values";
import { EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX, LINE_TEXT_MAX } from "~/domain/member-messages/limits";
import { SMS_MAX_LENGTH } from "~/domain/messaging/sms";
import { useFormState } from "~/lib/use-form-state";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

/** The message per channel (LINE when the Official Account is on, SMS with its length as sent, e-mail). */
export function ContentFields({
  initial,
  lineOn,
  smsLength,
}: {
  initial: CampaignFormValues;
  lineOn: boolean;
  /** The SMS as it goes out (brand and refusal line included), in characters. */
  smsLength: number;
}) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <DetailSection
      id="content-title"
      title={t("console.messages.content.title")}
      lead={t("console.messages.content.lead")}
    >
      {lineOn ? (
        <TextareaField
          label={t("console.messages.content.lineText")}
          description={t("console.messages.content.lineHint", { max: LINE_TEXT_MAX })}
          errors={form.errors("lineText")}
          textareaProps={{ name: "lineText", defaultValue: initial.lineText, maxLength: LINE_TEXT_MAX + 100 }}
        />
      ) : null}
      <TextareaField
        label={t("console.messages.content.smsText")}
        description={
          <>
            {t("console.messages.content.smsHint")}{" "}
            <span
              className={smsLength > SMS_MAX_LENGTH ? "font-medium text-danger-800" : undefined}
              data-testid="sms-count"
            >
              {t("console.messages.content.smsCount", { count: smsLength, max: SMS_MAX_LENGTH })}
            </span>
          </>
        }
        errors={form.errors("smsText")}
        textareaProps={{ name: "smsText", defaultValue: initial.smsText, rows: 3, maxLength: SMS_MAX_LENGTH + 100 }}
      />
      <Field
        label={t("console.messages.content.emailSubject")}
        errors={form.errors("emailSubject")}
        inputProps={{ name: "emailSubject", defaultValue: initial.emailSubject, maxLength: EMAIL_SUBJECT_MAX + 20 }}
      />
      <TextareaField
        label={t("console.messages.content.emailBody")}
        description={t("console.messages.content.emailHint")}
        errors={form.errors("emailBody")}
        textareaProps={{ name: "emailBody", defaultValue: initial.emailBody, rows: 6, maxLength: EMAIL_BODY_MAX + 100 }}
      />
    </DetailSection>
  );
}
