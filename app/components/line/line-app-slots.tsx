import { useEffect, useState } from "react";
import type { LiffFeatures, SentCouponProps, SharedPageProps } from "./liff-features.client";

/**
 * Where a page offers LINE's features inside LINE (ADR 035): share a store or material, add the member card to
 * the home screen, send a coupon to the chat. Outside LINE there is no LIFF bridge and a slot stays empty; on
 * the server it is always empty, so the HTML is the same for everyone. Inside LINE the first slot loads the
 * features chunk through the LIFF bridge (this file imports no LIFF code, only its types).
 */
function useLiffFeatures(): LiffFeatures | null {
  const [features, setFeatures] = useState<LiffFeatures | null>(null);
  useEffect(() => {
    const bridge = window.__hanLiff;
    if (!bridge) return;
    let live = true;
    bridge.features().then(
      (loaded) => live && setFeatures(loaded),
      (error: unknown) => console.warn("LINE features could not load", error),
    );
    return () => {
      live = false;
    };
  }, []);
  return features;
}

export function LiffShare(props: SharedPageProps) {
  const features = useLiffFeatures();
  return features ? <features.ShareButton {...props} /> : null;
}

export function LiffCardShortcut({ className }: { className?: string }) {
  const features = useLiffFeatures();
  return features ? <features.CardShortcutButton className={className} /> : null;
}

export function LiffCouponSend(props: SentCouponProps) {
  const features = useLiffFeatures();
  return features ? <features.CouponSendButton {...props} /> : null;
}
