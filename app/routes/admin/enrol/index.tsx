import { data, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import { consoleRedirectTarget, requestWhere, requireSignInStep } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleAuthFrame } from "~/components/console/auth-frame";
import { ConsoleCodeForm } from "~/components/console/code-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { beginTotpEnrolment, confirmTotpEnrolment } from "~/domain/staff/second-factor.server";
import { activateEnrolledSession } from "~/domain/staff/sessions.server";
import { requestNow } from "~/lib/clock.server";
import { codeSchema, formFailure, parseForm, readForm } from "~/lib/forms.server";
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
  if (session.stage === "active") throw redirect(consoleRedirectTarget(request));
  const started = await beginTotpEnrolment(
    { db: app.db, secret: app.config.secrets.session },
    session.userId,
    requestNow(request, app.config),
  );
  if (!started.ok)
    throw redirect(`/admin/verify?${new URLSearchParams({ redirectTo: consoleRedirectTarget(request) })}`);
  return {
    secret: started.secret.replace(/(.{4})/g, "$1 ").trim(),
    qr: qrSvg(started.uri, { border: 2 }),
    redirectTo: consoleRedirectTarget(request),
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
  const { code } = parsed.data;
  const now = requestNow(request, app.config);
  const result = await confirmTotpEnrolment(
    { db: app.db, secret: app.config.secrets.session },
    session.userId,
    code.slice(0, 16),
    {
      actorType: "staff",
      userId: session.userId,
      role: session.profile.role,
      storeId: null,
      ...requestWhere(context, request),
    },
    now,
  );
  if (!result.ok) return data({ errors: { code: [t("console.enrol.invalid")] } }, { status: 400 });
  // The enrolment code was a valid second factor: the session opens.
  await activateEnrolledSession(app.db, session.sessionId, now);
  return { recoveryCodes: result.recoveryCodes };
}

export default function ConsoleEnrol({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const codes = actionData && "recoveryCodes" in actionData ? actionData.recoveryCodes : null;
  if (codes) {
    return (
      <ConsoleAuthFrame title={t("console.enrol.codesTitle")} lead={t("console.enrol.codesLead")}>
        <ol className="grid grid-cols-2 gap-2 font-mono text-base" data-testid="recovery-codes">
          {codes.map((code) => (
            <li key={code} className="rounded-lg bg-sand px-3 py-2 text-center">
              {code}
            </li>
          ))}
        </ol>
        <Link to={loaderData.redirectTo} className={`${buttonVariants({ variant: "primary", block: true })} mt-6`}>
          {t("console.enrol.continue")}
        </Link>
      </ConsoleAuthFrame>
    );
  }
  return (
    <ConsoleAuthFrame title={t("console.enrol.title")} lead={t("console.enrol.lead")}>
      <div className="mx-auto w-48">
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(loaderData.qr)}`}
          alt={t("console.enrol.qrAlt")}
          width={192}
          height={192}
        />
      </div>
      <p className="mt-4 text-center text-sm text-muted">{t("console.enrol.secret")}</p>
      <p className="text-center font-mono text-base tracking-wider break-all" data-testid="totp-secret">
        {loaderData.secret}
      </p>
      <ConsoleCodeForm submitLabel={t("console.enrol.submit")} inputMode="numeric" maxLength={16} className="mt-6" />
    </ConsoleAuthFrame>
  );
}
