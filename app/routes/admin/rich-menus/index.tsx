import { redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { HiddenForm, PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { retryFailedRichMenus, richMenuLinkCounts } from "~/domain/line/rich-menu-links.server";
import { isRichMenuState, listRichMenus, RICH_MENU_STATE_ORDER } from "~/domain/line/rich-menus.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
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
  const retried = /^\d{1,9}$/.test(query.get("retried") ?? "") ? Number(query.get("retried")) : null;
  return {
    retried,
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

/** "Try again": failed links and refused deletions go back in the queue (audited, ADR 049). */
export async function action({ request, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "line.richmenu");
  const app = getApp(context);
  const form = await readForm(request);
  try {
    const counts = await retryFailedRichMenus(
      app.db,
      actor,
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
    return redirect(`/admin/rich-menus?retried=${counts.links + counts.menus}`);
  } catch (error) {
    return consoleFailure(error, form, serverT(request));
  }
}

export default function RichMenus({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { published, removed, retried, links } = loaderData;
  const pending = useNavigation().state === "submitting";
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
                : retried !== null
                  ? t("console.richMenus.retried", { count: retried.toLocaleString("en-US") })
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
      {links.failed + links.menusFailed > 0 ? (
        <HiddenForm
          fields={{ intent: "retry" }}
          className="mt-4 flex flex-wrap items-center gap-3"
          testId="rich-menu-retry"
        >
          <p className="text-sm text-muted">
            {t("console.richMenus.failedHint", {
              links: links.failed.toLocaleString("en-US"),
              menus: links.menusFailed.toLocaleString("en-US"),
            })}
          </p>
          <Button type="submit" variant="secondary" pending={pending}>
            {t("console.richMenus.retry")}
          </Button>
        </HiddenForm>
      ) : null}
    </ConsolePage>
  );
}
