import { Fragment, lazy, Suspense, useState } from "react";
import { ResponsiveImage } from "~/components/images/responsive-image";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { formatNumber, type Translate } from "~/lib/i18n";
import { Gift, Ticket } from "./icons";
import type { RewardView } from "./view-types";

const RedeemDialog = lazy(() => import("./overlays").then((m) => ({ default: m.RedeemDialog })));

const number = formatNumber;

/**
 * Short phrases joined by " · " that wrap only between phrases (CJK text may otherwise break after
 * any character and leave one on a line of its own); a phrase wider than the card still wraps.
 */
function Phrases({ parts }: { parts: (string | null)[] }) {
  return parts
    .filter((part): part is string => Boolean(part))
    .map((part, i) => (
      <Fragment key={part}>
        {i > 0 ? " · " : null}
        <span className="inline-block">{part}</span>
      </Fragment>
    ));
}

/**
 * The rewards catalogue. "Redeem" asks for confirmation in a dialog; the confirmation posts through
 * a fetcher, so the balance and the wallet update without a page load. The form carries a key made
 * for this rendering of the page: a double tap (or a retried request) books one coupon only. Without
 * JavaScript the same link opens the confirmation on the page itself (`?redeem=<id>`).
 */
export function RewardsCatalogue({
  t,
  locale,
  rewards,
  balance,
  redeemKey,
  confirmId,
  onViewCoupon,
}: {
  t: Translate;
  locale: string;
  rewards: RewardView[];
  balance: number;
  redeemKey: string;
  /** The reward whose confirmation the URL asks for (no-JavaScript path). */
  confirmId: string | null;
  onViewCoupon: (couponId: string) => void;
}) {
  const [openId, setOpenId] = useState<string | null>(null);
  const open = rewards.find((r) => r.id === openId) ?? null;

  if (rewards.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
        {t("member.center.rewards.empty")}
      </p>
    );
  }
  return (
    <>
      <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="reward-list">
        {rewards.map((r) => (
          <li
            key={r.id}
            className="flex flex-col rounded-2xl border border-line bg-white p-4 shadow-sm"
            data-testid="reward"
          >
            <div className="flex items-start gap-3">
              {r.image?.kind === "media" ? (
                <span className="size-11 shrink-0 overflow-hidden rounded-xl bg-brand-50" data-testid="reward-image">
                  <ResponsiveImage image={r.image.image} sizes="44px" cover />
                </span>
              ) : r.image ? (
                <img
                  src={r.image.src}
                  alt={r.image.alt}
                  width={44}
                  height={44}
                  loading="lazy"
                  className="size-11 shrink-0 rounded-xl bg-brand-50 object-cover"
                />
              ) : (
                <span
                  aria-hidden
                  className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-800"
                >
                  {r.kind === "amount-off" ? <Ticket className="size-5" /> : <Gift className="size-5" />}
                </span>
              )}
              <div className="min-w-0 flex-1">
                <h3 className="font-semibold text-ink">{r.name}</h3>
                <p className="text-sm text-muted">
                  <Phrases
                    parts={[
                      r.kind === "amount-off" && r.amountOff
                        ? t("member.center.rewards.amountOff", { amount: number(r.amountOff, locale) })
                        : r.kind === "service"
                          ? t("member.center.rewards.service")
                          : t("member.center.rewards.gift"),
                      t("member.center.rewards.validDays", { days: r.couponValidDays }),
                      r.stock !== null && r.stock > 0 && r.stock <= 20
                        ? t("member.center.rewards.stock", { count: r.stock })
                        : null,
                    ]}
                  />
                </p>
              </div>
            </div>
            <div className="mt-4 flex items-center justify-between gap-3">
              <p className="font-serif text-lg font-semibold text-brand-800">
                {t("member.center.rewards.cost", { points: number(r.pointsCost, locale) })}
              </p>
              {r.blocked ? (
                <p className="text-sm text-muted" data-testid="reward-blocked">
                  {r.blocked === "points"
                    ? t("member.center.rewards.needMore", { points: number(r.pointsCost - balance, locale) })
                    : r.blocked === "limit"
                      ? t("member.center.rewards.limitReached")
                      : t("member.center.rewards.soldOut")}
                </p>
              ) : (
                <Link
                  to={`?redeem=${r.id}#rewards`}
                  preventScrollReset
                  onClick={(event) => {
                    event.preventDefault();
                    setOpenId(r.id);
                  }}
                  className={buttonVariants({ variant: "brand", size: "sm" })}
                  aria-label={`${t("member.center.rewards.redeem")}：${r.name}`}
                >
                  {t("member.center.rewards.redeem")}
                </Link>
              )}
            </div>
            {confirmId === r.id && !r.blocked ? (
              <NoScriptConfirm t={t} locale={locale} reward={r} balance={balance} redeemKey={redeemKey} />
            ) : null}
          </li>
        ))}
      </ul>
      {open ? (
        <Suspense fallback={null}>
          <RedeemDialog
            key={open.id}
            t={t}
            confirmBody={<ConfirmBody t={t} locale={locale} reward={open} balance={balance} />}
            hiddenFields={(key) => <HiddenFields reward={open} redeemKey={key} />}
            errorMessage={(answer) => answer.message}
            redeemKey={redeemKey}
            onClose={() => setOpenId(null)}
            onViewCoupon={(id) => {
              setOpenId(null);
              onViewCoupon(id);
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}

export function ConfirmBody({
  t,
  locale,
  reward,
  balance,
}: {
  t: Translate;
  locale: string;
  reward: RewardView;
  balance: number;
}) {
  return (
    <>
      {t("member.center.rewards.confirmBody", {
        points: number(reward.pointsCost, locale),
        name: reward.name,
        after: number(Math.max(0, balance - reward.pointsCost), locale),
      })}
    </>
  );
}

export function HiddenFields({ reward, redeemKey }: { reward: RewardView; redeemKey: string }) {
  return (
    <>
      <input type="hidden" name="intent" value="redeem" />
      <input type="hidden" name="rewardId" value={reward.id} />
      <input type="hidden" name="key" value={`${redeemKey}.${reward.id.slice(0, 8)}`} />
    </>
  );
}

/** The confirmation without JavaScript: an ordinary form post, answered by the page itself. */
function NoScriptConfirm({
  t,
  locale,
  reward,
  balance,
  redeemKey,
}: {
  t: Translate;
  locale: string;
  reward: RewardView;
  balance: number;
  redeemKey: string;
}) {
  return (
    <form method="post" className="mt-4 rounded-xl bg-sand p-4">
      <p className="font-semibold">{t("member.center.rewards.confirmTitle")}</p>
      <p className="mt-1 text-sm text-muted">
        <ConfirmBody t={t} locale={locale} reward={reward} balance={balance} />
      </p>
      <HiddenFields reward={reward} redeemKey={redeemKey} />
      <div className="mt-3 flex gap-3">
        <button type="submit" className={cn(buttonVariants({ variant: "brand", size: "sm" }))}>
          {t("member.center.rewards.confirm")}
        </button>
        <Link to="#rewards" className={buttonVariants({ variant: "secondary", size: "sm" })}>
          {t("common.cancel")}
        </Link>
      </div>
    </form>
  );
}
