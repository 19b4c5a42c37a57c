import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { acceptIdToken, completeLineLogin, exchangeCode } from "~/domain/line/line.server";
import type { Route } from "./+types/line-callback";
import {
  lineFailure,
  lineFlowCookie,
  lineRedirectUri,
  logLineFailure,
  requireLine,
  respondToLineOutcome,
} from "./line-flow.server";

const callbackQuery = z.union([
  z.object({ code: z.string().min(1).max(512), state: z.string().min(1).max(512) }),
  z.object({ error: z.string().max(100), state: z.string().max(512).optional() }),
]);

/**
 * LINE returns here (web login). The flow cookie is cleared first, so a callback is used once;
 * then: state must match, the code is exchanged (single use, PKCE, secret), and the ID token is
 * checked (HS256 with the channel secret, nonce) and accepted once.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const line = requireLine(context);
  const app = getApp(context);
  const flow = await lineFlowCookie.read(context, request);
  const headers = new Headers({ "Set-Cookie": await lineFlowCookie.clear(context) });
  const method = flow?.method ?? "signin";
  const fail = (reason: string) => {
    logLineFailure(context, method, reason);
    return lineFailure(context, method, headers);
  };

  const query = callbackQuery.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return fail("bad_callback");
  if (!flow) return fail("no_flow");
  if (query.data.state !== flow.state) return fail("state_mismatch");
  if ("error" in query.data) return fail(`provider_error:${query.data.error}`);

  const exchanged = await exchangeCode(
    { line, logger: app.logger },
    { code: query.data.code, redirectUri: lineRedirectUri(context, request), verifier: flow.verifier },
  );
  if (!exchanged.ok) return fail(exchanged.reason);
  const accepted = await acceptIdToken({ db: app.db, line, logger: app.logger }, exchanged.tokens.idToken, {
    flow: "web",
    nonce: flow.nonce,
  });
  if (!accepted.ok) return fail(accepted.reason);

  const outcome = await completeLineLogin(
    { db: app.db, auth: app.auth, line, logger: app.logger },
    {
      identity: accepted.identity,
      method,
      tokens: exchanged.tokens,
      currentUserId: getMemberSession(context)?.member ? (getMemberSession(context)?.userId ?? null) : null,
    },
  );
  return respondToLineOutcome(context, request, {
    outcome,
    method,
    accessToken: exchanged.tokens.accessToken,
    redirectTo: flow.redirectTo,
    headers,
  });
}
