import { useEffect, useState, useSyncExternalStore } from "react";
import { toast as showToast, Toaster } from "sonner";

/** sonner's own phone breakpoint (its toasts go full width below it). */
const PHONE = "(max-width: 600px)";

function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** The height of the sticky site header, so a toast at the top starts below it. */
function headerBottom(): number {
  const header = document.querySelector<HTMLElement>("body header");
  return header ? Math.max(0, Math.round(header.getBoundingClientRect().bottom)) : 0;
}

/**
 * The sonner viewport plus one toast; a default export so it can be lazy-loaded. A toast never
 * covers the header and its navigation: on phones it rises from the bottom (clear of the home
 * indicator), on wider screens it sits just below the header.
 */
export default function ToastViewport({ id, type, text }: { id: string; type: "success" | "error"; text: string }) {
  const phone = useSyncExternalStore(
    subscribePhone,
    () => window.matchMedia(PHONE).matches,
    () => false,
  );
  // Measured after hydration (the server does not know the header's height).
  const [top, setTop] = useState(76);
  useEffect(() => setTop(headerBottom() + 12), []);
  useEffect(() => {
    const show = type === "error" ? showToast.error : showToast.success;
    show(text, { id, testId: `toast-${id}` });
  }, [id, type, text]);
  return (
    <Toaster
      position={phone ? "bottom-center" : "top-center"}
      offset={{ top }}
      mobileOffset={{ bottom: "calc(16px + env(safe-area-inset-bottom))", left: 16, right: 16 }}
      richColors
      closeButton
      toastOptions={{ className: "text-base" }}
    />
  );
}

export { showToast };
