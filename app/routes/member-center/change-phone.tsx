import { Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { checkFormCode, contactSendFailure, requestOrigin } from "~/adapters/code-step.server";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { type MemberSession, requireMember } from "~/adapters/current-member.server";
import { flowCookie } from "~/adapters/flow-cookie.server";
import { CodeForm, PhoneField } from "~/components/auth/fields";
import { Page } from "~/components/layout/page";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { phoneSchema } from "~/domain/auth/auth-schemas.server";
import { isRecentLogin } from "~/domain/auth/identity.server";
import { completeVerification, requestVerification } from "~/domain/auth/verification.server";
import { formatTaiwanMobile } from "~/domain/members/taiwan";
import { fieldFailure, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/change-phone";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "account.phone.title");

/** The number a code was sent to, bound to the member who asked (10 minutes). */
const pendingPhone = flowCookie("change-phone", z.object({ userId: z.string(), phoneNumber: z.string() }), 600);

async function requireRecentLogin(context: Route.LoaderArgs["context"], session: MemberSession) {
  if (!(await isRecentLogin(getApp(context).db, session.sessionId))) {
    throw redirect(links.confirmIdentity(links.changePhone()));
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  await requireRecentLogin(context, session);
  const pending = await pendingPhone.read(context, request);
  const restart = new URL(request.url).searchParams.has("restart");
  return {
    messages: routeMessages(getLocale(request), "account.phone.", "account.nav."),
    current: formatTaiwanMobile(session.member.phoneNumber),
    pending: pending && pending.userId === session.userId && !restart ? formatTaiwanMobile(pending.phoneNumber) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  await requireRecentLogin(context, session);
  const t = serverT(request);
  const form = await readForm(request);
  const deps = authDeps(context);

  if (form.get("intent") === "send") {
    const phone = phoneSchema(t).safeParse(form.get("phone"));
    if (!phone.success) return fieldFailure(form, "phone", t("auth.phone.invalid"));
    const sent = await requestVerification(deps, {
      flow: "change-phone",
      userId: session.userId,
      phoneNumber: phone.data,
      ...requestOrigin(context, request),
    });
    if (!sent.ok) {
      return contactSendFailure(form, "phone", sent, t, {
        taken: t("account.phone.taken"),
        unchanged: t("account.phone.unchanged"),
      });
    }
    return redirect(links.changePhone(), {
      headers: { "Set-Cookie": await pendingPhone.write(context, { userId: session.userId, phoneNumber: phone.data }) },
    });
  }

  const pending = await pendingPhone.read(context, request);
  if (!pending || pending.userId !== session.userId) return redirect(links.changePhone());
  const { phoneNumber } = pending;
  const checked = await checkFormCode(form, t, t("account.phone.taken"), (code) =>
    completeVerification(deps, { flow: "change-phone", userId: session.userId, phoneNumber, code }),
  );
  if (!checked.ok) return checked.answer;
  return redirectWithToast(
    toastSettings(context),
    links.editInfo(),
    { type: "success", message: "notice.phoneChanged" },
    { headers: { "Set-Cookie": await pendingPhone.clear(context) } },
  );
}

export default function ChangePhonePage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  return (
    <Page
      title={t("account.phone.title")}
      lead={loaderData.pending ? t("account.phone.codeLead", { phone: loaderData.pending }) : t("account.phone.lead")}
      width="narrow"
    >
      {loaderData.pending ? (
        <>
          <CodeForm
            errors={form.errors("code")}
            intent="confirm"
            submitLabel={t("account.phone.confirm")}
            pending={pending}
          />
          <p className="mt-6 text-center">
            <a href={`${links.changePhone()}?restart`} className="text-muted underline underline-offset-4">
              {t("account.phone.other")}
            </a>
          </p>
        </>
      ) : (
        <Form method="post" className="space-y-5" noValidate>
          <p className="text-muted">{t("account.phone.current", { phone: loaderData.current })}</p>
          <PhoneField defaultValue={form.value("phone")} errors={form.errors("phone")} />
          <Button type="submit" name="intent" value="send" block size="lg" pending={pending}>
            {t("account.phone.send")}
          </Button>
          <p className="text-center">
            <Link to={links.editInfo()} className="text-muted underline underline-offset-4">
              {t("account.phone.cancel")}
            </Link>
          </p>
        </Form>
      )}
    </Page>
  );
}
