import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { cardTokenPayload } from "~/domain/loyalty/card-tokens.server";
import { requestNow } from "~/lib/clock.server";
import type { Route } from "./+types/card-token";

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
