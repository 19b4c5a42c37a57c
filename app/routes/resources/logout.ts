import { redirect } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { revokeCardDevices } from "~/domain/loyalty/card-devices.server";
import { links } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/logout";

/**
 * Ends this session (server-side) and clears the cookie; the member-session state goes with it. The offline member
 * cards this login set up stop working (ADR 043), and `Clear-Site-Data` makes the browser drop the card's secret,
 * its kept page and its service worker.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth, db } = getApp(context);
  const sessionId = getMemberSession(context)?.sessionId;
  if (sessionId) await revokeCardDevices(db, { session: sessionId });
  let headers = new Headers();
  try {
    headers = (await auth.api.signOut({ headers: request.headers, returnHeaders: true })).headers;
  } catch {
    // No session (already logged out): still land on the home page.
  }
  const response = await redirectWithToast(toastSettings(context), links.home(), {
    type: "success",
    message: "notice.loggedOut",
  });
  for (const cookie of headers.getSetCookie()) response.headers.append("Set-Cookie", cookie);
  response.headers.set("Clear-Site-Data", '"storage"');
  return response;
}

export function loader() {
  return redirect(links.home());
}
