import { randomBytes } from "node:crypto";
import { data } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { cardTokenPayload } from "~/domain/loyalty/card-tokens.server";
import { couponDay } from "~/domain/loyalty/coupon-state";
import { LoyaltyError, type LoyaltyErrorCode, loyaltyErrorMessage, loyaltyErrorStatus } from "~/domain/loyalty/errors";
import { forgetMemberCenterSummary, memberCenterSummary } from "~/domain/loyalty/member-center.server";
import { redeemReward } from "~/domain/loyalty/rewards.server";
import { pendingSpendCodes } from "~/domain/loyalty/spend-codes.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { formatNumber } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { formatLastValidDay, formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

/**
 * The member center's server side. The loader turns the one summary read (memberCenterSummary) into
 * what the page shows — dates formatted here (Taipei, the member's locale), so the page ships no date
 * code — and the action redeems a reward. The page's view types are these shapes
 * (`Route.ComponentProps["loaderData"]`), never restated.
 */
export async function loadMemberCenter({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const { db, config } = getApp(context);
  const now = requestNow(request, config);
  const locale = getLocale(request);
  // A store asking the member to confirm a spend of points (ADR 052): shown with the code to read out.
  const [summary, spendCodes] = await Promise.all([
    memberCenterSummary(db, member.id, now),
    pendingSpendCodes(db, config.secrets.session, member.id, now),
  ]);
  const clock = new Intl.DateTimeFormat(locale, {
    timeZone: "Asia/Taipei",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  });
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
        "member.center.spendCode.",
        // The rewards section's links: invite friends (ADR 053) and trade accounts (ADR 057).
        "member.center.inviteFriends",
        "member.center.tradeAccount",
      ),
      spendCodes: spendCodes.map((c) => ({
        code: c.code,
        points: c.points,
        netAmount: c.netAmount,
        store: c.storeName ? pick(c.storeName, locale) : "",
        until: clock.format(c.expiresAt),
      })),
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
      expiring: summary.expiring
        ? { points: summary.expiring.points, date: formatLastValidDay(summary.expiring.expiresAt, locale) }
        : null,
      spend12Months: summary.spend12Months,
      next: summary.next
        ? {
            tier: summary.next.tier,
            threshold: summary.next.threshold,
            amountNeeded: summary.next.amountNeeded,
            date: formatLastValidDay(summary.next.by, locale),
          }
        : null,
      coupons: summary.coupons.map((c) => ({
        id: c.id,
        code: c.code,
        state: c.state,
        rewardName: c.rewardName,
        kind: c.kind,
        amountOff: c.amountOff,
        date: couponDay(c, locale),
        fromReferral: c.fromReferral,
      })),
      rewards: summary.rewards.map(({ image, media, ...r }) => ({
        ...r,
        image: media
          ? ({ kind: "media", image: media } as const)
          : image
            ? ({ kind: "static", src: image.src, alt: image.alt[locale] ?? image.alt["zh-TW"] } as const)
            : null,
      })),
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

const redeemInput = z.object({
  intent: z.literal("redeem"),
  rewardId: z.uuid(),
  key: z.string().regex(/^[A-Za-z0-9_.-]{8,80}$/),
});

/** What a redemption answers: the new coupon, or why not (in the member's language) and the balance now. */
export type RedeemAnswer =
  | { ok: true; couponId: string; balance: number }
  | { ok: false; error: LoyaltyErrorCode; message: string; balance: number };

/** Redeems a reward for the logged-in member (the member id never comes from the request). */
export async function redeemInMemberCenter({ request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const { db, config, logger } = getApp(context);
  const now = requestNow(request, config);
  // A refusal answers the status and the message of the table of loyalty errors, with the balance
  // as it is now (a changed balance is usually why a redemption was refused).
  const refuse = async (code: LoyaltyErrorCode) => {
    const { balance } = await memberCenterSummary(db, member.id, now, { fresh: true });
    const message = serverT(request)(loyaltyErrorMessage(code), { balance: formatNumber(balance, getLocale(request)) });
    return data<RedeemAnswer>({ ok: false, error: code, message, balance }, { status: loyaltyErrorStatus(code) });
  };
  const parsed = redeemInput.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return refuse("invalid_input");
  try {
    const result = await redeemReward(
      db,
      { memberId: member.id, rewardId: parsed.data.rewardId, idempotencyKey: parsed.data.key },
      now,
    );
    // Without JavaScript the page is rendered in this same request: its loader must see this redemption.
    forgetMemberCenterSummary(db, member.id);
    return data<RedeemAnswer>({ ok: true, couponId: result.coupon.id, balance: result.balance });
  } catch (error) {
    if (!(error instanceof LoyaltyError)) throw error;
    logger.info({ code: error.code, memberId: member.id }, "redeem refused");
    return refuse(error.code);
  }
}
