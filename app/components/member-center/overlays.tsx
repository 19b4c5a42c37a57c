import { type ReactNode, useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button-variants";
import { LoaderCircle } from "~/components/ui/icons";
import type { CardTokenPayload } from "~/domain/loyalty/card-token-payload";
import type { Translate } from "~/lib/i18n";
import { links } from "~/lib/links";
import { Modal } from "./modal";
import type { RedeemAnswer, WalletCouponView } from "./view-types";

/**
 * The member center's overlays, loaded on first use (and prefetched when the page is idle): the
 * card and a coupon full screen for scanning, and the redemption dialog.
 *
 * They import nothing from the page's own modules: what they show of the page (icons, the QR code,
 * the countdown, the confirmation text) comes in as rendered elements. An import would make the
 * bundler move the shared modules into a chunk of their own, and the page would load two chunks
 * that gzip 0.8 kB worse than one.
 */

export function CardFullScreen({
  t,
  memberNumber,
  payload,
  trouble,
  icon,
  qr,
  countdown,
  onClose,
}: {
  t: Translate;
  memberNumber: string;
  payload: CardTokenPayload;
  trouble: boolean;
  /** The QR icon, the large QR code and the countdown, rendered by the card. */
  icon: ReactNode;
  qr: ReactNode;
  countdown: ReactNode;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      onClose={onClose}
      variant="full"
      closeLabel={t("common.close")}
      title={
        <>
          {icon}
          {t("member.center.card.fullTitle")}
        </>
      }
      description={t("member.center.card.fullHint")}
      testId="card-fullscreen"
    >
      {qr}
      <p className="mt-4 text-lg">
        <span className="text-muted">{t("member.number")} </span>
        <span className="font-mono font-semibold tracking-[0.14em]">{memberNumber}</span>
      </p>
      <p className="mt-1 max-w-full text-center text-xs break-all text-muted">
        <span className="sr-only">{t("member.center.card.code")} </span>
        <span className="font-mono" data-testid="card-fullscreen-token">
          {payload.token}
        </span>
      </p>
      <p className="mt-4 text-danger-800 empty:hidden" aria-live="polite">
        {trouble ? t("member.center.card.offline") : null}
      </p>
      {trouble ? null : <p className="mt-4 text-muted">{countdown}</p>}
    </Modal>
  );
}

export function CouponFullScreen({
  t,
  coupon,
  code,
  dateLine,
  icon,
  action,
  onClose,
}: {
  t: Translate;
  coupon: WalletCouponView;
  /** The code grouped for reading aloud (groupCode). */
  code: string;
  dateLine: string;
  icon: ReactNode;
  /** Under the coupon: inside LINE, "send to this chat" (renders nothing elsewhere). */
  action?: ReactNode;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      onClose={onClose}
      variant="full"
      closeLabel={t("common.close")}
      title={
        <>
          {icon}
          {coupon.rewardName}
        </>
      }
      description={t("member.center.coupons.fullHint")}
      testId="coupon-fullscreen"
    >
      <img
        src={links.couponQr(coupon.id)}
        alt={t("member.center.coupons.qrLabel")}
        width={320}
        height={320}
        className="mt-6 aspect-square w-full max-w-[min(80vw,20rem)]"
      />
      <p className="mt-4 text-sm text-muted">{t("member.center.coupons.code")}</p>
      <p
        className="max-w-[20rem] text-center font-mono text-lg font-semibold tracking-wider text-balance"
        data-testid="coupon-code"
      >
        {code}
      </p>
      <p className="mt-2">
        <span className="text-sm text-muted">{dateLine}</span>
      </p>
      {action}
    </Modal>
  );
}

export function RedeemDialog({
  t,
  confirmBody,
  hiddenFields,
  errorMessage,
  redeemKey,
  onClose,
  onViewCoupon,
}: {
  t: Translate;
  /** What is redeemed for how many points (ConfirmBody). */
  confirmBody: ReactNode;
  /** The form's hidden fields for a redemption key (HiddenFields). */
  hiddenFields: (key: string) => ReactNode;
  errorMessage: (answer: Extract<RedeemAnswer, { ok: false }>) => string;
  redeemKey: string;
  onClose: () => void;
  onViewCoupon: (couponId: string) => void;
}) {
  const fetcher = useFetcher<RedeemAnswer>();
  const busy = fetcher.state !== "idle";
  const answer = fetcher.data;
  // The key of the rendering that opened the dialog: a second tap while the first is on its way
  // (or after it, before the page data refreshed) sends the same key and gets the same coupon.
  const [key] = useState(redeemKey);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    if (answer?.ok && fetcher.state === "idle") setDone(answer.couponId);
  }, [answer, fetcher.state]);

  return (
    <Modal
      open
      onClose={onClose}
      closeLabel={t("common.close")}
      title={t("member.center.rewards.confirmTitle")}
      description={done ? undefined : confirmBody}
      footer={
        done ? (
          <>
            <button type="button" onClick={onClose} className={buttonVariants({ variant: "secondary" })}>
              {t("common.close")}
            </button>
            <button
              type="button"
              onClick={() => onViewCoupon(done)}
              className={buttonVariants({ variant: "primary" })}
              data-testid="view-coupon"
            >
              {t("member.center.rewards.viewCoupon")}
            </button>
          </>
        ) : (
          <>
            <button type="button" onClick={onClose} className={buttonVariants({ variant: "secondary" })}>
              {t("common.cancel")}
            </button>
            <fetcher.Form method="post" preventScrollReset className="contents">
              {hiddenFields(key)}
              <button
                type="submit"
                disabled={busy}
                aria-busy={busy || undefined}
                className={buttonVariants({ variant: "brand" })}
                data-testid="confirm-redeem"
              >
                {busy ? <LoaderCircle aria-hidden className="size-4 animate-spin" /> : null}
                {t("member.center.rewards.confirm")}
              </button>
            </fetcher.Form>
          </>
        )
      }
    >
      {done ? (
        <Alert tone="success">{t("member.center.rewards.done")}</Alert>
      ) : answer && !answer.ok && !busy ? (
        <Alert tone="error" className="mb-1">
          <span data-testid="redeem-error">{errorMessage(answer)}</span>
        </Alert>
      ) : null}
    </Modal>
  );
}
