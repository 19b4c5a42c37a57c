import { data } from "react-router";
import { issueCardToken } from "~/domain/loyalty/card-tokens.server";
import { requestNow } from "~/lib/clock.server";
import { getApp } from "~/lib/context.server";
import { getMemberSession } from "~/lib/member-session.server";
import { qrSvg } from "~/lib/qr.server";
import type { Route } from "./+types/card-token";

export type CardTokenPayload = {
  token: string;
  /** The token as a QR code (SVG markup rendered here, so the browser ships no QR encoder). */
  svg: string;
  expiresAt: string;
  /** The server's clock when the token was issued: the countdown runs on it, not on the phone's clock. */
  issuedAt: string;
};

/** A fresh member-card token with its QR code, for the logged-in member (docs/decisions/014). */
export function cardTokenPayload(secret: string, memberId: string, now: Date): CardTokenPayload {
  const { token, expiresAt } = issueCardToken(secret, memberId, now);
  return { token, svg: qrSvg(token), expiresAt: expiresAt.toISOString(), issuedAt: now.toISOString() };
}

/**
 * GET /member-center/card-token: the member center fetches the next token shortly before the
 * current one expires. JSON, never cached; 401 with a stable code when the session has ended (the
 * page then reloads into the login page).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = getMemberSession(context);
  const headers = { "Cache-Control": "private, no-store" };
  if (!session?.member) return data({ error: { code: "not_logged_in" } } as const, { status: 401, headers });
  const { config } = getApp(context);
  return data(cardTokenPayload(config.secrets.session, session.member.id, requestNow(request, config)), { headers });
}
