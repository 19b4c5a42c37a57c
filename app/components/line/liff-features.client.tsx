import { type ReactNode, useEffect, useId, useRef, useState } from "react";
import { buttonVariants } from "~/components/ui/button-variants";
import { LoaderCircle, svg } from "~/components/ui/icons";
import { showClientToast } from "~/components/ui/toaster";
import { couponMessage, sharedPageMessage } from "~/domain/line/liff-messages";
import { cn } from "~/lib/cn";
import { useLocale, useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import { liffEn } from "~/locales/liff.en";
import { liffZhTW } from "~/locales/liff.zh-TW";
import {
  addShortcut,
  canAddShortcut,
  canShare,
  inChat,
  installLiffFeatures,
  type LiffFeatureOptions,
  type LiffOutcome,
  linkTo,
  sendPermission,
  sendToChat,
  share,
} from "./liff-sdk.client";

/**
 * The buttons of LINE's features inside LINE (ADR 035). They come with the LIFF features chunk, which the
 * pages' slots (line-app-slots.tsx) load only inside LINE, and they show only what this LINE can do: a slot
 * renders nothing on the server, so the pages of every other visitor are unchanged. Their texts come with
 * them (the `liff.` namespace is in no loader's messages).
 */

const CATALOGS = { "zh-TW": liffZhTW, en: liffEn } as const;

function useLiffT() {
  return useT(CATALOGS[useLocale()]);
}

/** What a button says when LINE answers: success in a positive toast, a failure in words; a cancel says nothing. */
function toastOutcome(t: ReturnType<typeof useLiffT>, doneKey: Parameters<ReturnType<typeof useLiffT>>[0]) {
  return (outcome: LiffOutcome) => {
    if (outcome.status === "done") showClientToast("success", t(doneKey));
    if (outcome.status === "failed") showClientToast("error", t(outcome.failure.key, outcome.failure.values));
  };
}

// Lucide's share-2, house-plus and send (ISC licence), as the other icons are drawn (ui/icons.tsx).
const ShareIcon = svg(
  "M15 5a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M3 12a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M15 19a3 3 0 1 0 6 0a3 3 0 1 0 -6 0M8.59 13.51l6.83 3.98M15.41 6.51l-6.82 3.98",
);
const HomePlusIcon = svg(
  "M12.662 21H5a2 2 0 0 1-2-2v-9a2 2 0 0 1 .709-1.528l7-5.999a2 2 0 0 1 2.582 0l7 5.999A2 2 0 0 1 21 10v.5M16 19h6M19 22v-6",
);
const SendIcon = svg(
  "M14.536 21.686a.5.5 0 0 0 .937-.024l6.5-19a.496.496 0 0 0-.635-.635l-19 6.5a.5.5 0 0 0-.024.937l7.93 3.18a2 2 0 0 1 1.112 1.11zM21.854 2.147l-10.94 10.939",
);

/**
 * One attempt at a time: while LINE's screen is open the button stays focusable (aria-disabled rather than
 * disabled, so the keyboard focus is not thrown back to the page) and ignores further presses.
 */
function useAttempt(run: () => Promise<LiffOutcome>, after: (outcome: LiffOutcome) => void) {
  const [busy, setBusy] = useState(false);
  // A second press before React re-renders must not start a second attempt either.
  const running = useRef(false);
  const start = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      after(await run());
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, start };
}

function ActionButton({
  busy,
  icon,
  label,
  onClick,
  describedBy,
  block,
  testId,
}: {
  busy: boolean;
  icon: ReactNode;
  label: string;
  onClick: () => void;
  describedBy?: string;
  block?: boolean;
  testId: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-disabled={busy || undefined}
      aria-describedby={describedBy}
      className={cn(buttonVariants({ variant: "secondary", block }), busy && "cursor-progress opacity-70")}
      data-testid={testId}
    >
      {busy ? <LoaderCircle className="size-5 motion-safe:animate-spin" /> : icon}
      {label}
    </button>
  );
}

export type SharedPageProps = {
  /** A store or material page, or the member's invitation (issue 38, ADR 053). */
  kind: "store" | "material" | "invite";
  name: string;
  /** One line under the name in the message (address; category and series). */
  detail?: string | null;
  /** Absolute address of the page's first picture (its JSON-LD image), if any. */
  image?: string | null;
  /** The page's path (links.storeDetail / links.materialDetail). */
  path: string;
  className?: string;
};

