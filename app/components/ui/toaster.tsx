import { useEffect } from "react";
import { Toaster as Sonner, toast as showToast } from "sonner";
import { type MessageKey, useT } from "~/lib/i18n";

export type ToastData = {
  id: string;
  type: "success" | "error";
  message: string;
  values?: Record<string, string | number>;
};

/** Shows the toast the server passed along (from the toast cookie), in the reader's language. */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const t = useT();
  useEffect(() => {
    if (!toast) return;
    const text = t(toast.message as MessageKey, toast.values);
    const show = toast.type === "error" ? showToast.error : showToast.success;
    // Defer so the toast is not swallowed by a hydration render.
    const timer = setTimeout(() => show(text, { id: toast.id }), 0);
    return () => clearTimeout(timer);
  }, [toast, t]);
  return (
    <>
      <Sonner position="top-center" richColors closeButton toastOptions={{ className: "text-base" }} />
      {toast ? (
        <noscript>
          <p role="status" className="bg-ink px-4 py-3 text-center text-paper">
            {t(toast.message as MessageKey, toast.values)}
          </p>
        </noscript>
      ) : null}
    </>
  );
}
