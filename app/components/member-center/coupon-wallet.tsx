import { type KeyboardEvent, lazy, Suspense, useRef, useState } from "react";
import { LiffCouponSend } from "~/components/line/line-app-slots";
import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";
import { Ticket } from "./icons";
import type { WalletCouponView } from "./view-types";

const CouponFullScreen = lazy(() => import("./overlays").then((m) => ({ default: m.CouponFullScreen })));

const TABS = ["unused", "used", "expired"] as const;
type Tab = (typeof TABS)[number];

function tabOf(c: WalletCouponView): Tab {
  return c.state === "cancelled" || c.state === "revoked" ? "expired" : c.state;
}

/** 26 characters read aloud at a counter: groups of four. */
export function groupCode(code: string): string {
  return code.replace(/(.{4})(?=.)/g, "$1 ");
}

export function couponLine(c: WalletCouponView, t: Translate): string {
  const line = stateLine(c, t);
  return c.fromReferral ? `${t("member.center.coupons.fromReferral")} · ${line}` : line;
}

function stateLine(c: WalletCouponView, t: Translate): string {
  if (c.state === "unused") return t("member.center.coupons.validUntil", { date: c.date });
  if (c.state === "used") return t("member.center.coupons.usedOn", { date: c.date });
  if (c.state === "cancelled") return t("member.center.coupons.cancelled");
  // The only reason a coupon is revoked so far: the referral's qualifying purchase was refunded (ADR 053).
  if (c.state === "revoked") return t("member.center.coupons.revokedReferralRefund");
  return t("member.center.coupons.expiredOn", { date: c.date });
}

/**
 * The coupon wallet: available, used and expired coupons in three tabs; an available coupon opens
 * full screen with its QR code (an image the server renders for its owner only) and its code.
 */
export function CouponWallet({
  t,
  coupons,
  openId,
  onOpenChange,
}: {
  t: Translate;
  coupons: WalletCouponView[];
  openId: string | null;
  onOpenChange: (id: string | null) => void;
}) {
  const [tab, setTab] = useState<Tab>("unused");
  const tabRefs = useRef<Record<Tab, HTMLButtonElement | null>>({ unused: null, used: null, expired: null });
  const counts = Object.fromEntries(TABS.map((k) => [k, coupons.filter((c) => tabOf(c) === k).length])) as Record<
    Tab,
    number
  >;
  const shown = coupons.filter((c) => tabOf(c) === tab);
  const open = coupons.find((c) => c.id === openId) ?? null;

  const onKeyDown = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) return;
    event.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length] as Tab;
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  return (
    <div>
      <div role="tablist" aria-label={t("member.center.coupons.title")} className="flex gap-1 rounded-full bg-sand p-1">
        {TABS.map((k) => (
          <button
            key={k}
            ref={(el) => {
              tabRefs.current[k] = el;
            }}
            type="button"
            role="tab"
            id={`coupon-tab-${k}`}
            aria-selected={tab === k}
            aria-controls="coupon-panel"
            tabIndex={tab === k ? 0 : -1}
            onClick={() => setTab(k)}
            onKeyDown={onKeyDown}
            className={cn(
              "min-h-10 flex-1 rounded-full px-3 text-sm transition-colors focus-visible:outline-2 focus-visible:outline-brand-700",
              tab === k ? "bg-white font-semibold text-ink shadow-sm" : "text-muted hover:text-ink",
            )}
            data-testid={`coupon-tab-${k}`}
          >
            {t(`member.center.coupons.${k}`)} <span className="tabular-nums">{counts[k]}</span>
          </button>
        ))}
      </div>
      <div role="tabpanel" id="coupon-panel" aria-labelledby={`coupon-tab-${tab}`} className="mt-4">
        {shown.length === 0 ? (
          <p className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
            {t(
              tab === "unused"
                ? "member.center.coupons.emptyUnused"
                : tab === "used"
                  ? "member.center.coupons.emptyUsed"
                  : "member.center.coupons.emptyExpired",
            )}
          </p>
        ) : (
          <ul className="grid gap-3 sm:max-lg:grid-cols-2" data-testid="coupon-list">
            {shown.map((c) => (
              <li key={c.id}>
                {c.state === "unused" ? (
                  <button
                    type="button"
                    onClick={() => onOpenChange(c.id)}
                    className="group flex w-full items-center gap-4 rounded-2xl border border-line bg-white p-4 text-left shadow-sm transition hover:border-brand-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                    data-testid="coupon"
                  >
                    <CouponStub c={c} />
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold text-ink">{c.rewardName}</span>
                      <span className="text-sm text-muted">{couponLine(c, t)}</span>
                    </span>
                    <span className="shrink-0 text-sm font-semibold text-brand-700 group-hover:underline">
                      {t("member.center.coupons.open")}
                    </span>
                  </button>
                ) : (
                  <div
                    className="flex items-center gap-4 rounded-2xl border border-line/70 bg-white/60 p-4"
                    data-testid="coupon"
                  >
                    <CouponStub c={c} muted />
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold text-muted">{c.rewardName}</span>
                      <span className="text-sm text-muted">{couponLine(c, t)}</span>
                    </span>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>

      {open ? (
        <Suspense fallback={null}>
          <CouponFullScreen
            t={t}
            coupon={open}
            code={groupCode(open.code)}
            dateLine={couponLine(open, t)}
            icon={<Ticket className="mx-auto mb-2 block size-6 text-brand-700" />}
            action={
              // Inside LINE, opened from a chat: send the coupon (never its code) to that chat.
              <LiffCouponSend
                id={open.id}
                rewardName={open.rewardName}
                validity={couponLine(open, t)}
                className="mt-8 w-full max-w-xs"
              />
            }
            onClose={() => onOpenChange(null)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

function CouponStub({ c, muted }: { c: WalletCouponView; muted?: boolean }) {
  return (
    <span
      aria-hidden
      className={cn(
        "relative flex size-14 shrink-0 items-center justify-center rounded-xl font-serif text-sm font-semibold",
        muted ? "bg-sand text-muted" : "bg-brand-50 text-brand-800",
      )}
    >
      {c.kind === "amount-off" && c.amountOff ? `$${c.amountOff}` : <Ticket className="size-6" />}
    </span>
  );
}