/** "Share with friends": the page as a Flex message through LINE's share target picker. */
function ShareButton({ kind, name, detail, image, path, className }: SharedPageProps) {
  const t = useLiffT();
  const [offered] = useState(canShare);
  const { busy, start } = useAttempt(
    () =>
      share([
        sharedPageMessage({
          kind: t(kind === "store" ? "nav.stores" : kind === "invite" ? "liff.share.invite" : "nav.materials"),
          name,
          detail,
          image,
          url: linkTo(path),
          cta: t(
            kind === "store"
              ? "liff.share.storeCta"
              : kind === "invite"
                ? "liff.share.inviteCta"
                : "liff.share.materialCta",
          ),
          altText: t("liff.share.altText", { name }),
        }),
      ]),
    // A cancelled picker is the member's choice: nothing to say.
    toastOutcome(t, "liff.share.done"),
  );
  if (!offered) return null;
  return (
    <div className={className}>
      <ActionButton
        busy={busy}
        icon={<ShareIcon className="size-5" />}
        label={t("liff.share.button")}
        onClick={start}
        testId="liff-share"
      />
    </div>
  );
}

/** "Add my member card to the home screen" (member center): a shortcut to the member center. */
function CardShortcutButton({ className }: { className?: string }) {
  const t = useLiffT();
  const hint = useId();
  const [offered] = useState(canAddShortcut);
  const { busy, start } = useAttempt(
    () => addShortcut(links["member-center"]()),
    toastOutcome(t, "liff.shortcut.done"),
  );
  if (!offered) return null;
  return (
    <div className={className}>
      <ActionButton
        busy={busy}
        icon={<HomePlusIcon className="size-5" />}
        label={t("liff.shortcut.button")}
        onClick={start}
        describedBy={hint}
        block
        testId="liff-card-shortcut"
      />
      <p id={hint} className="mt-2 text-center text-sm text-muted">
        {t("liff.shortcut.hint")}
      </p>
    </div>
  );
}

export type SentCouponProps = {
  id: string;
  rewardName: string;
  /** The coupon's validity line as the wallet shows it (Asia/Taipei). */
  validity: string;
  className?: string;
};

/**
 * "Send this coupon to the chat" (in the coupon's full-screen view): offered when the page was opened from a
 * chat and the LIFF app may ask for `chat_message.write`. The outcome is written in the view itself: the
 * view is a modal <dialog> in the top layer, where a toast would sit underneath, unseen.
 */
function CouponSendButton({ id, rewardName, validity, className }: SentCouponProps) {
  const t = useLiffT();
  const hint = useId();
  const [offered, setOffered] = useState(false);
  const [outcome, setOutcome] = useState<LiffOutcome | null>(null);
  useEffect(() => {
    let live = true;
    if (inChat()) void sendPermission().then((state) => live && setOffered(state !== "unavailable"));
    return () => {
      live = false;
    };
  }, []);
  const { busy, start } = useAttempt(() => {
    setOutcome(null);
    return sendToChat([
      couponMessage({
        label: t("liff.coupon.label"),
        rewardName,
        validity,
        note: t("liff.coupon.note"),
        url: linkTo(`${links["member-center"]()}?${new URLSearchParams({ coupon: id })}`),
        cta: t("liff.coupon.cta"),
        altText: t("liff.coupon.altText", { reward: rewardName }),
      }),
    ]);
  }, setOutcome);
  if (!offered) return null;
  return (
    <div className={className}>
      <ActionButton
        busy={busy}
        icon={<SendIcon className="size-5" />}
        label={busy ? t("liff.send.busy") : t("liff.send.button")}
        onClick={start}
        describedBy={hint}
        block
        testId="liff-coupon-send"
      />
      <p id={hint} className="mt-2 text-center text-sm text-muted">
        {t("liff.send.hint")}
      </p>
      <div aria-live="polite" className="text-center empty:hidden" data-testid="liff-coupon-send-result">
        {outcome?.status === "done" ? (
          <p role="status" className="mt-3 font-semibold text-success-700">
            {t("liff.send.done")}
          </p>
        ) : outcome?.status === "failed" ? (
          <p role="alert" className="mt-3 font-semibold text-danger-800">
            {t(outcome.failure.key, outcome.failure.values)}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** Installs LINE's modules for these features and hands the pages' slots the buttons. */
export function loadLiffFeatures(options: LiffFeatureOptions) {
  installLiffFeatures(options);
  return { ShareButton, CardShortcutButton, CouponSendButton };
}

export type LiffFeatures = ReturnType<typeof loadLiffFeatures>;
