import { useNavigation } from "react-router";
import { authDeps, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { IdentityProof } from "~/components/account/identity-proof";
import { Page } from "~/components/layout/page";
import { renewSession } from "~/domain/auth/identity.server";
import { readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links, safeRedirectPath } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/confirm-identity";
import { handleIdentityProof, identityProofData } from "./identity-proof.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "account.identity.title");

function readRedirect(request: Request) {
  return safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), links.security());
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const wantsSms = new URL(request.url).searchParams.get("method") === "sms";
  return {
    messages: routeMessages(getLocale(request), "account.identity."),
    redirectTo: readRedirect(request),
    identity: await identityProofData(context, session, wantsSms),
  };
}

/** A successful check starts a new session (a fresh login) and goes back to where the member was. */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const form = await readForm(request);
  const step = await handleIdentityProof(context, request, form, session, serverT(request));
  if (step.kind === "answer") return step.response;
  const headers = await renewSession(authDeps(context), {
    userId: session.userId,
    sessionId: session.sessionId,
    requestHeaders: request.headers,
  });
  const response = await redirectWithToast(toastSettings(context), readRedirect(request), {
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
        {...loaderData.identity}
        t={t}
        form={form}
        submitLabel={t("account.identity.submit")}
        pending={pending}
        tabHref={tabHref}
      />
    </Page>
  );
}
