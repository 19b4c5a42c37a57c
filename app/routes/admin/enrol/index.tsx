import { redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { consoleRedirectTarget, requestWhere, requireSignInStep } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { EnrolmentStart, RecoveryCodes } from "~/components/console/sign-in/enrolment";
import { beginTotpEnrolment, confirmTotpEnrolment } from "~/domain/staff/second-factor.server";
import { activateEnrolledSession } from "~/domain/staff/sessions.server";
import { signInAuditContext } from "~/domain/staff/sign-in";
import { requestNow } from "~/lib/clock.server";
import { codeSchema, fieldFailure, formFailure, parseForm, readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { qrSvg } from "~/lib/qr.server";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.enrol.title");

/**
 * After the enrolment the session is active and the loader would send the page on: the recovery codes
 * the action returned must stay on screen until the staff member has kept them.
 */
export function shouldRevalidate({ actionResult, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionResult && typeof actionResult === "object" && "recoveryCodes" in actionResult) return false;
  return defaultShouldRevalidate;
}

/** Only a session that passed the password and has no authenticator yet enrols here. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  const session = requireSignInStep(context, request, "enrol");
  const redirectTo = consoleRedirectTarget(request);
  if (session.stage === "active") throw redirect(redirectTo);
  const deps = { db: app.db, secret: app.config.secrets.session };
  const started = await beginTotpEnrolment(deps, session.userId, requestNow(request, app.config));
  if (!started.ok) throw redirect(`/admin/verify?${new URLSearchParams({ redirectTo })}`);
  return {
    secret: started.secret.replace(/(.{4})/g, "$1 ").trim(),
    qr: qrSvg(started.uri, { border: 2 }),
    redirectTo,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const session = requireSignInStep(context, request, "enrol");
  if (session.stage === "active") throw redirect(consoleRedirectTarget(request));
  const form = await readForm(request);
  const t = serverT(request);
  const parsed = parseForm(
    codeSchema(t, (raw) => raw.replace(/\s/g, "")),
    form,
  );
  if (!parsed.ok) return formFailure(parsed.failure);
  const now = requestNow(request, app.config);
  const result = await confirmTotpEnrolment(
    { db: app.db, secret: app.config.secrets.session },
    session.userId,
    parsed.data.code.slice(0, 16),
    signInAuditContext(session, requestWhere(context, request)),
    now,
  );
  if (!result.ok) return fieldFailure(form, "code", t("console.enrol.invalid"));
  // The enrolment code was a valid second factor: the session opens.
  await activateEnrolledSession(app.db, session.sessionId, now);
  return { recoveryCodes: result.recoveryCodes };
}

export default function ConsoleEnrol({ loaderData, actionData }: Route.ComponentProps) {
  const codes = actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : null;
  if (codes) return <RecoveryCodes codes={codes} continueTo={loaderData.redirectTo} />;
  return <EnrolmentStart qr={loaderData.qr} secret={loaderData.secret} />;
}
