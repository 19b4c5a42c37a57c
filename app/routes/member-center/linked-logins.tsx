import { Form, useNavigation } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { AccountNav } from "~/components/account/account-nav";
import { Page } from "~/components/layout/page";
import { LineButton } from "~/components/line/line-button";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { lineChannel, linkedLogins, unlinkLine } from "~/domain/line/line.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { formFailure, readForm } from "~/lib/forms.server";
import { useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/linked-logins";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "linkedLogins.title", "linkedLogins.lead");

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const app = getApp(context);
  const logins = await linkedLogins(app.db, session.userId);
  return {
    messages: routeMessages(getLocale(request), "linkedLogins.", "account.nav."),
    lineAvailable: app.config.line.mode !== "disabled",
    phone: logins.phone ? formatTaiwanMobile(logins.phone) : null,
    email: logins.email,
    hasPassword: logins.hasPassword,
    lineLinkedAt: logins.line?.linkedAt.toISOString() ?? null,
    canUnlink: Boolean(logins.line) && logins.hasPassword,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const app = getApp(context);
  const form = await readForm(request);
  if (form.get("intent") !== "unlink") return formFailure({ errors: {}, values: {} }, 400);
  const result = await unlinkLine(
    { db: app.db, logger: app.logger, line: lineChannel(app.config.line) },
    session.userId,
  );
  if (!result.ok) {
    const t = serverT(request);
    const message = result.reason === "last_login" ? t("linkedLogins.lastLogin") : t("notice.lineLinkFailed");
    return formFailure({ errors: {}, values: {}, formError: message }, 409);
  }
  return redirectWithToast(toastSettings(context), links.linkedLogins(), {
    type: "success",
    message: "notice.lineUnlinked",
  });
}

export default function LinkedLoginsPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const passwordNote = loaderData.hasPassword ? t("linkedLogins.withPassword") : t("linkedLogins.noPassword");
  return (
    <Page title={t("linkedLogins.title")} lead={t("linkedLogins.lead")} width="narrow">
      <AccountNav t={t} />
      {form.formError ? (
        <Alert tone="error" className="mb-6">
          {form.formError}
        </Alert>
      ) : null}
      <Card className="py-2">
        <ul className="divide-y divide-line">
          <li className="flex flex-col gap-1 py-5">
            <span className="font-semibold">{t("linkedLogins.phone")}</span>
            <span data-testid="login-phone">{loaderData.phone ?? t("linkedLogins.notSet")}</span>
            {loaderData.phone ? <span className="text-sm text-muted">{passwordNote}</span> : null}
          </li>
          <li className="flex flex-col gap-1 py-5">
            <span className="font-semibold">{t("linkedLogins.email")}</span>
            <span data-testid="login-email" className="break-all">
              {loaderData.email ?? t("linkedLogins.notSet")}
            </span>
            {loaderData.email ? <span className="text-sm text-muted">{passwordNote}</span> : null}
          </li>
          <li className="flex flex-col gap-3 py-5" data-testid="login-line">
            <div className="flex flex-col gap-1">
              <span className="font-semibold">{t("linkedLogins.line")}</span>
              <span>
                {loaderData.lineLinkedAt
                  ? t("linkedLogins.lineLinked", { date: formatTaipei(loaderData.lineLinkedAt, locale) })
                  : t("linkedLogins.lineNotLinked")}
              </span>
            </div>
            {loaderData.lineLinkedAt ? (
              loaderData.canUnlink ? (
                <Form method="post">
                  <Button type="submit" name="intent" value="unlink" variant="secondary" pending={pending}>
                    {t("linkedLogins.unlink")}
                  </Button>
                </Form>
              ) : (
                <p className="text-sm text-muted">{t("linkedLogins.lastLogin")}</p>
              )
            ) : loaderData.lineAvailable ? (
              <LineButton method="link" label={t("linkedLogins.link")} className="max-w-xs" />
            ) : (
              <p className="text-sm text-muted">{t("linkedLogins.lineUnavailable")}</p>
            )}
          </li>
        </ul>
      </Card>
    </Page>
  );
}
