import { type RouterContextProvider, redirect } from "react-router";
import { z } from "zod";
import { authDeps, getApp, toastSettings } from "~/adapters/context.server";
import { flowCookie } from "~/adapters/flow-cookie.server";
import { startSession } from "~/domain/auth/flows.server";
import type { IdTokenFailure } from "~/domain/line/id-token.server";
import {
  type LineChannel,
  type LineMethod,
  type LineOutcome,
  lineChannel,
  revokeLineToken,
} from "~/domain/line/line.server";
import type { MessageKey } from "~/lib/i18n";
import { links, safeRedirectPath } from "~/lib/links";
import { redirectWithToast } from "~/lib/toast.server";

export const lineMethodSchema = z.enum(["signup", "signin", "link"]);

/** state, nonce, PKCE verifier and lineMethod between "start" and the callback (10 minutes). */
export const lineFlowCookie = flowCookie(
  "line_flow",
  z.object({
    state: z.string(),
    nonce: z.string(),
    verifier: z.string(),
    method: lineMethodSchema,
    redirectTo: z.string(),
  }),
  10 * 60,
);

/** The configured LINE channel, or 404 (production without a channel: LINE is off). */
export function requireLine(context: Readonly<RouterContextProvider>): LineChannel {
  const line = lineChannel(getApp(context).config.line);
  if (!line) throw new Response("Not Found", { status: 404 });
  return line;
}

/**
 * The callback LINE returns to. A real channel has it registered under PUBLIC_BASE_URL; the local
 * provider accepts the origin the browser is on (localhost and 127.0.0.1 alike), so the flow
 * cookie set on that origin comes back.
 */
export function lineRedirectUri(context: Readonly<RouterContextProvider>, request: Request): string {
  const { config } = getApp(context);
  const origin = config.line.mode === "local" ? new URL(request.url).origin : config.publicBaseUrl;
  return `${origin}${links.lineCallback()}`;
}

/** Where a failed LINE attempt goes, with which notice (specification §8). */
export function lineFailure(
  context: Readonly<RouterContextProvider>,
  method: LineMethod,
  headers?: HeadersInit,
): Promise<Response> {
  const target: Record<LineMethod, { url: string; message: MessageKey }> = {
    signin: { url: `${links["member-login"]()}?line=signup-offer`, message: "notice.loginFailed" },
    signup: { url: links.signupPhoneVerification(), message: "notice.lineSignupFailed" },
    link: { url: links.linkedLogins(), message: "notice.lineLinkFailed" },
  };
  return redirectWithToast(
    toastSettings(context),
    target[method].url,
    { type: "error", message: target[method].message },
    { headers },
  );
}

export function logLineFailure(
  context: Readonly<RouterContextProvider>,
  method: LineMethod,
  reason: IdTokenFailure | string,
) {
  getApp(context).logger.warn({ method, reason }, "LINE login failed");
}

/** Turns the outcome of the LINE return flow into the redirect of PRODUCT.md §3. */
export async function respondToLineOutcome(
  context: Readonly<RouterContextProvider>,
  request: Request,
  input: {
    outcome: LineOutcome;
    method: LineMethod;
    accessToken: string | null;
    redirectTo: string;
    headers?: Headers;
  },
): Promise<Response> {
  const app = getApp(context);
  const line = requireLine(context);
  const headers = new Headers(input.headers);
  const endLineSession = async () => {
    if (input.accessToken) await revokeLineToken({ line, logger: app.logger }, input.accessToken);
  };
  const withSession = async (userId: string) => {
    const session = await startSession(authDeps(context), userId, request.headers);
    for (const cookie of session.getSetCookie()) headers.append("Set-Cookie", cookie);
  };
  const toast = (url: string, type: "success" | "error", message: MessageKey) =>
    redirectWithToast(toastSettings(context), url, { type, message }, { headers });

  switch (input.outcome.kind) {
    case "signed_in":
      await withSession(input.outcome.userId);
      if (input.outcome.alreadyMember) {
        await endLineSession();
        return toast(links["member-center"](), "error", "notice.alreadyMember");
      }
      // The address came through a cookie written at the start of the flow: check it again on the way out.
      return toast(safeRedirectPath(input.redirectTo, links["member-center"]()), "success", "notice.loggedIn");
    case "signup_continue":
      await withSession(input.outcome.userId);
      return redirect(links["signup-create-member-info"](), { headers });
    case "no_member":
      await endLineSession();
      return toast(`${links["member-login"]()}?line=signup-offer`, "error", "notice.loginFailed");
    case "disabled":
      await endLineSession();
      return toast(links["member-login"](), "error", "auth.login.disabled");
    case "linked":
      return toast(links.linkedLogins(), "success", "notice.lineLinked");
    case "link_taken":
      await endLineSession();
      return toast(links.linkedLogins(), "error", "notice.lineLinkTaken");
  }
}
