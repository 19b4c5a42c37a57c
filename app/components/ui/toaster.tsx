import { lazy, Suspense } from "react";
import { type MessageKey, useT } from "~/lib/i18n";

export type ToastData = {
  id: string;
  type: "success" | "error";
  message: string;
  values?: Record<string, string | number>;
};

// sonner is loaded only on pages that actually show a toast (most pages never do).
const ToastViewport = lazy(() => import("./toast-viewport"));

/** Shows the toast the server passed along (from the toast cookie), in the reader's language. */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const t = useT();
  if (!toast) return null;
  const text = t(toast.message as MessageKey, toast.values);
  return (
    <>
      <Suspense fallback={null}>
        <ToastViewport id={toast.id} type={toast.type} text={text} />
      </Suspense>
      {/* Which toast this page shows, for the browser tests' wait (sonner arrives lazily). */}
      <span hidden data-toast-expected={toast.id} />
      <noscript>
        <p role="status" className="fixed inset-x-0 bottom-0 z-50 bg-ink px-4 py-3 text-center text-paper">
          {text}
        </p>
      </noscript>
    </>
  );
}
