import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { withOwnCode } from "~/adapters/referral-cookie.server";
import { Page } from "~/components/layout/page";
import { LiffShare } from "~/components/line/line-app-slots";
import { CopyLink } from "~/components/member-center/copy-link";
import { Link } from "~/components/ui/link";
import { currentRules } from "~/domain/loyalty/rules.server";
import { referralPath } from "~/domain/referrals/code";
import { referralSummary, referralsOf } from "~/domain/referrals/referrals.server";
import { referralRewardTerms } from "~/domain/referrals/rules.server";
import { requestNow } from "~/lib/clock.server";
import { type MessageKey, useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { qrSvg } from "~/lib/qr.server";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/invite";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "referrals.invite.title");

/**
 * Invite friends (issue 38, ADR 053): the member's code and link (copy, LINE's share target picker inside LINE, a QR
 * code), the programme's terms in force, and the friends who signed up with it and the rewards they brought. The
 * page marks this browser as the member's own, so the link opened here cannot sign up a "friend".
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, app.config);
  const [rules, rows] = await Promise.all([currentRules(app.db, now), referralsOf(app.db, member.id)]);
  const url = new URL(referralPath(member.referralCode), app.config.publicBaseUrl).toString();
  const own = await withOwnCode(context, request, member.referralCode);
  const reward = await referralRewardTerms(app.db, rules);
  return data(
    {
      messages: routeMessages(locale, "referrals."),
      code: member.referralCode,
      url,
      qr: qrSvg(url, { border: 2 }),
      terms: {
        enabled: rules.referralEnabled,
        points: rules.referralPoints,
        // A coupon's name when the reward is a coupon (ADR 053); null: points.
        reward: reward.kind === "coupon" ? reward.name : null,
        min: rules.referralMinAmount,
        cap: rules.referralMonthlyCap,
        days: rules.referralWindowDays,
      },
      summary: referralSummary(rows.referred),
      friends: rows.referred.map((r) => ({
        id: r.id,
        // Only the friend's family name's first character: the referrer does not learn who bought what.
        name: `${r.friendName.slice(0, 1)}＊＊`,
        state: r.state,
        points: r.points,
        rewardName: r.rewardKind === "coupon" ? r.rewardName : null,
        at: r.createdAt.toISOString(),
      })),
    },
    { headers: { "Cache-Control": "private, no-store", ...(own ? { "Set-Cookie": own } : {}) } },
  );
}

export default function InvitePage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  return (
    <Page title={t("referrals.invite.title")} lead={t("referrals.invite.lead")} width="narrow">
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <Link to="/member-center" className="text-sm font-semibold text-brand-700 underline underline-offset-4">
          {t("referrals.invite.toCenter")}
        </Link>
        {/* Trade accounts (issue 38 part 2, ADR 057): designers and contractors apply here. */}
        <Link
          to="/member-center/trade"
          className="text-sm font-semibold text-brand-700 underline underline-offset-4"
          data-testid="to-trade"
        >
          {t("referrals.invite.toTrade")}
        </Link>
      </div>
      <p className="mt-4 rounded-2xl border border-line bg-white px-4 py-3" data-testid="referral-terms">
        {d.terms.enabled && d.terms.reward !== null
          ? t("referrals.invite.termsCoupon", {
              min: d.terms.min.toLocaleString(locale),
              reward: d.terms.reward,
              cap: d.terms.cap,
              days: d.terms.days,
            })
          : d.terms.enabled
            ? t("referrals.invite.terms", {
                min: d.terms.min.toLocaleString(locale),
                points: d.terms.points.toLocaleString(locale),
                cap: d.terms.cap,
                days: d.terms.days,
              })
            : t("referrals.invite.paused")}
      </p>

      <section aria-labelledby="invite-code" className="mt-6">
        <h2 id="invite-code" className="text-lg font-semibold">
          {t("referrals.invite.codeTitle")}
        </h2>
        <p className="mt-2 font-mono text-2xl tracking-widest" data-testid="referral-code">
          {d.code}
        </p>
        <CopyLink
          url={d.url}
          label={t("referrals.invite.link")}
          copy={t("referrals.invite.copy")}
          copied={t("referrals.invite.copied")}
        />
        <LiffShare
          kind="invite"
          name={t("referrals.invite.shareName")}
          path={new URL(d.url).pathname}
          className="mt-3"
        />
        <img
          src={`data:image/svg+xml;utf8,${encodeURIComponent(d.qr)}`}
          alt={t("referrals.invite.qrAlt")}
          className="mt-4 size-48 rounded-xl border border-line bg-white p-2"
          width={192}
          height={192}
        />
      </section>

      <section aria-labelledby="invite-friends" className="mt-8">
        <h2 id="invite-friends" className="text-lg font-semibold">
          {t("referrals.invite.friendsTitle")}
        </h2>
        <p className="mt-2" data-testid="referral-summary">
          {t(d.summary.coupons > 0 ? "referrals.invite.summaryCoupons" : "referrals.invite.summary", {
            friends: d.summary.friends,
            rewarded: d.summary.rewarded,
            points: d.summary.points.toLocaleString(locale),
            coupons: d.summary.coupons,
          })}
        </p>
        {d.friends.length === 0 ? (
          <p className="mt-2 text-muted">{t("referrals.invite.empty")}</p>
        ) : (
          <ul
            className="mt-3 divide-y divide-line rounded-2xl border border-line bg-white"
            data-testid="referral-friends"
          >
            {d.friends.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                <span>
                  {f.name} · <time dateTime={f.at}>{formatTaipei(f.at, locale)}</time>
                </span>
                <span className="text-sm font-semibold" data-state={f.state}>
                  {f.state === "rewarded" && f.rewardName !== null
                    ? t("referrals.state.rewardedCoupon", { reward: f.rewardName })
                    : t(`referrals.state.${f.state}` as MessageKey, { points: f.points })}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </Page>
  );
}
