import type { ReactNode } from "react";
import { Form } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { useT } from "~/lib/i18n";
import type { useFormState } from "~/lib/use-form-state";
import { type CaptchaChallenge, useCaptcha } from "./captcha";
import { ConsentField } from "./consent-field";
import { CodeForm, PhoneField, useCountdown } from "./fields";

/**
 * The second half of every code flow (sign-up, forgot password): where the code went, with a way
 * to change the number/address, the 6-digit code form, and "send again" after the cooldown.
 */
export function CodeStep({
  sentNotice,
  codeErrors,
  pending,
  captcha,
  secondsLeft,
}: {
  sentNotice: ReactNode;
  codeErrors: readonly string[] | null;
  pending: boolean;
  captcha: { ready: boolean; field: ReactNode };
  secondsLeft: number;
}) {
  const t = useT();
  return (
    <div className="space-y-6">
      <Alert>
        {sentNotice}{" "}
        <Form method="post" className="inline">
          <button type="submit" name="intent" value="change" className="font-semibold underline underline-offset-4">
            {t("auth.code.changeTarget")}
          </button>
        </Form>
      </Alert>
      <CodeForm errors={codeErrors} intent="verify" submitLabel={t("auth.verify")} pending={pending} />
      <Form method="post">
        {captcha.field}
        <Button
          type="submit"
          name="intent"
          value="resend"
          variant="ghost"
          block
          disabled={secondsLeft > 0 || !captcha.ready}
        >
          {secondsLeft > 0 ? t("auth.code.resendIn", { seconds: secondsLeft }) : t("auth.code.resend")}
        </Button>
      </Form>
    </div>
  );
}

/**
 * A phone verified by SMS (sign-up step 1, the phone step of a LINE sign-up): the number and consents
 * until a code was sent, then the code step for that number. Owns the captcha and the resend countdown.
 */
export function PhoneCodeSteps({
  sentTo,
  minutes,
  challenge,
  resendAt,
  form,
  pending,
  children,
}: {
  sentTo: string | null;
  minutes: number;
  challenge: CaptchaChallenge;
  resendAt: number | null;
  form: ReturnType<typeof useFormState>;
  pending: boolean;
  children?: ReactNode;
}) {
  const t = useT();
  const captcha = useCaptcha(challenge);
  const secondsLeft = useCountdown(resendAt);
  if (!sentTo) {
    return (
      <PhoneConsentForm form={form} captcha={captcha} pending={pending}>
        {children}
      </PhoneConsentForm>
    );
  }
  return (
    <CodeStep
      sentNotice={t("auth.code.sentSms", { target: sentTo, minutes })}
      codeErrors={form.errors("code")}
      pending={pending}
      captcha={captcha}
      secondsLeft={secondsLeft}
    />
  );
}

/**
 * (Here beside CodeStep, its second half: the pages that show one show the other, and one chunk
 * costs less than two.)
 *
 * The first half of every phone sign-up (sign-up step 1, and the phone step of a LINE sign-up):
 * the invisible captcha, the mobile number, consent to the terms and the privacy notice, and
 * "send the code" (which waits for the captcha). Extra content (a login link) goes below.
 */
export function PhoneConsentForm({
  form,
  captcha,
  pending,
  children,
}: {
  form: ReturnType<typeof useFormState>;
  captcha: { ready: boolean; field: ReactNode };
  pending: boolean;
  children?: ReactNode;
}) {
  const t = useT();
  return (
    <Form method="post" className="space-y-6" noValidate>
      {captcha.field}
      <PhoneField defaultValue={form.value("phone")} errors={form.errors("phone")} />
      <ConsentField checked={form.checked("consent")} errors={form.errors("consent")} />
      <Button type="submit" name="intent" value="send" block size="lg" pending={pending || !captcha.ready}>
        {captcha.ready ? t("auth.sendCode") : t("form.captchaPending")}
      </Button>
      {children}
    </Form>
  );
}
