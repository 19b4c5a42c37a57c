import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleCookie, requestWhere } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { acceptInvitation, invitationState } from "~/domain/staff/accounts.server";
import { startConsoleSession } from "~/domain/staff/sessions.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
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

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const state = await invitationState(app.db, params.token, requestNow(request, app.config));
  if (!state.ok) return data({ problem: STATE_MESSAGES[state.reason], invitation: null }, { status: 410 });
  return {
    problem: null,
    invitation: {
      displayName: state.invitation.displayName,
      role: state.invitation.role,
      existingAccount: state.existingAccount,
    },
  };
}

/** A new person sets a password; an existing login proves itself with its own (ADR 020). Then: enrol TOTP. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(
    z.object({
      password: z
        .string()
        .default("")
        .pipe(z.string().min(1, t("common.required"))),
    }),
    form,
  );
  if (!parsed.ok) return formFailure(parsed.failure);
  const { password } = parsed.data;
  const now = requestNow(request, app.config);
  const result = await acceptInvitation(app.db, { token: params.token, password }, requestWhere(context, request), now);
  if (!result.ok) {
    if (result.reason === "password") {
      const key = ({ too_short: "tooShort", too_long: "tooLong", common: "common" } as const)[result.problem];
      return data({ errors: { password: [t(`console.invitation.${key}`)] } }, { status: 400 });
    }
    if (result.reason === "rate_limited") {
      const message = t("console.invitation.rateLimited", { seconds: result.retryAfterSeconds });
      return data({ errors: { password: [message] } }, { status: 429 });
    }
    if (result.reason === "wrong_password") {
      return data({ errors: { password: [t("console.invitation.wrongPassword")] } }, { status: 400 });
    }
    if (result.reason === "no_password")
      return data({ formError: t("console.invitation.noPassword") }, { status: 400 });
    return data({ formError: t(STATE_MESSAGES[result.reason]) }, { status: 410 });
  }
  const started = await startConsoleSession(
    app.db,
    { userId: result.userId, ip: app.ip, userAgent: request.headers.get("user-agent") },
    now,
  );
  return redirect("/admin/enrol", { headers: { "Set-Cookie": consoleCookie(started.token, app.config.isProduction) } });
}

export default function ConsoleInvitation({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { invitation, problem } = loaderData;
  if (!invitation) {
    return (
      <ConsoleAuthFrame title={t("console.invitation.title")}>
        <Alert tone="error">{problem ? t(problem) : null}</Alert>
      </ConsoleAuthFrame>
    );
  }
  const role = t(`console.role.${invitation.role}`);
  return (
    <ConsoleAuthFrame
      title={t("console.invitation.title")}
      lead={t("console.invitation.lead", { name: invitation.displayName, role })}
    >
      <Form method="post" className="space-y-5">
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        <Field
          label={t(
            invitation.existingAccount ? "console.invitation.existingPassword" : "console.invitation.newPassword",
          )}
          description={t(
            invitation.existingAccount ? "console.invitation.existingHint" : "console.invitation.newPasswordHint",
          )}
          errors={form.errors("password")}
          inputProps={{
            name: "password",
            type: "password",
            autoComplete: invitation.existingAccount ? "current-password" : "new-password",
            required: true,
            minLength: invitation.existingAccount ? undefined : 8,
            maxLength: 128,
          }}
        />
        <Button type="submit" block pending={pending}>
          {t("console.invitation.submit")}
        </Button>
      </Form>
    </ConsoleAuthFrame>
  );
}
