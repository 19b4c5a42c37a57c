import type { ConsoleNavItem } from "../nav";
import { ConsoleNav, LogoutButton } from "./console-nav";
import { type StoreOption, StoreSwitch } from "./store-switch";

/**
 * The sidebar's scroll cue (the `scroll-cue` pattern, upright): a soft shadow at the edge where more links wait,
 * covered by the list's own white ends when it is scrolled there (the covers scroll with the links, the shadows
 * stay with the box). At 1280×800 the admin's list is taller than the room left: the bottom shadow says so.
 */
const VERTICAL_SCROLL_CUE = [
  "linear-gradient(var(--color-white) 40%, transparent) top / 100% 2.5rem no-repeat local",
  "linear-gradient(transparent, var(--color-white) 60%) bottom / 100% 2.5rem no-repeat local",
  "radial-gradient(farthest-side at 50% 0, rgb(28 25 23 / 0.3), transparent) top / 100% 1rem no-repeat scroll",
  "radial-gradient(farthest-side at 50% 100%, rgb(28 25 23 / 0.3), transparent) bottom / 100% 1rem no-repeat scroll",
  "var(--color-white)",
].join(", ");

/** The desktop sidebar below the staff member's name: the store switch, the navigation (scrolling), 登出後台. */
export function Sidebar({
  nav,
  stores,
  currentStoreId,
}: {
  nav: readonly ConsoleNavItem[];
  stores: StoreOption[];
  currentStoreId: string | null;
}) {
  return (
    <div className="hidden lg:flex lg:min-h-0 lg:flex-1 lg:flex-col lg:gap-5">
      {stores.length > 1 ? (
        <div className="px-1">
          <StoreSwitch stores={stores} currentStoreId={currentStoreId} />
        </div>
      ) : null}
      {/* The list scrolls on a short screen (with its cue); 登出後台 stays in view below it. */}
      <div
        className="lg:-mx-1 lg:min-h-0 lg:flex-1 lg:overflow-y-auto lg:px-1 lg:pb-2"
        style={{ background: VERTICAL_SCROLL_CUE }}
        data-testid="console-sidebar-scroll"
      >
        <ConsoleNav items={nav} idPrefix="console-sidebar" layout="sidebar" />
      </div>
      <div className="border-t border-line pt-3">
        <LogoutButton />
      </div>
    </div>
  );
}
