import { Form, useNavigation } from "react-router";
import { type CaptchaChallenge, useCaptcha } from "~/components/auth/captcha";
import { CodeStep } from "~/components/auth/code-step";
import { EmailField } from "~/components/auth/email-field";
import { PhoneField, useCountdown } from "~/components/auth/fields";
import { Page } from "~/components/layout/page";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { useT } from "~/lib/i18n";
import { useFormState } from "~/lib/use-form-state";

type ResetCodeData = {
  channel: "phone" | "email";
  challenge: CaptchaChallenge;
  sentTo: string | null;
  resendAt: number | null;
  minutes: number;
};

/** Forgot password by phone or e-mail: ask for the number/address, then for the code. */
export function ResetCodePage({ data, title, lead }: { data: ResetCodeData; title: string; lead?: string }) {
  const t = useT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const captcha = useCaptcha(data.challenge);
  const secondsLeft = useCountdown(data.resendAt);
  const channelName = data.channel === "phone" ? t("auth.channel.phone") : t("auth.channel.email");
  return (
    <Page title={title} lead={data.sentTo ? undefined : lead} width="narrow">
      {form.formError ? (
        <Alert tone="error" className="mb-6">
          {form.formError}
        </Alert>
      ) : null}
      {data.sentTo ? (
        <CodeStep
          sentNotice={
            <>
              {t("auth.code.sentIfMember", { channel: channelName, minutes: data.minutes })}{" "}
              <span className="font-semibold">{data.sentTo}</span>
            </>
          }
          codeErrors={form.errors("code")}
          pending={pending}
          captcha={captcha}
          secondsLeft={secondsLeft}
        />
      ) : (
        <Form method="post" className="space-y-6" noValidate>
          {captcha.field}
          {data.channel === "phone" ? (
            <PhoneField defaultValue={form.value("phone")} errors={form.errors("phone")} />
          ) : (
            <EmailField defaultValue={form.value("email")} errors={form.errors("email")} />
          )}
          <Button type="submit" name="intent" value="send" block size="lg" pending={pending || !captcha.ready}>
            {captcha.ready ? t("auth.sendCode") : t("form.captchaPending")}
          </Button>
        </Form>
      )}
    </Page>
  );
}
