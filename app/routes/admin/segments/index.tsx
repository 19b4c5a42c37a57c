import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { rfmAsOf } from "~/domain/segments/rfm.server";
import { listSegments } from "~/domain/segments/segments.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { useLocale } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.segments.title");

/** Saved segments (admins, messages.manage; ADR 056): by name, each to edit or to start a campaign from. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const db = getApp(context).db;
  const [segments, asOf] = await Promise.all([listSegments(db), rfmAsOf(db)]);
  return {
    archived: new URL(request.url).searchParams.has("archived"),
    asOf,
    segments: segments.map((s) => ({ id: s.id, name: s.name, updatedAt: s.updatedAt.toISOString() })),
  };
}

export default function Segments({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const { asOf } = loaderData;
  return (
    <ConsolePage
      width="5xl"
      title={t("console.segments.title")}
      lead={t("console.segments.lead")}
      action={
        <Link to="/admin/segments/new" className={buttonVariants()}>
          {t("console.segments.new")}
        </Link>
      }
      notices={<PageNotices done={loaderData.archived ? t("console.segments.archived") : null} error={null} />}
    >
      <p className="mt-4 text-sm text-muted" data-testid="rfm-as-of">
        {asOf
          ? t("console.segments.asOf", { day: formatTaipei(`${asOf}T12:00:00+08:00`, locale, "date") })
          : t("console.segments.asOfNone")}
      </p>
      <ConsoleList
        empty={t("console.segments.empty")}
        emptyTestId="segments-empty"
        label={t("console.segments.title")}
        testId="segments-table"
        rows={loaderData.segments}
        rowKey={(s) => s.id}
        rowTestId="segment-row"
        stack
        columns={[
          {
            key: "name",
            header: t("console.segments.col.name"),
            className: "max-w-[24rem] break-words",
            cell: (s) => <RowLink to={`/admin/segments/${s.id}`}>{s.name}</RowLink>,
          },
          {
            key: "updated",
            header: t("console.segments.col.updated"),
            className: "text-sm tabular-nums",
            cell: (s) => formatTaipei(s.updatedAt, locale, "dateTime"),
          },
          {
            key: "use",
            header: t("console.segments.col.use"),
            className: "whitespace-nowrap",
            cell: (s) => (
              <Link to={`/admin/messages/campaigns/new?segment=${s.id}`} className="text-sm">
                {t("console.segments.useInCampaign")}
                <span className="sr-only">{`: ${s.name}`}</span>
              </Link>
            ),
          },
        ]}
      />
    </ConsolePage>
  );
}
