import { useNavigation } from "react-router";
import { IdentityProof } from "~/components/account/identity-proof";
import { Page } from "~/components/layout/page";
import { hasPasswordLogin, renewSession } from "~/domain/auth/identity.server";
import { maskTaiwanMobile } from "~/domain/members/taiwan";
import { authDeps, toastSettings } from "~/lib/context.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links, safeRedirectPath } from "~/lib/links";
import { requireMember } from "~/lib/member-session.server";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/confirm-identity";
import { handleIdentityProof } from "./identity-proof.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "account.identity.title");

function readQuery(request: Request, hasPassword: boolean) {
  const url = new URL(request.url);
  return {
    redirectTo: safeRedirectPath(url.searchParams.get("redirectTo"), links.security()),
    method: !hasPassword || url.searchParams.get("method") === "sms" ? ("sms" as const) : ("password" as const),
  };
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const hasPassword = await hasPasswordLogin(authDeps(context).db, session.userId);
  return {
    messages: routeMessages(getLocale(request), "account.identity."),
    ...readQuery(request, hasPassword),
    hasPassword,
    maskedPhone: maskTaiwanMobile(session.member.phoneNumber),
  };
}

/** A successful check starts a new session (a fresh login) and goes back to where the member was. */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const form = await request.formData();
  const step = await handleIdentityProof(context, request, form, session, serverT(request));
  if (step.kind === "answer") return step.response;
  const headers = await renewSession(authDeps(context), {
    userId: session.userId,
    sessionId: session.sessionId,
    requestHeaders: request.headers,
  });
  const { redirectTo } = readQuery(request, true);
  const response = await redirectWithToast(toastSettings(context), redirectTo, {
    type: "success",
    message: "notice.identityConfirmed",
  });
  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  return response;
}

export default function ConfirmIdentityPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const tabHref = (method: "password" | "sms") =>
    `?${new URLSearchParams({ method, redirectTo: loaderData.redirectTo })}`;
  return (
    <Page title={t("account.identity.title")} lead={t("account.identity.lead")} width="narrow">
      <IdentityProof
        t={t}
        form={form}
        method={loaderData.method}
        maskedPhone={loaderData.maskedPhone}
        hasPassword={loaderData.hasPassword}
        submitLabel={t("account.identity.submit")}
        pending={pending}
        tabHref={tabHref}
      />
    </Page>
  );
}
