import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { beginWebLogin } from "~/domain/line/line.server";
import { readForm } from "~/lib/forms.server";
import { links, safeRedirectPath } from "~/lib/links";
import type { Route } from "./+types/line-start";
import { lineFlowCookie, lineMethodSchema, lineRedirectUri, requireLine } from "./line-flow.server";

/**
 * POST from the LINE buttons (sign-in, sign-up, link): a new authorization request with state,
 * nonce and PKCE S256; lineMethod travels with them in the signed flow cookie. GET is not offered
 * (starting a login is a state change; the origin check guards POSTs).
 */
export async function action({ request, context }: Route.ActionArgs) {
  const line = requireLine(context);
  const form = await readForm(request);
  const method = lineMethodSchema.catch("signin").parse(form.get("method"));
  const session = getMemberSession(context);
  // Back to the linked-logins page after logging in (this POST-only address is no place to return to).
  if (method === "link" && !session?.member) {
    throw redirect(links["member-login"](links.linkedLogins()));
  }
  if (method !== "link" && session?.member) throw redirect(links["member-center"]());
  const redirectTo =
    method === "link" ? links.linkedLogins() : safeRedirectPath(form.get("redirectTo"), links["member-center"]());
  const { url, flow } = beginWebLogin(line, {
    method,
    redirectUri: lineRedirectUri(context, request),
    redirectTo,
    offerOfficialAccount: getApp(context).config.lineMessaging.mode !== "disabled",
  });
  return redirect(url, { headers: { "Set-Cookie": await lineFlowCookie.write(context, flow) } });
}

export function loader() {
  throw new Response("Method Not Allowed", { status: 405, headers: { Allow: "POST" } });
}
