import { useNavigation } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { IdentityProof } from "~/components/account/identity-proof";
import { Page } from "~/components/layout/page";
import { CheckboxField } from "~/components/ui/checkbox";
import { lineChannel } from "~/domain/line/line.server";
import { externalLoginRevokers } from "~/domain/members/external-logins.server";
import { deleteMemberAccount } from "~/domain/members/privacy.server";
import { fieldFailure, readForm } from "~/lib/forms.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/delete-account";
import { handleIdentityProof, identityProofData } from "./identity-proof.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "account.delete.title");

export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const wantsSms = new URL(request.url).searchParams.get("method") === "sms";
  return {
    messages: routeMessages(getLocale(request), "account.delete.", "account.identity."),
    identity: await identityProofData(context, session, wantsSms),
  };
}

/** Always the session's member, always with a fresh password or SMS code (ADR 015). */
export async function action({ request, context }: Route.ActionArgs) {
  const session = requireMember(context, request);
  const t = serverT(request);
  const form = await readForm(request);
  if (form.get("intent") !== "send-code" && form.get("confirm") !== "on") {
    return fieldFailure(form, "confirm", t("account.delete.confirmRequired"));
  }
  const step = await handleIdentityProof(context, request, form, session, t);
  if (step.kind === "answer") return step.response;
  const app = getApp(context);
  const result = await deleteMemberAccount(app.db, {
    userId: session.userId,
    ip: app.ip,
    revokers: externalLoginRevokers({ logger: app.logger, line: lineChannel(app.config.line) }),
  });
  if (result.ok && result.revokeFailures.length > 0) {
    app.logger.warn({ providers: result.revokeFailures }, "account deleted; some external logins could not be revoked");
  }
  const response = await redirectWithToast(toastSettings(context), links.home(), {
    type: "success",
    message: "notice.accountDeleted",
  });
  // The session row is gone; the cookie goes too.
  const ctx = await app.auth.$context;
  for (const name of [ctx.authCookies.sessionToken.name, ctx.authCookies.sessionData.name]) {
    response.headers.append("Set-Cookie", `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
  }
  return response;
}

export default function DeleteAccountPage({ loaderData }: Route.ComponentProps) {
  const t = useT(loaderData.messages);
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const tabHref = (method: "password" | "sms") => `?${new URLSearchParams({ method })}`;
  return (
    <Page title={t("account.delete.title")} lead={t("account.delete.lead")} width="narrow">
      <ul className="mb-8 space-y-3 rounded-3xl border border-danger-700/30 bg-white p-5 sm:p-6">
        {(["point1", "point2", "point3", "point4"] as const).map((p) => (
          <li key={p} className="flex gap-3">
            <span aria-hidden className="mt-2.5 size-1.5 shrink-0 rounded-full bg-danger-700" />
            <span>{t(`account.delete.${p}`)}</span>
          </li>
        ))}
      </ul>
      <IdentityProof
        {...loaderData.identity}
        t={t}
        form={form}
        submitLabel={t("account.delete.submit")}
        submitVariant="danger"
        pending={pending}
        tabHref={tabHref}
      >
        <CheckboxField
          name="confirm"
          label={t("account.delete.confirmLabel")}
          required
          errors={form.errors("confirm")}
          defaultChecked={form.checked("confirm")}
        />
      </IdentityProof>
      <p className="mt-6 text-center">
        <a href={links.memberPrivacy()} className="text-muted underline underline-offset-4">
          {t("account.delete.cancel")}
        </a>
      </p>
    </Page>
  );
}
