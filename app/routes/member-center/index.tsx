import { randomBytes } from "node:crypto";
import { useState } from "react";
import { data, Form, Link, type ShouldRevalidateFunctionArgs } from "react-router";
import { z } from "zod";
import { CouponWallet } from "~/components/member-center/coupon-wallet";
import { Link2, LockKeyhole, ShieldCheck, UserPen } from "~/components/member-center/icons";
import { MemberCard } from "~/components/member-center/member-card";
import { type RedeemAnswer, RewardsCatalogue } from "~/components/member-center/rewards";
import { Alert } from "~/components/ui/alert";
import { ChevronRight } from "~/components/ui/icons";
import { cardTokenPayload } from "~/domain/loyalty/card-tokens.server";
import { LoyaltyError } from "~/domain/loyalty/errors";
import { memberCenterSummary } from "~/domain/loyalty/member-center.server";
import { redeemReward } from "~/domain/loyalty/rewards.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { getApp } from "~/lib/context.server";
import { formatNumber, type MessageKey, type Translate, useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { requireMember } from "~/lib/member-session.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.memberCenter.title");

/**
 * The member center (logged-in only; visitors go to the login page and come back here after).
 * One loader: the member comes from the session (read once per request by the root middleware),
 * the rest from one parallel read (memberCenterSummary) and a fresh card token.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const { db, config } = getApp(context);
  const now = requestNow(request, config);
  const locale = getLocale(request);
  const summary = await memberCenterSummary(db, member.id, now);
  const confirm = new URL(request.url).searchParams.get("redeem");
  return data(
    {
      // The page's own messages (the points-history ones stay on that page).
      messages: routeMessages(
        locale,
        "member.center.title",
        "member.center.hello",
        "member.center.lead",
        "member.center.card.",
        "member.center.points.",
        "member.center.tier.",
        "member.center.coupons.",
        "member.center.rewards.",
        "member.center.activity.",
        "member.center.favourites.",
        "member.center.settings.",
      ),
      name: member.nameZh,
      memberNumber: member.memberNumber,
      memberSince: member.createdAt.toISOString(),
      pendingEmail: member.pendingEmail,
      card: cardTokenPayload(config.secrets.session, member.id, now),
      // Per rendering: the same confirmation sent twice books once (see RewardsCatalogue).
      redeemKey: randomBytes(12).toString("base64url"),
      confirmId: confirm && /^[0-9a-f-]{36}$/i.test(confirm) ? confirm : null,
      balance: summary.balance,
      tier: summary.tier,
      // Dates are formatted here (Taipei, the member's locale): the page ships no date code.
      expiring: summary.expiring
        ? { points: summary.expiring.points, date: formatTaipei(lastDay(summary.expiring.expiresAt), locale) }
        : null,
      spend12Months: summary.spend12Months,
      next: summary.next
        ? {
            tier: summary.next.tier,
            threshold: summary.next.threshold,
            amountNeeded: summary.next.amountNeeded,
            date: formatTaipei(lastDay(summary.next.by), locale),
          }
        : null,
      coupons: summary.coupons.map((c) => ({
        id: c.id,
        code: c.code,
        state: c.state,
        rewardName: c.rewardName,
        kind: c.kind,
        amountOff: c.amountOff,
        date: formatTaipei(
          c.state === "unused" ? lastDay(c.expiresAt) : c.state === "used" ? (c.usedAt ?? c.expiresAt) : c.expiresAt,
          locale,
        ),
      })),
      rewards: summary.rewards,
      activity: summary.activity.map((a) => ({
        id: a.id,
        kind: a.kind,
        amount: a.amount,
        at: a.at.toISOString(),
        date: formatTaipei(a.at, locale),
        purchase: a.purchase
          ? {
              netAmount: a.purchase.netAmount,
              receiptNumber: a.purchase.receiptNumber,
              store: a.purchase.storeName ? pick(a.purchase.storeName, locale) : null,
            }
          : null,
      })),
      favourites: summary.favourites.map((f) => ({
        id: f.id,
        name: pick(f.name, locale),
        image: f.image ? { src: f.image.src, alt: pick(f.image.alt, locale) } : null,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** The last moment before an exclusive end (an expiry at Taipei midnight shows the day before). */
function lastDay(end: Date): Date {
  return new Date(end.getTime() - 1);
}

