import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { Menu, X } from "~/components/ui/icons";
import { useConsoleT } from "../use-console-t";

/**
 * The phone and tablet menu: a <details> disclosure (its <summary> is a button with an expanded state for
 * screen readers, and opens and closes without JavaScript). Closes on navigation, Escape and a tap outside.
 */
export function MobileMenu({ children }: { children: React.ReactNode }) {
  const t = useConsoleT();
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  // A new page (or a store switch): the menu closes.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation on purpose
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const details = ref.current;
      if (details?.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, []);
  return (
    <details
      ref={ref}
      className="group lg:hidden"
      data-testid="console-menu"
      onKeyDown={(event) => {
        if (event.key === "Escape" && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 rounded-xl border border-line bg-white px-3 text-sm font-medium select-none hover:bg-sand group-open:bg-sand [&::-webkit-details-marker]:hidden">
        <Menu className="size-5 group-open:hidden" />
        <X className="hidden size-5 group-open:block" />
        {t("console.nav.menu")}
      </summary>
      <div className="absolute inset-x-0 top-full z-40 max-h-[calc(100dvh-5rem)] overflow-y-auto border-y border-line bg-white px-4 pt-4 pb-3 shadow-[0_0_0_100vmax_rgb(31_28_24/0.28)] [clip-path:inset(0_0_-100vmax_0)] sm:px-6">
        <div className="mx-auto flex max-w-2xl flex-col gap-5">{children}</div>
      </div>
    </details>
  );
}
