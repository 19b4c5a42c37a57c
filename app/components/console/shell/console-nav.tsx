import { Form } from "react-router";
import { NavLink } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import { type ConsoleNavItem, groupConsoleNav } from "../nav";
import { useConsoleT } from "../use-console-t";

/** The navigation, grouped (日常 / 目錄與方案 / 管理); the current page is marked (aria-current="page"). */
export function ConsoleNav({
  items,
  idPrefix,
  layout,
}: {
  items: readonly ConsoleNavItem[];
  idPrefix: string;
  /** "menu": the groups side by side from `sm` up; "sidebar": one column, denser. */
  layout: "menu" | "sidebar";
}) {
  const t = useConsoleT();
  return (
    <nav aria-label={t("console.nav.label")}>
      <div
        className={layout === "menu" ? "flex flex-col gap-5 sm:grid sm:grid-cols-3 sm:gap-6" : "flex flex-col gap-4"}
      >
        {groupConsoleNav(items).map(({ group, items: groupItems }) => (
          <div key={group}>
            <p
              id={`${idPrefix}-${group}`}
              className="px-3 pb-1 text-xs font-medium tracking-[0.15em] text-muted uppercase"
            >
              {t(`console.shell.group.${group}`)}
            </p>
            <ul aria-labelledby={`${idPrefix}-${group}`} className="flex flex-col gap-0.5">
              {groupItems.map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    end={item.to === "/admin"}
                    className={({ isActive }) =>
                      cn(
                        "relative flex items-center rounded-xl px-3 text-[0.95rem] hover:bg-sand",
                        layout === "menu" ? "min-h-11" : "min-h-9",
                        isActive &&
                          "bg-sand font-medium text-ink before:absolute before:inset-y-2 before:left-0 before:w-1 before:rounded-full before:bg-brand-700",
                      )
                    }
                  >
                    {t(item.label)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}

export function LogoutButton() {
  const t = useConsoleT();
  return (
    <Form method="post" action="/admin/logout">
      <button
        type="submit"
        className="min-h-11 rounded-xl px-3 text-sm text-muted underline underline-offset-4 hover:text-ink"
      >
        {t("console.logout")}
      </button>
    </Form>
  );
}
