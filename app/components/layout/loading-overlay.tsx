import { LOADING_OVERLAY_DELAY_MS } from "@platform/constants";
import { useEffect, useState } from "react";
import { useFetchers, useNavigation } from "react-router";
import { useT } from "~/lib/i18n";

/** Full-screen 請稍候... overlay, shown only when a navigation or submission is slow, so fast ones never flash. */
export function LoadingOverlay() {
  const t = useT();
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((f) => f.state === "submitting");
  const [visible, setVisible] = useState(false);

  useEffect(() => {
    if (!busy) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), LOADING_OVERLAY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [busy]);

  if (!visible) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      data-testid="loading-overlay"
      className="fixed inset-0 z-[60] flex flex-col items-center justify-center gap-4 bg-paper/80 backdrop-blur-sm"
    >
      <span aria-hidden className="size-10 animate-spin rounded-full border-4 border-stone border-t-brand-700" />
      <p className="text-lg font-medium text-ink">{t("common.loading")}</p>
    </div>
  );
}
