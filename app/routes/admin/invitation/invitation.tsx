import { data, redirect } from "react-router";
import { consoleCookie, requestWhere } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { ConsoleAuthForm } from "~/components/console/code-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Field } from "~/components/ui/field";
import { acceptInvitation, invitationState } from "~/domain/staff/accounts.server";
import { startConsoleSession } from "~/domain/staff/sessions.server";
import { invitationSchema } from "~/domain/staff/sign-in";
import { requestNow } from "~/lib/clock.server";
import { fieldFailure, formFailure, parseForm, readForm } from "~/lib/forms.server";
import type { MessageKey } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/invitation";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.invitation.title");

const STATE_MESSAGES: Record<"unknown" | "expired" | "used" | "revoked", MessageKey> = {
  unknown: "console.invitation.unknown",
  expired: "console.invitation.expired",
  used: "console.invitation.used",
  revoked: "console.invitation.revoked",
};
const PASSWORD_MESSAGES = {
  too_short: "console.invitation.tooShort",
  too_long: "console.invitation.tooLong",
  common: "console.invitation.common",
} as const;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const state = await invitationState(app.db, params.token, requestNow(request, app.config));
  if (!state.ok) return data({ problem: STATE_MESSAGES[state.reason], invitation: null }, { status: 410 });
  const { displayName, role } = state.invitation;
  return { problem: null, invitation: { displayName, role, existingAccount: state.existingAccount } };
}

/** A new person sets a password; an existing login proves itself with its own (ADR 020). Then: enrol TOTP. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(invitationSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const { password } = parsed.data;
  const now = requestNow(request, app.config);
  const result = await acceptInvitation(app.db, { token: params.token, password }, requestWhere(context, request), now);
  if (!result.ok) {
    const refuse = (formError: string, status: number) => formFailure({ errors: {}, values: {}, formError }, status);
    switch (result.reason) {
      case "password":
        return fieldFailure(form, "password", t(PASSWORD_MESSAGES[result.problem]));
      case "rate_limited":
        return fieldFailure(
          form,
          "password",
          t("console.invitation.rateLimited", { seconds: result.retryAfterSeconds }),
          429,
        );
      case "wrong_password":
        return fieldFailure(form, "password", t("console.invitation.wrongPassword"));
      case "no_password":
        return refuse(t("console.invitation.noPassword"), 400);
      default:
        return refuse(t(STATE_MESSAGES[result.reason]), 410);
    }
  }
  const where = { userId: result.userId, ip: app.ip, userAgent: request.headers.get("user-agent") };
  const started = await startConsoleSession(app.db, where, now);
  return redirect("/admin/enrol", { headers: { "Set-Cookie": consoleCookie(started.token, app.config.isProduction) } });
}

export default function ConsoleInvitation({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const { invitation, problem } = loaderData;
  if (!invitation) {
    return (
      <ConsoleAuthFrame title={t("console.invitation.title")}>
        <Alert tone="error">{problem ? t(problem) : null}</Alert>
      </ConsoleAuthFrame>
    );
  }
  const existing = invitation.existingAccount;
  const role = t(`console.role.${invitation.role}`);
  return (
    <ConsoleAuthFrame
      title={t("console.invitation.title")}
      lead={t("console.invitation.lead", { name: invitation.displayName, role })}
    >
      <ConsoleAuthForm submitLabel={t("console.invitation.submit")} formError={form.formError}>
        <Field
          label={t(existing ? "console.invitation.existingPassword" : "console.invitation.newPassword")}
          description={t(existing ? "console.invitation.existingHint" : "console.invitation.newPasswordHint")}
          errors={form.errors("password")}
          inputProps={{
            name: "password",
            type: "password",
            autoComplete: existing ? "current-password" : "new-password",
            required: true,
            minLength: existing ? undefined : 8,
            maxLength: 128,
          }}
        />
      </ConsoleAuthForm>
    </ConsoleAuthFrame>
  );
}
