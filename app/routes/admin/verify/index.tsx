import { redirect } from "react-router";
import { clearConsoleCookie, consoleRedirectTarget, requestWhere, requireSignInStep } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { ConsoleCodeForm } from "~/components/console/code-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { giveSecondFactor } from "~/domain/staff/sessions.server";
import { signInAuditContext } from "~/domain/staff/sign-in";
import { requestNow } from "~/lib/clock.server";
import { codeSchema, fieldFailure, formFailure, parseForm, readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.verify.title");

/** The login's second step, and the step-up code before sensitive actions (requireRecentSecondFactor). */
export function loader({ request, context }: Route.LoaderArgs) {
  const session = requireSignInStep(context, request, "verify");
  return { stepUp: session.stage === "active" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const session = requireSignInStep(context, request, "verify");
  const form = await readForm(request);
  const t = serverT(request);
  const parsed = parseForm(
    codeSchema(t, (raw) => raw.trim()),
    form,
  );
  if (!parsed.ok) return formFailure(parsed.failure);
  const result = await giveSecondFactor(
    { db: app.db, secret: app.config.secrets.session },
    session,
    parsed.data.code.slice(0, 32),
    signInAuditContext(session, requestWhere(context, request)),
    requestNow(request, app.config),
  );
  if (result.ok) return redirect(consoleRedirectTarget(request));
  if (result.reason === "session_ended") {
    return redirect("/admin/login?ended=1", {
      headers: { "Set-Cookie": clearConsoleCookie(app.config.isProduction) },
    });
  }
  if (result.reason === "locked") return fieldFailure(form, "code", t("console.verify.locked"), 429);
  return fieldFailure(form, "code", t("console.verify.invalid"));
}

export default function ConsoleVerify({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  return (
    <ConsoleAuthFrame
      title={t("console.verify.title")}
      lead={loaderData.stepUp ? t("console.verify.stepUpLead") : t("console.verify.lead")}
    >
      <ConsoleCodeForm
        submitLabel={t("console.verify.submit")}
        inputMode="text"
        maxLength={32}
        inputClassName="tracking-[0.3em]"
      />
    </ConsoleAuthFrame>
  );
}
