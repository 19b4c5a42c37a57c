import { data, Form, redirect, useNavigation } from "react-router";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { giveSecondFactor } from "~/domain/staff/sessions.server";
import { requestNow } from "~/lib/clock.server";
import { CONSOLE_HOME, clearConsoleCookie, consoleSession, requestWhere } from "~/lib/console.server";
import { getApp } from "~/lib/context.server";
import { readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { safeRedirectPath } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/verify";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.verify.title");

function redirectTarget(request: Request): string {
  return safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), CONSOLE_HOME);
}

/** The login's second step, and the step-up code before sensitive actions (requireRecentSecondFactor). */
function requireSession(context: Route.LoaderArgs["context"], request: Request) {
  const session = consoleSession(context);
  const back = new URLSearchParams({ redirectTo: redirectTarget(request) });
  if (!session) throw redirect(`/admin/login?${back}`);
  if (session.stage === "enrol") throw redirect(`/admin/enrol?${back}`);
  return session;
}

export function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSession(context, request);
  return { stepUp: session.stage === "active" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const session = requireSession(context, request);
  const form = await readForm(request);
  const code = String(form.get("code") ?? "").trim();
  const t = serverT(request);
  if (!code) return data({ errors: { code: [t("common.required")] } }, { status: 400 });
  const result = await giveSecondFactor(
    { db: app.db, secret: app.config.secrets.session },
    session,
    code.slice(0, 32),
    {
      actorType: "staff",
      userId: session.userId,
      role: session.profile.role,
      storeId: null,
      ...requestWhere(context, request),
    },
    requestNow(request, app.config),
  );
  if (result.ok) return redirect(redirectTarget(request));
  if (result.reason === "session_ended") {
    return redirect("/admin/login?ended=1", {
      headers: { "Set-Cookie": clearConsoleCookie(app.config.isProduction) },
    });
  }
  return data({ errors: { code: [t("console.verify.invalid")] } }, { status: 400 });
}

export default function ConsoleVerify({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  return (
    <ConsoleAuthFrame
      title={t("console.verify.title")}
      lead={loaderData.stepUp ? t("console.verify.stepUpLead") : t("console.verify.lead")}
    >
      <Form method="post" className="space-y-5">
        <Field
          label={t("console.verify.code")}
          errors={form.errors("code")}
          inputProps={{
            name: "code",
            type: "text",
            inputMode: "text",
            autoComplete: "one-time-code",
            required: true,
            maxLength: 32,
            className: "tracking-[0.3em]",
          }}
        />
        <Button type="submit" block pending={pending}>
          {t("console.verify.submit")}
        </Button>
      </Form>
    </ConsoleAuthFrame>
  );
}
