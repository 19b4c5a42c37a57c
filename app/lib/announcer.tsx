import { useSyncExternalStore } from "react";

/**
 * One polite live region for the whole page: something that changed without a navigation (a form
 * refused, with the focus moved to its first field in error) is read out by screen readers.
 */
let message = "";
const listeners = new Set<() => void>();

function set(next: string) {
  message = next;
  for (const listener of listeners) listener();
}

/** Reads `text` out; the same text again is read again (the region is emptied first). */
export function announce(text: string): void {
  set("");
  requestAnimationFrame(() => set(text));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function LiveAnnouncer() {
  const text = useSyncExternalStore(
    subscribe,
    () => message,
    () => "",
  );
  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-announcer">
      {text}
    </div>
  );
}
