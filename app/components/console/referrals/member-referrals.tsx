import { ConsoleTable } from "~/components/console/console-list";
import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import type { MessageKey } from "~/lib/i18n";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";

export type MemberReferralView = {
  code: string;
  referredBy: {
    memberId: string;
    name: string;
    number: string;
    state: string;
    points: number;
    rewardName: string | null;
  } | null;
  friends: {
    id: string;
    memberId: string;
    name: string;
    number: string;
    state: string;
    points: number;
    /** A coupon reward's name (ADR 053); null: points. */
    rewardName: string | null;
    at: string;
  }[];
};

/** The member's referrals on the console's member page (issue 38, ADR 053): their code, who referred them, whom they did. */
export function MemberReferrals({ data }: { data: MemberReferralView }) {
  const t = useConsoleT();
  const locale = useLocale();
  const state = (r: { state: string; points: number; rewardName: string | null }) =>
    r.state === "rewarded" && r.rewardName !== null
      ? t("console.referrals.state.rewardedCoupon", { reward: r.rewardName })
      : t(`console.referrals.state.${r.state}` as MessageKey, { points: r.points });
  return (
    <DetailSection
      id="referrals-title"
      title={t("console.referrals.member.title")}
      className="mt-6"
      testId="member-referrals"
    >
      <p className="text-sm">
        {t("console.referrals.member.code")} <span className="font-mono">{data.code}</span>
      </p>
      <p className="mt-1 text-sm" data-testid="member-referred-by">
        {data.referredBy ? (
          <>
            {t("console.referrals.member.referredBy")}{" "}
            <Link to={`/admin/members/${data.referredBy.memberId}`}>
              {data.referredBy.name} ({data.referredBy.number})
            </Link>{" "}
            · {state(data.referredBy)}
          </>
        ) : (
          t("console.referrals.member.notReferred")
        )}
      </p>
      {data.friends.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{t("console.referrals.member.empty")}</p>
      ) : (
        <ConsoleTable
          labelledBy="referrals-title"
          minWidth="28rem"
          rows={data.friends}
          rowKey={(r) => r.id}
          rowTestId="member-referral"
          columns={[
            {
              key: "friend",
              header: t("console.referrals.col.friend"),
              cell: (r) => (
                <Link to={`/admin/members/${r.memberId}`}>
                  {r.name} ({r.number})
                </Link>
              ),
            },
            {
              key: "at",
              header: t("console.referrals.col.at"),
              className: "tabular-nums whitespace-nowrap",
              cell: (r) => <time dateTime={r.at}>{formatTaipei(r.at, locale)}</time>,
            },
            { key: "state", header: t("console.referrals.col.state"), cell: (r) => state(r) },
          ]}
        />
      )}
    </DetailSection>
  );
}
