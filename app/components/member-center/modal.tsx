import { type ReactNode, useEffect, useId, useRef } from "react";
import { X } from "~/components/ui/icons";
import { cn } from "~/lib/cn";

/**
 * A modal on the browser's own <dialog> (showModal): focus moves in and back, the rest of the page
 * is inert, Escape closes, it sits in the top layer. The member center uses it instead of Radix
 * Dialog, which would add about 13 kB of gzipped JavaScript to the page (docs/decisions/014).
 */
export function Modal({
  open,
  onClose,
  title,
  description,
  closeLabel,
  variant = "sheet",
  children,
  footer,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  closeLabel: string;
  /** "sheet": a card (bottom sheet on phones); "full": the whole screen, white, for scanning. */
  variant?: "sheet" | "full";
  children?: ReactNode;
  footer?: ReactNode;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // The page behind stays where it is (iOS and the LINE browser would scroll it otherwise).
      document.documentElement.style.overflow = "hidden";
    } else if (!open && dialog.open) {
      dialog.close();
    }
    if (!open) document.documentElement.style.overflow = "";
  }, [open]);
  useEffect(
    () => () => {
      document.documentElement.style.overflow = "";
    },
    [],
  );

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the keyboard closes a <dialog> with Escape (native); the click handles only the backdrop
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={description ? `${id}-description` : undefined}
      onClose={onClose}
      // A tap on the backdrop (the dialog element itself, outside its content) closes a sheet.
      onClick={(event) => {
        if (variant === "sheet" && event.target === event.currentTarget) onClose();
      }}
      className={cn(
        "text-ink backdrop:bg-ink/40 backdrop:backdrop-blur-[2px] open:flex",
        variant === "full"
          ? "m-0 h-dvh max-h-none w-full max-w-none flex-col items-center justify-center overflow-y-auto bg-white px-6 py-10"
          : "mx-auto mt-auto mb-4 w-[calc(100%-2rem)] max-w-md flex-col rounded-3xl bg-paper p-0 shadow-xl sm:my-auto",
      )}
      data-testid={testId}
    >
      {open ? (
        variant === "full" ? (
          <>
            <button
              type="button"
              onClick={onClose}
              className="absolute top-4 right-4 rounded-full p-3 text-muted hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700"
              aria-label={closeLabel}
            >
              <X className="size-6" />
            </button>
            <h2 id={`${id}-title`} className="text-center font-serif text-2xl font-semibold">
              {title}
            </h2>
            {description ? (
              <p id={`${id}-description`} className="mt-1 max-w-sm text-center text-muted">
                {description}
              </p>
            ) : null}
            {children}
          </>
        ) : (
          <div className="w-full p-6">
            <div className="flex items-start justify-between gap-4">
              <h2 id={`${id}-title`} className="text-xl font-semibold text-ink">
                {title}
              </h2>
              <button
                type="button"
                onClick={onClose}
                className="-m-2 rounded-full p-2 text-muted hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700"
                aria-label={closeLabel}
              >
                <X className="size-5" />
              </button>
            </div>
            {description ? (
              <p id={`${id}-description`} className="mt-2 text-base text-muted">
                {description}
              </p>
            ) : null}
            {children ? <div className="mt-4">{children}</div> : null}
            {footer ? (
              <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{footer}</div>
            ) : null}
          </div>
        )
      ) : null}
    </dialog>
  );
}
