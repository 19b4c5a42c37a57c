import { Form, Link, useNavigation } from "react-router";
import { type CaptchaChallenge, useCaptcha } from "~/components/auth/captcha";
import { CodeStep } from "~/components/auth/code-step";
import { PhoneField, useCountdown } from "~/components/auth/fields";
import { SignupSteps } from "~/components/auth/steps";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import type { Messages } from "~/lib/i18n";
import { useLocale, useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import { useFormState } from "~/lib/use-form-state";

type LinePhoneStepData = {
  messages: Partial<Messages>;
  challenge: CaptchaChallenge;
  sentTo: string | null;
  resendAt: number | null;
  minutes: number;
  existingMember: boolean;
};

/** Sign-up step 3 of a LINE sign-up, first part: verify a phone number by SMS. */
export function LinePhoneStep({ data }: { data: LinePhoneStepData }) {
  const t = useT(data.messages);
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const captcha = useCaptcha(data.challenge);
  const secondsLeft = useCountdown(data.resendAt);

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
      ) : data.sentTo ? (
        <CodeStep
          sentNotice={t("auth.code.sentSms", { target: data.sentTo, minutes: data.minutes })}
          codeErrors={form.errors("code")}
          pending={pending}
          captcha={captcha}
          secondsLeft={secondsLeft}
        />
      ) : (
        <Form method="post" className="space-y-6" noValidate>
          {captcha.field}
          <PhoneField defaultValue={form.value("phone")} errors={form.errors("phone")} />
          <CheckboxField
            name="consent"
            defaultChecked={form.checked("consent")}
            errors={form.errors("consent")}
            label={
              <>
                {t("auth.consent.prefix")}{" "}
                <Link to={links.terms()} target="_blank" className="underline underline-offset-4" lang={locale}>
                  {t("footer.terms")}
                </Link>{" "}
                {t("auth.consent.and")}{" "}
                <Link to={links.privacy()} target="_blank" className="underline underline-offset-4">
                  {t("footer.privacy")}
                </Link>
              </>
            }
          />
          <Button type="submit" name="intent" value="send" block size="lg" pending={pending || !captcha.ready}>
            {captcha.ready ? t("auth.sendCode") : t("form.captchaPending")}
          </Button>
        </Form>
      )}
    </Page>
  );
}
