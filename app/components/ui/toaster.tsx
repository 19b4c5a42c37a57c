import { lazy, Suspense, useSyncExternalStore } from "react";
import { type MessageKey, useT } from "~/lib/i18n";

export type ToastData = {
  id: string;
  type: "success" | "error";
  message: string;
  values?: Record<string, string | number>;
};

// sonner is loaded only on pages that actually show a toast (most pages never do).
const ToastViewport = lazy(() => import("./toast-viewport"));

type ClientToast = { id: string; type: "success" | "error"; text: string };

let clientToast: ClientToast | null = null;
let clientToasts = 0;
const listeners = new Set<() => void>();

/**
 * A toast raised in the browser, already in the reader's language (e.g. the LINE features inside LINE, whose
 * texts come with their own chunk): shown by the one Toaster of the page, after any toast the server sent.
 */
export function showClientToast(type: "success" | "error", text: string): void {
  clientToasts += 1;
  clientToast = { id: `client-${clientToasts}`, type, text };
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Shows the toast the server passed along (from the toast cookie), in the reader's language, or the newest one
 * raised in the browser (one sonner viewport for both, so neither replaces the other's toasts).
 */
export function Toaster({ toast }: { toast: ToastData | null }) {
  const t = useT();
  const fromClient = useSyncExternalStore(
    subscribe,
    () => clientToast,
    () => null,
  );
  const serverText = toast ? t(toast.message as MessageKey, toast.values) : "";
  const shown = fromClient ?? (toast ? { id: toast.id, type: toast.type, text: serverText } : null);
  if (!shown) return null;
  return (
    <>
      <Suspense fallback={null}>
        <ToastViewport id={shown.id} type={shown.type} text={shown.text} />
      </Suspense>
      {/* Which toast this page shows, for the browser tests' wait (sonner arrives lazily). */}
      <span hidden data-toast-expected={shown.id} />
      {toast ? (
        <noscript>
          <p role="status" className="fixed inset-x-0 bottom-0 z-50 bg-ink px-4 py-3 text-center text-paper">
            {serverText}
          </p>
        </noscript>
      ) : null}
    </>
  );
}
