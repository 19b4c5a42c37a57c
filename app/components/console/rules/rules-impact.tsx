import { useConsoleT } from "../use-console-t";

type Moves = { from: string; to: string; members: number }[];

export type RulesPreview = {
  proposed: Moves;
  current: Moves;
  purchases: number;
  pointsCurrent: number;
  pointsProposed: number;
  /** The referral programme's rewards over the last 30 days (issue 38, ADR 053). */
  referrals?: {
    decided: number;
    pending: number;
    rewardedCurrent: number;
    rewardedProposed: number;
    pointsCurrent: number;
    pointsProposed: number;
    couponsCurrent: number;
    couponsProposed: number;
    /** The coupon's name when the reward is a coupon (ADR 053); null: points. */
    rewardCurrent: string | null;
    rewardProposed: string | null;
  };
  token: string;
};

const TIER_RANK: Record<string, number> = { basic: 0, silver: 1, gold: 2 };

function TierMoves({ title, moves, testId }: { title: string; moves: Moves; testId: string }) {
  const t = useConsoleT();
  const tier = (x: string) => t(`console.counter.tier.${x}` as "console.counter.tier.basic");
  const up = moves.filter((m) => (TIER_RANK[m.to] ?? 0) > (TIER_RANK[m.from] ?? 0)).reduce((s, m) => s + m.members, 0);
  const down = moves.reduce((s, m) => s + m.members, 0) - up;
  return (
    <div data-testid={testId}>
      <h4 className="text-sm font-medium">{title}</h4>
      {moves.length === 0 ? (
        <p className="mt-1 text-sm text-muted">{t("console.programme.rules.impactNone")}</p>
      ) : (
        <>
          <p className="mt-1 text-sm">
            {t("console.programme.rules.impactUp", { count: up })} ·{" "}
            {t("console.programme.rules.impactDown", { count: down })}
          </p>
          <ul className="mt-1 space-y-0.5 text-sm text-muted">
            {moves.map((m) => (
              <li key={`${m.from}-${m.to}`}>
                {t("console.programme.rules.impactMove", { from: tier(m.from), to: tier(m.to), count: m.members })}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** What the new rules would change: tier moves with and without them, and points over the last purchases. */
export function RulesImpact({ preview }: { preview: RulesPreview }) {
  const t = useConsoleT();
  const delta = preview.pointsProposed - preview.pointsCurrent;
  return (
    <section
      className="rounded-2xl border border-brand-700/30 bg-brand-50/60 p-5"
      aria-labelledby="impact-title"
      data-testid="impact"
    >
      <h3 id="impact-title" className="text-lg font-semibold">
        {t("console.programme.rules.impactTitle")}
      </h3>
      <p className="mt-1 text-sm text-muted">{t("console.programme.rules.impactLead")}</p>
      <h4 className="mt-4 font-medium">{t("console.programme.rules.impactTiers")}</h4>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <TierMoves title={t("console.programme.rules.impactWith")} moves={preview.proposed} testId="impact-proposed" />
        <TierMoves title={t("console.programme.rules.impactWithout")} moves={preview.current} testId="impact-current" />
      </div>
      <h4 className="mt-4 font-medium">
        {t("console.programme.rules.impactPoints", { purchases: preview.purchases.toLocaleString("en-US") })}
      </h4>
      <p className="mt-1 text-sm tabular-nums" data-testid="impact-points">
        {t("console.programme.rules.impactPointsLine", {
          current: preview.pointsCurrent.toLocaleString("en-US"),
          proposed: preview.pointsProposed.toLocaleString("en-US"),
          delta: `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toLocaleString("en-US")}`,
        })}
      </p>
      <p className="mt-1 text-xs text-muted">{t("console.programme.rules.impactPointsHint")}</p>
      {preview.referrals ? (
        <>
          <h4 className="mt-4 font-medium">
            {t("console.programme.rules.impactReferrals", { decided: preview.referrals.decided })}
          </h4>
          <p className="mt-1 text-sm tabular-nums" data-testid="impact-referrals">
            <ReferralsLine r={preview.referrals} />
          </p>
        </>
      ) : null}
    </section>
  );
}

/** The referral rewards' line: points on both sides as before, or what each side's coupons would be (ADR 053). */
function ReferralsLine({ r }: { r: NonNullable<RulesPreview["referrals"]> }) {
  const t = useConsoleT();
  if (r.rewardCurrent === null && r.rewardProposed === null) {
    return t("console.programme.rules.impactReferralsLine", {
      current: r.rewardedCurrent,
      proposed: r.rewardedProposed,
      pointsCurrent: r.pointsCurrent.toLocaleString("en-US"),
      pointsProposed: r.pointsProposed.toLocaleString("en-US"),
      pending: r.pending,
    });
  }
  const gift = (reward: string | null, coupons: number, points: number) =>
    reward === null
      ? t("console.programme.rules.impactGiftPoints", { n: points.toLocaleString("en-US") })
      : t("console.programme.rules.impactGiftCoupons", { n: coupons.toLocaleString("en-US"), reward });
  return t("console.programme.rules.impactReferralsGiftsLine", {
    current: r.rewardedCurrent,
    proposed: r.rewardedProposed,
    giftCurrent: gift(r.rewardCurrent, r.couponsCurrent, r.pointsCurrent),
    giftProposed: gift(r.rewardProposed, r.couponsProposed, r.pointsProposed),
    pending: r.pending,
  });
}
