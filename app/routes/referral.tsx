import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { getMemberSession } from "~/adapters/current-member.server";
import { ownCodesCookie, referralCookie } from "~/adapters/referral-cookie.server";
import { Page } from "~/components/layout/page";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { normaliseReferralCode } from "~/domain/referrals/code";
import { referrerByCode } from "~/domain/referrals/referrals.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/referral";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "referrals.landing.title");

type Outcome = "invited" | "unknown" | "disabled" | "member" | "own";

/**
 * A referral link (issue 38, ADR 053). A good code from another member is kept in a cookie for the sign-up (every
 * flow ends at create-member-info, which links the new member); a visitor already signed in is told that a link
 * links nothing after sign-up; an unknown or disabled referrer's code, or the visitor's own, is refused in words.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const messages = routeMessages(getLocale(request), "referrals.");
  const code = normaliseReferralCode(params.code);
  const answer = (outcome: Outcome, status = 200, name: string | null = null, headers?: HeadersInit) =>
    data(
      { messages, outcome, name },
      { status, headers: { "Cache-Control": "private, no-store", "X-Robots-Tag": "noindex", ...headers } },
    );
  if (!code) return answer("unknown", 404);
  const owner = await referrerByCode(app.db, code);
  if (!owner) return answer("unknown", 404);
  if (!owner.usable) return answer("disabled", 410);
  const session = getMemberSession(context);
  if (session?.member) return answer(session.member.id === owner.id ? "own" : "member");
  if ((await ownCodesCookie.read(context, request))?.includes(code)) return answer("own");
  return answer("invited", 200, owner.nameZh.slice(0, 1), {
    "Set-Cookie": await referralCookie.write(context, { code }),
  });
}

export default function ReferralLanding({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const invited = d.outcome === "invited";
  return (
    <Page title={t("referrals.landing.title")} width="narrow">
      <p className="text-lg" data-testid="referral-outcome" data-outcome={d.outcome}>
        {invited ? t("referrals.landing.invited", { name: d.name ?? "" }) : t(`referrals.landing.${d.outcome}`)}
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        {invited ? (
          <Link to={links.signupPhoneVerification()} className={buttonVariants({ size: "lg" })}>
            {t("referrals.landing.signup")}
          </Link>
        ) : d.outcome === "member" || d.outcome === "own" ? (
          <Link to="/member-center/invite" className={buttonVariants({})}>
            {t("referrals.landing.toInvite")}
          </Link>
        ) : (
          <Link to={links.home()} className={buttonVariants({ variant: "secondary" })}>
            {t("referrals.landing.home")}
          </Link>
        )}
      </div>
    </Page>
  );
}
