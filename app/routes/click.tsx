import { redirect } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { CLICK_TOKEN, recordClick } from "~/domain/member-messages/click-links.server";
import { requestNow } from "~/lib/clock.server";
import { notFound, parseParam } from "~/lib/http.server";
import type { Route } from "./+types/click";

/**
 * A link in a campaign message (issue 38 part 5, ADR 055): `/r/<token>` records the member's first click on the
 * message (once, whatever the number of clicks and instances) and sends them on to the address stored with the
 * campaign when it was sent. A malformed, altered or forged token (a NUL byte included) is the 404 page — never a
 * redirect to an address read from the request.
 */
const tokenParam = z.string().regex(CLICK_TOKEN);

export function headers() {
  // The token is in the address: no referrer to the destination, never cached (each click is asked).
  return { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" };
}

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const token = parseParam(tokenParam, params.token, request);
  const click = await recordClick(app.db, app.config.secrets.session, token, requestNow(request, app.config));
  if (!click) {
    // A well-formed token that names nothing was altered or forged: logged (no member to audit), then the 404 page.
    app.logger.warn({ path: "/r/:token" }, "campaign click link refused");
    notFound(request);
  }
  return redirect(click.url, {
    status: 302,
    headers: { "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" },
  });
}

/** The loader always answers (a redirect, or the 404 page of the layout's boundary), as `not-found.tsx`. */
export default function ClickPage() {
  return null;
}
