import { redirect } from "react-router";
import {
  consoleCookie,
  consoleRedirectTarget,
  consoleSession,
  readConsoleToken,
  requestWhere,
} from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { ConsoleLoginForm } from "~/components/console/sign-in/login-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { verifyLogin } from "~/domain/auth/flows.server";
import { normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { hasConfirmedTotp } from "~/domain/staff/second-factor.server";
import {
  auditFailedConsoleLogin,
  endConsoleSession,
  staffProfile,
  startConsoleSession,
} from "~/domain/staff/sessions.server";
import { consoleLoginSchema } from "~/domain/staff/sign-in";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.login.title");

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
  const parsed = parseForm(consoleLoginSchema(t), form);
  if (!parsed.ok) return formFailure(parsed.failure);
  const refuse = (formError: string, status = 400) =>
    formFailure({ errors: {}, values: formValues(form), formError }, status);
  const { identifier, password } = parsed.data;
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
  const where = { userId: result.userId, ip: app.ip, userAgent: request.headers.get("user-agent") };
  const started = await startConsoleSession(app.db, where, now);
  const step = (await hasConfirmedTotp(app.db, result.userId)) ? "/admin/verify" : "/admin/enrol";
  return redirect(`${step}?${new URLSearchParams({ redirectTo: consoleRedirectTarget(request) })}`, {
    headers: { "Set-Cookie": consoleCookie(started.token, app.config.isProduction) },
  });
}

export default function ConsoleLogin({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  return (
    <ConsoleAuthFrame title={t("console.login.title")} lead={t("console.login.lead")}>
      <ConsoleLoginForm ended={loaderData.ended} />
    </ConsoleAuthFrame>
  );
}
