import { Suspense, useEffect, useState } from "react";
import { Form, type ShouldRevalidateFunctionArgs } from "react-router";
import { LiffCardShortcut } from "~/components/line/line-app-slots";
import { MemberCard } from "~/components/member-center/member-card";
import { Section } from "~/components/member-center/section";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { afterHydration } from "~/lib/after-hydration";
import { formatNumber, type MessageKey, useLocale, useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";
import { loadMemberCenter, redeemInMemberCenter } from "./index.server";

// Everything but the card hydrates after the page is up: its HTML comes from the server, its code
// after the first paint (issue 17: the page's JS before interaction; ADR 031).
const PointsAndTier = afterHydration(() => import("~/components/member-center/points-and-tier"), "PointsAndTier");
const CouponWallet = afterHydration(() => import("~/components/member-center/coupon-wallet"), "CouponWallet");
const RewardsCatalogue = afterHydration(() => import("~/components/member-center/rewards"), "RewardsCatalogue");
const ActivityList = afterHydration(() => import("~/components/member-center/activity-list"), "ActivityList");
const Favourites = afterHydration(() => import("~/components/member-center/favourites"), "Favourites");
const SettingsLinks = afterHydration(() => import("~/components/member-center/settings-links"), "SettingsLinks");

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.memberCenter.title");

/**
 * The member center (logged-in only; visitors go to the login page and come back here after).
 * One loader: the member comes from the session (read once per request by the root middleware),
 * the rest from one parallel read (memberCenterSummary) and a fresh card token (index.server.ts).
 */
export const loader = (args: Route.LoaderArgs) => loadMemberCenter(args);

/** Redeems a reward for the logged-in member. */
export const action = (args: Route.ActionArgs) => redeemInMemberCenter(args);

/**
 * A refused redemption (4xx) still reloads the page data: the balance may have changed behind the
 * page's back (that is usually why it was refused), and the catalogue should say so at once.
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (actionStatus !== undefined && actionStatus >= 400 && actionStatus < 500) return true;
  return defaultShouldRevalidate;
}

export default function MemberCenterPage({ loaderData: d, actionData }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const [openCoupon, setOpenCoupon] = useState<string | null>(null);
  const unused = d.coupons.filter((c) => c.state === "unused").length;

  // A coupon's link (a coupon sent to a LINE chat, ADR 035) opens it full screen for its owner; an id that
  // is not one of this member's available coupons is ignored. Once, after hydration.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the address the page was opened with
  useEffect(() => {
    const wanted = new URLSearchParams(window.location.search).get("coupon");
    if (wanted && d.coupons.some((c) => c.id === wanted && c.state === "unused")) setOpenCoupon(wanted);
  }, []);

  return (
    // CJK line breaking: `pretty` keeps a lone character off a line of its own (inherited by every
    // text below), `strict` keeps closing punctuation with the word before it.
    <div className="mx-auto max-w-6xl px-4 pt-6 pb-16 text-pretty [line-break:strict] sm:px-6 sm:pt-10">
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

      {/*
        On a desktop, bands whose two sides hold about as much, so neither column runs on alone: the
        card and points beside the coupons and recent activity; the rewards catalogue (as long as the
        catalogue is) across the full width; the favourites beside the settings. A phone reads the
        document order: card, points, coupons, rewards, activity, favourites, settings.
      */}
      {d.spendCodes.map((c) => (
        <div key={c.code} className="mb-5" data-testid="spend-code-request">
          <Alert tone="info">
            <p className="font-semibold">
              {t("member.center.spendCode.ask", {
                store: c.store,
                points: formatNumber(c.points, locale),
                amount: formatNumber(c.netAmount, locale),
              })}
            </p>
            <p className="mt-1">
              {t("member.center.spendCode.code")}{" "}
              <span className="font-mono text-2xl font-semibold tracking-[0.3em]" data-testid="spend-code-value">
                {c.code}
              </span>
            </p>
            <p className="mt-1 text-sm">{t("member.center.spendCode.hint", { time: c.until })}</p>
          </Alert>
        </div>
      ))}

      <div className="grid gap-x-8 gap-y-10 lg:grid-cols-[minmax(0,25rem)_minmax(0,1fr)]">
        <div className="space-y-5 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          <MemberCard
            t={t}
            name={d.name}
            memberNumber={d.memberNumber}
            tier={d.tier}
            tierLabel={t(`member.level.${d.tier}` as MessageKey)}
            initialToken={d.card}
          />
          {/* Inside LINE only (nothing on the server): the card as a home-screen shortcut. */}
          <LiffCardShortcut />
          <Suspense>
            <PointsAndTier d={d} t={t} locale={locale} />
          </Suspense>
        </div>

        <Section
          id="coupons"
          className="lg:col-start-2 lg:row-start-1"
          title={t("member.center.coupons.title")}
          badge={
            unused ? (
              <span
                className="inline-flex items-center rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800 tabular-nums ring-1 ring-brand-300/40"
                data-testid="coupons-available"
              >
                {t("member.center.coupons.available", { count: unused })}
              </span>
            ) : null
          }
        >
          <Suspense>
            <CouponWallet t={t} coupons={d.coupons} openId={openCoupon} onOpenChange={setOpenCoupon} />
          </Suspense>
        </Section>

        <Section
          id="rewards"
          title={t("member.center.rewards.title")}
          className="lg:col-span-2 lg:row-start-3"
          action={
            // Invite friends (issue 38, ADR 053).
            <Link
              to="/member-center/invite"
              className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
              data-testid="invite-friends"
            >
              {t("member.center.inviteFriends")}
            </Link>
          }
        >
          <p className="-mt-1 mb-4 text-muted">
            {t("member.center.rewards.lead")} {/* Trade accounts (issue 38 part 2, ADR 057). */}
            <Link
              to="/member-center/trade"
              className="font-semibold text-brand-700 underline underline-offset-4"
              data-testid="trade-account"
            >
              {t("member.center.tradeAccount")}
            </Link>
          </p>
          {actionData && !actionData.ok ? (
            <Alert tone="error" className="mb-4">
              {actionData.message}
            </Alert>
          ) : actionData?.ok ? (
            <Alert tone="success" className="mb-4">
              {t("member.center.rewards.done")}
            </Alert>
          ) : null}
          <Suspense>
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
          </Suspense>
        </Section>

        <Section
          id="activity"
          className="lg:col-start-2 lg:row-start-2"
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
          <Suspense>
            <ActivityList activity={d.activity} t={t} locale={locale} />
          </Suspense>
        </Section>

        <div className="grid gap-x-8 gap-y-10 lg:col-span-2 lg:row-start-4 lg:grid-cols-2">
          <Section
            id="favourites"
            title={t("member.center.favourites.title")}
            action={
              // Quote lists (issue 37 part 4): the favourites become a quote request; the member's quotes.
              <Link
                to={links.memberQuotes()}
                className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
                data-testid="my-quotes"
              >
                {t("member.center.favourites.myQuotes")}
              </Link>
            }
          >
            <Suspense>
              <Favourites favourites={d.favourites} t={t} />
            </Suspense>
            {d.favourites.length > 0 ? (
              <Link
                to={links.newQuote()}
                className={`mt-4 ${buttonVariants({ variant: "secondary", block: true })}`}
                data-testid="ask-quote"
              >
                {t("member.center.favourites.askQuote")}
              </Link>
            ) : null}
            {/* Samples of the saved materials (issue 37 part 3, ADR 046). */}
            <p className="mt-4 flex flex-wrap gap-x-6">
              <Link
                to="/member-center/samples/new"
                className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4"
                data-testid="favourites-samples"
              >
                {t("member.center.favourites.samples")}
              </Link>
              <Link
                to="/member-center/samples"
                className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline underline-offset-4"
              >
                {t("member.center.favourites.mySamples")}
              </Link>
            </p>
          </Section>

          <Section id="settings" title={t("member.center.settings.title")}>
            <Suspense>
              <SettingsLinks t={t} />
            </Suspense>
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
