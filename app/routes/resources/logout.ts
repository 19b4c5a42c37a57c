import { redirect } from "react-router";
import { getApp, toastSettings } from "~/adapters/context.server";
import { links } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";
import type { Route } from "./+types/logout";

/** Ends this session (server-side) and clears the cookie; the member-session state goes with it. */
export async function action({ request, context }: Route.ActionArgs) {
  const { auth } = getApp(context);
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
  return response;
}

export function loader() {
  return redirect(links.home());
}
