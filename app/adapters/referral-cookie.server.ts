import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { OWN_CODES_COOKIE, REFERRAL_CODE, REFERRAL_COOKIE } from "~/domain/referrals/code";
import { flowCookie } from "./flow-cookie.server";

/**
 * The referral code a visitor arrived with (`/join/<code>`, ADR 053), carried through every sign-up flow (phone,
 * e-mail, LINE: they all end at create-member-info) for 30 days; and the codes whose owners opened their invite page
 * in this browser (a year), so that the same device cannot refer itself.
 */
export const referralCookie = flowCookie(
  REFERRAL_COOKIE,
  z.object({ code: z.string().regex(REFERRAL_CODE) }),
  30 * 86_400,
);
export const ownCodesCookie = flowCookie(
  OWN_CODES_COOKIE,
  z.array(z.string().regex(REFERRAL_CODE)).max(5),
  365 * 86_400,
);

/** The codes this browser's own members opened, with `code` added (the newest five). */
export async function withOwnCode(
  context: Readonly<RouterContextProvider>,
  request: Request,
  code: string,
): Promise<string | null> {
  const own = (await ownCodesCookie.read(context, request)) ?? [];
  if (own.includes(code)) return null;
  return ownCodesCookie.write(context, [code, ...own].slice(0, 5));
}
