import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { richMenuLinkCounts } from "~/domain/line/rich-menu-links.server";
import { isRichMenuState, listRichMenus, RICH_MENU_STATE_ORDER } from "~/domain/line/rich-menus.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { useLocale } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";
import { stateHintKey, stateKey } from "./rich-menus";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.richMenus.title");

/** The LINE rich menus by member state (admins, `line.richmenu`; ADR 049): one row a state, and the linking's progress. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "line.richmenu");
  const db = getApp(context).db;
  const [menus, links] = await Promise.all([listRichMenus(db), richMenuLinkCounts(db)]);
  const query = new URL(request.url).searchParams;
  const notice = (name: string) => {
    const value = query.get(name) ?? "";
    return isRichMenuState(value) ? value : null;
  };
  return {
    published: notice("published"),
    removed: notice("removed"),
    links,
    rows: RICH_MENU_STATE_ORDER.map((state) => {
      const m = menus.get(state);
      return {
        state,
        menu: m
          ? {
              title: m.title,
              width: m.width,
              height: m.height,
              areas: m.areaCount,
              publishedAt: m.publishedAt.toISOString(),
            }
          : null,
      };
    }),
  };
}

export default function RichMenus({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { published, removed, links } = loaderData;
  return (
    <ConsolePage
      width="5xl"
      title={t("console.richMenus.title")}
      lead={t("console.richMenus.lead")}
      notices={
        <PageNotices
          done={
            published
              ? t("console.richMenus.published", { state: t(stateKey(published)) })
              : removed
                ? t("console.richMenus.removed", { state: t(stateKey(removed)) })
                : null
          }
          error={null}
        />
      }
    >
      <ConsoleList
        count={t("console.richMenus.links", {
          waiting: links.waiting.toLocaleString("en-US"),
          failed: links.failed.toLocaleString("en-US"),
          done: links.done.toLocaleString("en-US"),
        })}
        countTestId="rich-menu-links"
        empty={t("console.richMenus.none")}
        label={t("console.richMenus.title")}
        testId="rich-menus"
        rows={loaderData.rows}
        rowKey={(r) => r.state}
        rowTestId="rich-menu-row"
        stack
        columns={[
          {
            key: "state",
            header: t("console.richMenus.col.state"),
            cell: (r) => (
              <>
                <span className="font-medium">{t(stateKey(r.state))}</span>
                <span className="block text-xs text-muted">{t(stateHintKey(r.state))}</span>
              </>
            ),
          },
          {
            key: "menu",
            header: t("console.richMenus.col.menu"),
            cell: (r) =>
              r.menu ? (
                t("console.richMenus.summary", {
                  title: r.menu.title,
                  width: String(r.menu.width),
                  height: String(r.menu.height),
                  areas: String(r.menu.areas),
                })
              ) : (
                <span className="text-muted">{t("console.richMenus.none")}</span>
              ),
          },
          {
            key: "published",
            header: t("console.richMenus.col.published"),
            className: "text-sm tabular-nums",
            cell: (r) => (r.menu ? formatTaipei(r.menu.publishedAt, locale, "dateTime") : null),
          },
          {
            key: "action",
            header: t("console.richMenus.col.action"),
            className: "whitespace-nowrap",
            cell: (r) => (
              <RowLink to={`/admin/rich-menus/${r.state}`} testId={`rich-menu-edit-${r.state}`}>
                <span aria-hidden="true">{t(r.menu ? "console.richMenus.edit" : "console.richMenus.set")}</span>
                <span className="sr-only">
                  {t(r.menu ? "console.richMenus.editFor" : "console.richMenus.setFor", {
                    state: t(stateKey(r.state)),
                  })}
                </span>
              </RowLink>
            ),
          },
        ]}
      />
    </ConsolePage>
  );
}
