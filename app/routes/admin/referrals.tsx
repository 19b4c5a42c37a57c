import { getApp } from "~/adapters/context.server";
import { ConsoleTable } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import { currentRules } from "~/domain/loyalty/rules.server";
import { topReferrers } from "~/domain/referrals/referrals.server";
import { referralRewardTerms } from "~/domain/referrals/rules.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/referrals";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.referrals.title");

/**
 * Top referrers (issue 38, ADR 053): members by rewarded referrals, then friends linked, with the programme's terms
 * in force (changed with the other programme rules, /admin/rules). Admins only (`programme.edit`); read only.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "programme.edit");
  const app = getApp(context);
  const [rows, rules] = await Promise.all([
    topReferrers(app.db, 50),
    currentRules(app.db, requestNow(request, app.config)),
  ]);
  const reward = await referralRewardTerms(app.db, rules);
  return {
    rows,
    terms: {
      reward: reward.kind === "coupon" ? reward.name : null,
      enabled: rules.referralEnabled,
      points: rules.referralPoints,
      min: rules.referralMinAmount,
      cap: rules.referralMonthlyCap,
      days: rules.referralWindowDays,
    },
  };
}

export default function ConsoleReferrals({ loaderData: d }: Route.ComponentProps) {
  const t = useConsoleT();
  return (
    <ConsolePage title={t("console.referrals.title")} lead={t("console.referrals.lead")}>
      <p className="text-sm" data-testid="referral-terms">
        {d.terms.enabled && d.terms.reward !== null
          ? t("console.referrals.termsCoupon", {
              min: d.terms.min.toLocaleString(),
              reward: d.terms.reward,
              cap: d.terms.cap,
              days: d.terms.days,
            })
          : d.terms.enabled
            ? t("console.referrals.terms", {
                min: d.terms.min.toLocaleString(),
                points: d.terms.points,
                cap: d.terms.cap,
                days: d.terms.days,
              })
            : t("console.referrals.paused")}{" "}
        <Link to="/admin/rules">{t("console.referrals.toRules")}</Link>
      </p>
      <DetailSection id="top-referrers" title={t("console.referrals.top")} className="mt-6" testId="top-referrers">
        {d.rows.length === 0 ? (
          <p className="text-sm text-muted">{t("console.referrals.empty")}</p>
        ) : (
          <ConsoleTable
            labelledBy="top-referrers"
            minWidth="28rem"
            rows={d.rows}
            rowKey={(r) => r.memberId}
            rowTestId="top-referrer"
            columns={[
              {
                key: "member",
                header: t("console.referrals.col.member"),
                cell: (r) => (
                  <Link to={`/admin/members/${r.memberId}`}>
                    {r.name} ({r.memberNumber})
                  </Link>
                ),
              },
              {
                key: "friends",
                header: t("console.referrals.col.friends"),
                className: "tabular-nums",
                cell: (r) => r.friends,
              },
              {
                key: "rewarded",
                header: t("console.referrals.col.rewarded"),
                className: "tabular-nums",
                cell: (r) => r.rewarded,
              },
            ]}
          />
        )}
      </DetailSection>
    </ConsolePage>
  );
}
