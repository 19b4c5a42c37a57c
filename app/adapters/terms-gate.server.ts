import { href, type MiddlewareFunction, redirect } from "react-router";
import { needsTermsAcceptance } from "~/domain/members/terms-acceptance.server";
import { links, safeRedirectPath } from "~/lib/links";
import { getApp } from "./context.server";
import { getMemberSession } from "./current-member.server";

/** Where a member goes when no (valid) return path was given: the member center. */
const DEFAULT_RETURN = "/member-center";

/**
 * The acceptance page's own address: never a return path (a loop), and anything not a same-site relative path
 * (an absolute URL, `//host`, a backslash or control character) falls back to the member center.
 */
export function termsReturnPath(target: unknown): string {
  const path = safeRedirectPath(target, DEFAULT_RETURN);
  const pathname = path.split(/[?#]/)[0] ?? "";
  return pathname === href("/accept-terms") ? DEFAULT_RETURN : path;
}

/** The acceptance page (/accept-terms) with the way back to where the member was going. */
export function acceptTermsPath(back?: string): string {
  const target = back === undefined ? DEFAULT_RETURN : termsReturnPath(back);
  return `${href("/accept-terms")}?${new URLSearchParams({ redirectTo: target })}`;
}

/**
 * The one gate of the member pages (the member-center layout's middleware, ADR 038 "Consents"): a member moved in
 * from another system who has not accepted the current terms and privacy notice is sent to /accept-terms first,
 * whatever way they logged in (password, SMS code, LINE, the welcome claim), for every page, data request,
 * form post and resource under /member-center. The card's token answers 403 in JSON instead (the card fetches it;
 * the page itself is never shown before the acceptance). Visitors and members not traced to an import pass.
 */
export const termsGateMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const member = getMemberSession(context)?.member;
  if (member && (await needsTermsAcceptance(getApp(context).db, { memberId: member.id, userId: member.userId }))) {
    const url = new URL(request.url);
    const headers = { "Cache-Control": "private, no-store" };
    if (url.pathname === links.cardToken()) {
      return Response.json({ error: { code: "terms_not_accepted" } }, { status: 403, headers });
    }
    // A post's answer would be lost anyway: it comes back to the page it was posted from.
    throw redirect(acceptTermsPath(url.pathname + url.search), { headers });
  }
  return next();
};
