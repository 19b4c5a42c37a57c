import type { ReactNode } from "react";
import { Form } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { useT } from "~/lib/i18n";
import { CodeField } from "./fields";

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
      <Form method="post" className="space-y-5" noValidate>
        <CodeField errors={codeErrors} />
        <Button type="submit" name="intent" value="verify" block size="lg" pending={pending}>
          {t("auth.verify")}
        </Button>
      </Form>
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
