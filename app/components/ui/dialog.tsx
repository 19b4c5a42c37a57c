import * as DialogPrimitive from "@radix-ui/react-dialog";
import type { ReactNode } from "react";
import { useT } from "~/lib/i18n";
import { X } from "./icons";

type DialogProps = {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  trigger?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
};

/** A modal dialog: focus trapped, Escape closes, title and description announced. */
export function Dialog({ open, onOpenChange, trigger, title, description, children, footer }: DialogProps) {
  const t = useT();
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger> : null}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-ink/40 backdrop-blur-[2px]" />
        <DialogPrimitive.Content className="fixed inset-x-4 bottom-4 z-50 mx-auto max-w-md rounded-3xl bg-paper p-6 shadow-xl sm:top-1/2 sm:bottom-auto sm:-translate-y-1/2">
          <div className="flex items-start justify-between gap-4">
            <DialogPrimitive.Title className="text-xl font-semibold text-ink">{title}</DialogPrimitive.Title>
            <DialogPrimitive.Close
              className="-m-2 rounded-full p-2 text-muted hover:bg-sand focus-visible:outline-2 focus-visible:outline-brand-700"
              aria-label={t("common.close")}
            >
              <X aria-hidden className="size-5" />
            </DialogPrimitive.Close>
          </div>
          {description ? (
            <DialogPrimitive.Description className="mt-2 text-base text-muted">
              {description}
            </DialogPrimitive.Description>
          ) : (
            <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
          )}
          {children ? <div className="mt-4">{children}</div> : null}
          {footer ? <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">{footer}</div> : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

export const DialogClose = DialogPrimitive.Close;
