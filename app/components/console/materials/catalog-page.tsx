import type { ReactNode } from "react";
import type { Column } from "~/components/console/console-list";
import { ConsolePage, type ConsolePageWidth } from "~/components/console/console-page";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { useConsoleT } from "../use-console-t";

type Area = "materials" | "categories";

/** The frame of the catalogue's lists (materials, categories): title, lead and the link to a new one. */
export function CatalogListPage({
  area,
  width,
  notices,
  children,
}: {
  area: Area;
  width?: ConsolePageWidth;
  notices?: ReactNode;
  children: ReactNode;
}) {
  const t = useConsoleT();
  return (
    <ConsolePage
      width={width}
      title={t(`console.${area}.title`)}
      lead={t(`console.${area}.lead`)}
      notices={notices}
      action={
        <Link to={`/admin/${area}/new`} className={buttonVariants()}>
          {t(`console.${area}.new`)}
        </Link>
      }
    >
      {children}
    </ConsolePage>
  );
}

/** The columns of a catalogue list, each headed `console.<area>.col.<key>`. */
export function useCatalogColumns<Row>(
  area: Area,
  columns: [key: string, cell: Column<Row>["cell"], className?: string][],
): Column<Row>[] {
  const t = useConsoleT();
  return columns.map(([key, cell, className]) => ({
    key,
    header: t(`console.${area}.col.${key}` as Parameters<typeof t>[0]),
    cell,
    className,
  }));
}
