import { data, Form, redirect, useNavigation } from "react-router";
import {
  consoleCookie,
  consoleRedirectTarget,
  consoleSession,
  readConsoleToken,
  requestWhere,
} from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { verifyLogin } from "~/domain/auth/flows.server";
import { normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { hasConfirmedTotp } from "~/domain/staff/second-factor.server";
import {
  auditFailedConsoleLogin,
  endConsoleSession,
  staffProfile,
  startConsoleSession,
} from "~/domain/staff/sessions.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.login.title");

function next(stage: "enrol" | "second_factor", redirectTo: string): string {
  return `${stage === "enrol" ? "/admin/enrol" : "/admin/verify"}?${new URLSearchParams({ redirectTo })}`;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const session = consoleSession(context);
  if (session?.stage === "active") throw redirect(consoleRedirectTarget(request));
  return { ended: new URL(request.url).searchParams.get("ended") === "1" };
}

/** Password first (the member login's checks and limits); the second factor follows on its own page. */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const identifier = String(form.get("identifier") ?? "").trim();
  const password = String(form.get("password") ?? "");
  const values = { identifier };
  const refuse = (formError: string, status = 400) => data({ formError, values }, { status });
  if (!identifier || !password) {
    return data(
      {
        errors: {
          ...(identifier ? {} : { identifier: [t("common.required")] }),
          ...(password ? {} : { password: [t("common.required")] }),
        },
        values,
      },
      { status: 400 },
    );
  }
  const kind = identifier.includes("@") ? "email" : "phone";
  const normalized = kind === "email" ? identifier.toLowerCase() : normalizeTaiwanMobile(identifier);
  if (!normalized) return refuse(t("console.login.invalid"));
  const now = requestNow(request, app.config);
  const result = await verifyLogin(app, { kind, identifier: normalized, password, ip: app.ip }, now);
  if (!result.ok) {
    if (result.reason === "rate_limited") {
      return refuse(t("console.login.rateLimited", { seconds: result.retryAfterSeconds }), 429);
    }
    if (result.reason === "invalid") {
      await auditFailedConsoleLogin(app.db, { kind, identifier: normalized }, requestWhere(context, request), now);
    }
    // A disabled member account has proven its password: its owner may learn that it opens no console.
    return refuse(t(result.reason === "disabled" ? "console.login.notStaff" : "console.login.invalid"));
  }
  const profile = await staffProfile(app.db, result.userId);
  if (!profile || profile.disabled) return refuse(t("console.login.notStaff"), 403);
  await endConsoleSession(app.db, readConsoleToken(request));
  const started = await startConsoleSession(
    app.db,
    { userId: result.userId, ip: app.ip, userAgent: request.headers.get("user-agent") },
    now,
  );
  const stage = (await hasConfirmedTotp(app.db, result.userId)) ? "second_factor" : "enrol";
  return redirect(next(stage, consoleRedirectTarget(request)), {
    headers: { "Set-Cookie": consoleCookie(started.token, app.config.isProduction) },
  });
}

export default function ConsoleLogin({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  return (
    <ConsoleAuthFrame title={t("console.login.title")} lead={t("console.login.lead")}>
      <Form method="post" className="space-y-5" noValidate={false}>
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        {!form.formError && loaderData.ended ? <Alert tone="info">{t("console.login.sessionEnded")}</Alert> : null}
        <Field
          label={t("console.login.identifier")}
          errors={form.errors("identifier")}
          inputProps={{
            name: "identifier",
            type: "text",
            autoComplete: "username",
            required: true,
            maxLength: 254,
            defaultValue: form.value("identifier"),
          }}
        />
        <Field
          label={t("console.login.password")}
          errors={form.errors("password")}
          inputProps={{
            name: "password",
            type: "password",
            autoComplete: "current-password",
            required: true,
            maxLength: 128,
          }}
        />
        <Button type="submit" block pending={pending}>
          {t("console.login.submit")}
        </Button>
      </Form>
    </ConsoleAuthFrame>
  );
}
