import { Form, useNavigation } from "react-router";
import type { CaptchaChallenge } from "~/components/auth/captcha";
import { PhoneCodeSteps } from "~/components/auth/code-step";
import { SignupSteps } from "~/components/auth/steps";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { CatalogRef } from "~/lib/i18n";
import { useT } from "~/lib/i18n";
import { useFormState } from "~/lib/use-form-state";

type LinePhoneStepData = {
  messages: CatalogRef;
  challenge: CaptchaChallenge;
  sentTo: string | null;
  resendAt: number | null;
  minutes: number;
  existingMember: boolean;
};

/** Sign-up step 3 of a LINE sign-up, first part: verify a phone number by SMS. */
export function LinePhoneStep({ data }: { data: LinePhoneStepData }) {
  const t = useT(data.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";

  return (
    <Page title={t("lineSignup.phoneTitle")} lead={t("lineSignup.phoneLead")} width="narrow">
      <SignupSteps current={3} />
      {form.formError ? (
        <Alert tone="error" className="mb-6">
          {form.formError}
        </Alert>
      ) : null}
      {data.existingMember && data.sentTo ? (
        <Alert title={t("lineSignup.existingTitle")} className="mb-6">
          <p>{t("lineSignup.existingBody", { phone: data.sentTo })}</p>
          <Form method="post" className="mt-4 flex flex-wrap gap-3">
            <Button type="submit" name="intent" value="link" pending={pending}>
              {t("lineSignup.linkSubmit")}
            </Button>
            <Button type="submit" name="intent" value="change" variant="secondary">
              {t("lineSignup.useOtherPhone")}
            </Button>
          </Form>
        </Alert>
      ) : (
        <PhoneCodeSteps {...data} form={form} pending={pending} />
      )}
    </Page>
  );
}
