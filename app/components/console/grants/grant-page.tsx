import type { ReactNode } from "react";
import { ConsolePage } from "~/components/console/console-page";
import { useConsoleT } from "~/components/console/use-console-t";

/** A page of one bulk grant (a new one, or one staged): back to the grants, the title, its sections below. */
export function GrantPageFrame({
  title,
  width,
  badges,
  notices,
  children,
}: {
  title: string;
  width: "4xl" | "5xl";
  badges?: ReactNode;
  notices: ReactNode;
  children: ReactNode;
}) {
  const t = useConsoleT();
  return (
    <ConsolePage
      width={width}
      back={{ to: "/admin/grants", label: t("console.grants.back") }}
      title={title}
      badges={badges}
      notices={notices}
    >
      <div className="mt-6 space-y-6">{children}</div>
    </ConsolePage>
  );
}