const redeemInput = z.object({
  intent: z.literal("redeem"),
  rewardId: z.uuid(),
  key: z.string().regex(/^[A-Za-z0-9_.-]{8,80}$/),
});

/** Redeems a reward for the logged-in member (the member id never comes from the request). */
export async function action({ request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const { db, config, logger } = getApp(context);
  const parsed = redeemInput.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    return data<RedeemAnswer>({ ok: false, error: "invalid_input", balance: null }, { status: 400 });
  }
  try {
    const result = await redeemReward(
      db,
      { memberId: member.id, rewardId: parsed.data.rewardId, idempotencyKey: parsed.data.key },
      requestNow(request, config),
    );
    return data<RedeemAnswer>({ ok: true, couponId: result.coupon.id, balance: result.balance });
  } catch (error) {
    if (!(error instanceof LoyaltyError)) throw error;
    logger.info({ code: error.code, memberId: member.id }, "redeem refused");
    const summary = await memberCenterSummary(db, member.id, requestNow(request, config));
    const status = error.code === "reward_not_found" ? 404 : 409;
    return data<RedeemAnswer>({ ok: false, error: error.code, balance: summary.balance }, { status });
  }
}

/**
 * A refused redemption (409) still reloads the page data: the balance may have changed behind the
 * page's back (that is usually why it was refused), and the catalogue should say so at once.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionStatus !== undefined && actionStatus >= 400 && actionStatus < 500) return true;
  return defaultShouldRevalidate;
}

type LoaderData = Route.ComponentProps["loaderData"];

function Section({
  id,
  title,
  action,
  children,
  className,
}: {
  id: string;
  title: string;
  action?: React.ReactNode;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={`${id}-title`} id={id} className={cn("scroll-mt-24", className)}>
      <div className="mb-3 flex items-baseline justify-between gap-3">
        <h2 id={`${id}-title`} className="font-serif text-xl font-semibold tracking-wide">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}

function PointsAndTier({ d, t, locale }: { d: LoaderData; t: Translate; locale: string }) {
  const tierName = (tier: string) => t(`member.level.${tier}` as MessageKey);
  const progress = d.next ? Math.min(1, d.spend12Months / Math.max(1, d.next.threshold)) : 1;
  return (
    <div className="rounded-[1.75rem] border border-line bg-white p-5 shadow-sm sm:p-6">
      <div className="flex items-end justify-between gap-4">
        <div>
          <h2 className="text-sm text-muted">{t("member.center.points.balance")}</h2>
          <p className="mt-1 flex items-baseline gap-2">
            <span className="font-serif text-4xl font-semibold tabular-nums text-ink" data-testid="points-balance">
              {formatNumber(d.balance, locale)}
            </span>
            <span className="text-muted">{t("member.center.points.unit")}</span>
          </p>
        </div>
        <Link
          to={links.memberPoints()}
          className="inline-flex min-h-11 items-center gap-1 rounded-full px-3 text-sm font-semibold text-brand-700 hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700"
        >
          {t("member.center.points.history")}
          <ChevronRight className="size-4" />
        </Link>
      </div>
      <p
        className={cn(
          "mt-2 rounded-xl px-3 py-2 text-sm",
          d.expiring ? "bg-brand-50 text-brand-900" : "bg-sand text-muted",
        )}
        data-testid="points-expiring"
      >
        {d.expiring
          ? t("member.center.points.expiring", {
              points: formatNumber(d.expiring.points, locale),
              date: d.expiring.date,
            })
          : t("member.center.points.noneExpiring")}
      </p>

      <div className="mt-6 border-t border-line pt-5">
        <div className="flex items-baseline justify-between gap-3">
          <h2 className="text-sm text-muted">{t("member.center.tier.title")}</h2>
          <p className="text-sm text-muted" data-testid="tier-spend">
            {t("member.center.tier.spend", { amount: formatNumber(d.spend12Months, locale) })}
          </p>
        </div>
        <div className="mt-3 flex items-center gap-3 text-sm font-semibold">
          <span>{tierName(d.tier)}</span>
          <div
            role="progressbar"
            aria-label={t("member.center.tier.progress")}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(progress * 100)}
            className="h-2.5 flex-1 overflow-hidden rounded-full bg-sand"
          >
            <div
              className="h-full rounded-full bg-gradient-to-r from-brand-500 to-brand-800"
              style={{ width: `${Math.max(progress * 100, d.spend12Months > 0 ? 3 : 0)}%` }}
            />
          </div>
          <span className={d.next ? "text-muted" : ""}>{d.next ? tierName(d.next.tier) : "★"}</span>
        </div>
        <p className="mt-3 text-sm text-ink" data-testid="tier-next">
          {!d.next
            ? t("member.center.tier.top")
            : d.next.amountNeeded > 0
              ? t("member.center.tier.next", {
                  amount: formatNumber(d.next.amountNeeded, locale),
                  date: d.next.date,
                  tier: tierName(d.next.tier),
                })
              : t("member.center.tier.reached", { tier: tierName(d.next.tier) })}
        </p>
      </div>
    </div>
  );
}

function ActivityList({ d, t, locale }: { d: LoaderData; t: Translate; locale: string }) {
  if (d.activity.length === 0) {
    return (
      <p className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
        {t("member.center.activity.empty")}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-line rounded-2xl border border-line bg-white" data-testid="activity">
      {d.activity.map((a) => (
        <li key={a.id} className="flex items-center justify-between gap-4 px-4 py-3">
          <div className="min-w-0">
            <p className="font-medium text-ink">
              {a.purchase
                ? t("member.center.activity.purchase", { amount: formatNumber(a.purchase.netAmount, locale) })
                : t(`member.center.activity.kind.${a.kind}`)}
            </p>
            <p className="truncate text-sm text-muted">
              <time dateTime={a.at}>{a.date}</time>
              {a.purchase?.store ? ` · ${a.purchase.store}` : ""}
              {a.purchase && !a.purchase.store ? ` · ${t("member.center.activity.kind.earn-purchase")}` : ""}
            </p>
          </div>
          <p
            className={cn("shrink-0 font-semibold tabular-nums", a.amount > 0 ? "text-success-700" : "text-danger-800")}
          >
            {t("member.center.activity.points", {
              amount: `${a.amount > 0 ? "+" : "−"}${formatNumber(Math.abs(a.amount), locale)}`,
            })}
          </p>
        </li>
      ))}
    </ul>
  );
}

function Favourites({ d, t }: { d: LoaderData; t: Translate }) {
  if (d.favourites.length === 0) {
    return (
      <div className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
        <p>{t("member.center.favourites.empty")}</p>
        <Link
          to={links.materials()}
          className="mt-2 inline-block font-semibold text-brand-700 underline underline-offset-4"
        >
          {t("member.center.favourites.browse")}
        </Link>
      </div>
    );
  }
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="favourites">
      {d.favourites.map((f) => (
        <li key={f.id}>
          <Link
            to={links.materialDetail(f.id)}
            className="group block overflow-hidden rounded-2xl border border-line bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
          >
            {f.image ? (
              <img
                src={f.image.src}
                alt=""
                width={400}
                height={300}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full bg-sand object-cover transition group-hover:scale-[1.02]"
              />
            ) : (
              <span className="block aspect-[4/3] bg-sand" />
            )}
            <span className="block truncate px-3 py-2 text-sm font-medium text-ink">{f.name}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

const SETTINGS = [
  {
    to: links.editInfo(),
    icon: UserPen,
    label: "member.center.settings.editInfo",
    hint: "member.center.settings.editInfoHint",
  },
  {
    to: links.security(),
    icon: LockKeyhole,
    label: "member.center.settings.security",
    hint: "member.center.settings.securityHint",
  },
  {
    to: links.linkedLogins(),
    icon: Link2,
    label: "member.center.settings.linkedLogins",
    hint: "member.center.settings.linkedLoginsHint",
  },
  {
    to: links.memberPrivacy(),
    icon: ShieldCheck,
    label: "member.center.settings.privacy",
    hint: "member.center.settings.privacyHint",
  },
] as const;

function Settings({ t }: { t: Translate }) {
  return (
    <ul className="divide-y divide-line overflow-hidden rounded-2xl border border-line bg-white" data-testid="settings">
      {SETTINGS.map(({ to, icon: Icon, label, hint }) => (
        <li key={to}>
          <Link
            to={to}
            className="flex min-h-16 items-center gap-4 px-4 py-3 hover:bg-sand/60 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-700"
          >
            <Icon className="size-5 shrink-0 text-brand-700" />
            <span className="min-w-0 flex-1">
              <span className="block font-medium text-ink">{t(label)}</span>
              <span className="block truncate text-sm text-muted">{t(hint)}</span>
            </span>
            <ChevronRight className="size-4 shrink-0 text-muted" />
          </Link>
        </li>
      ))}
    </ul>
  );
}

export default function MemberCenterPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const [openCoupon, setOpenCoupon] = useState<string | null>(null);
  const unused = d.coupons.filter((c) => c.state === "unused").length;

  return (
    <div className="mx-auto max-w-6xl px-4 pt-6 pb-16 sm:px-6 sm:pt-10">
      <header className="mb-5">
        <p className="text-sm tracking-[0.2em] text-brand-700">{t("member.center.title")}</p>
        <h1 className="mt-1 font-serif text-2xl font-semibold tracking-wide sm:text-3xl">
          {t("member.center.hello", { name: d.name })}
        </h1>
        <p className="mt-1 text-muted">{t("member.center.lead")}</p>
      </header>

      {d.pendingEmail ? (
        <Alert className="mb-5">
          {t("member.pendingEmail", { email: d.pendingEmail })}{" "}
          <Link to={links.verifyEmail()} className="font-semibold underline underline-offset-4">
            {t("member.verifyNow")}
          </Link>
        </Alert>
      ) : null}

      <div className="grid gap-8 lg:grid-cols-[minmax(0,25rem)_minmax(0,1fr)] lg:items-start">
        <div className="space-y-5 lg:sticky lg:top-24">
          <MemberCard
            t={t}
            name={d.name}
            memberNumber={d.memberNumber}
            tier={d.tier}
            tierLabel={t(`member.level.${d.tier}` as MessageKey)}
            initialToken={d.card}
          />
          <PointsAndTier d={d} t={t} locale={locale} />
        </div>

        <div className="space-y-10">
          <Section
            id="coupons"
            title={t("member.center.coupons.title")}
            action={unused ? <span className="text-sm text-muted tabular-nums">{unused}</span> : null}
          >
            <CouponWallet t={t} coupons={d.coupons} openId={openCoupon} onOpenChange={setOpenCoupon} />
          </Section>

          <Section id="rewards" title={t("member.center.rewards.title")}>
            <p className="-mt-1 mb-4 text-muted">{t("member.center.rewards.lead")}</p>
            {actionData && !actionData.ok ? (
              <Alert tone="error" className="mb-4">
                {t(
                  `member.center.rewards.error.${actionData.error}` in d.messages
                    ? (`member.center.rewards.error.${actionData.error}` as MessageKey)
                    : "member.center.rewards.error.generic",
                  { balance: formatNumber(actionData.balance ?? d.balance, locale) },
                )}
              </Alert>
            ) : actionData?.ok ? (
              <Alert tone="success" className="mb-4">
                {t("member.center.rewards.done")}
              </Alert>
            ) : null}
            <RewardsCatalogue
              t={t}
              locale={locale}
              rewards={d.rewards}
              balance={d.balance}
              redeemKey={d.redeemKey}
              confirmId={actionData ? null : d.confirmId}
              onViewCoupon={(id) => {
                document.getElementById("coupons")?.scrollIntoView({ block: "start" });
                setOpenCoupon(id);
              }}
            />
          </Section>

          <Section
            id="activity"
            title={t("member.center.activity.title")}
            action={
              d.activity.length ? (
                <Link
                  to={links.memberPoints()}
                  className="text-sm font-semibold text-brand-700 underline-offset-4 hover:underline"
                >
                  {t("member.center.activity.all")}
                </Link>
              ) : null
            }
          >
            <ActivityList d={d} t={t} locale={locale} />
          </Section>

          <Section id="favourites" title={t("member.center.favourites.title")}>
            <Favourites d={d} t={t} />
          </Section>

          <Section id="settings" title={t("member.center.settings.title")}>
            <Settings t={t} />
            <Form method="post" action={links.logout()} className="mt-4">
              <button
                type="submit"
                className="inline-flex min-h-11 items-center gap-2 rounded-full px-4 text-muted hover:bg-sand hover:text-ink focus-visible:outline-2 focus-visible:outline-brand-700"
              >
                {t("auth.logout")}
              </button>
            </Form>
          </Section>
        </div>
      </div>
    </div>
  );
}
