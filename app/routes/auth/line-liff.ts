import { redirect } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { acceptIdToken, completeLineLogin } from "~/domain/line/line.server";
import { readForm } from "~/lib/forms.server";
import { links } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/line-liff";
import { lineFailure, lineMethodSchema, logLineFailure, requireLine, respondToLineOutcome } from "./line-flow.server";

/**
 * Inside the LINE app: the page posts the raw ID token LIFF gave it (and the stored lineMethod).
 * Only the token is trusted: ES256, key by kid from LINE's JWKS, issuer, audience, expiry, accepted
 * once. No user id or profile from the browser is read.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const line = requireLine(context);
  const app = getApp(context);
  const form = await readForm(request);
  const method = lineMethodSchema.catch("signin").parse(form.get("method"));
  const session = getMemberSession(context);
  if (method !== "link" && session?.member) return redirect(links["member-center"]());
  const idToken = form.get("idToken");
  if (typeof idToken !== "string" || idToken.length === 0) {
    logLineFailure(context, method, "missing");
    return redirectWithToast(toastSettings(context), links["member-login"](), {
      type: "error",
      message: "notice.lineNoIdToken",
    });
  }
  if (idToken.length > 4096) {
    logLineFailure(context, method, "malformed");
    return lineFailure(context, method);
  }
  const accepted = await acceptIdToken({ db: app.db, line, logger: app.logger }, idToken, { flow: "liff" });
  if (!accepted.ok) {
    logLineFailure(context, method, accepted.reason);
    return lineFailure(context, method);
  }
  const outcome = await completeLineLogin(
    { db: app.db, auth: app.auth, line, logger: app.logger },
    {
      identity: accepted.identity,
      method,
      tokens: null,
      currentUserId: session?.member ? session.userId : null,
    },
  );
  return respondToLineOutcome(context, request, {
    outcome,
    method,
    accessToken: null,
    redirectTo: links["member-center"](),
  });
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
