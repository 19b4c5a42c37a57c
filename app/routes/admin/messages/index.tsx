import { CAMPAIGN_STATUSES } from "@platform/db/schema/member-message-kinds";
import { getApp } from "~/adapters/context.server";
import { CampaignStatusBadge } from "~/components/console/campaign-status";
import { ConsoleList, FilterBar, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { FilterSelect } from "~/components/console/filter-fields";
import { AutomaticCards } from "~/components/console/messages/automatic-cards";
import { useConsoleT } from "~/components/console/use-console-t";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { listCampaigns } from "~/domain/member-messages/campaigns.server";
import { automaticSettings } from "~/domain/member-messages/settings.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { listField, listHref, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.messages.title");

const CAMPAIGN_QUERY = { status: listField.choice(CAMPAIGN_STATUSES, null), after: listField.cursor() };

/** Messages to members (admins, ADR 034): the automatic messages at a glance, and the campaigns, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const db = getApp(context).db;
  const query = parseListQuery(new URL(request.url), CAMPAIGN_QUERY);
  const [automatic, campaigns] = await Promise.all([automaticSettings(db), listCampaigns(db, query.values)]);
  return {
    status: query.values.status,
    automatic: automatic.map((a) => ({ kind: a.kind, enabled: a.enabled, channels: a.channels })),
    campaigns: campaigns.rows.map((c) => ({ ...c, scheduledAt: c.scheduledAt?.toISOString() ?? null })),
    moreHref: campaigns.nextAfter
      ? listHref("/admin/messages", CAMPAIGN_QUERY, query, { after: campaigns.nextAfter })
      : null,
  };
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <ConsolePage title={t("console.messages.title")} lead={t("console.messages.lead")}>
      <AutomaticCards automatic={loaderData.automatic} />
      <section aria-labelledby="campaigns-title" className="mt-10">
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h2 id="campaigns-title" className="text-xl font-semibold">
              {t("console.messages.campaigns.title")}
            </h2>
            <p className="mt-1 text-sm text-muted">{t("console.messages.campaigns.lead")}</p>
          </div>
          <Link to="/admin/messages/campaigns/new" className={buttonVariants()}>
            {t("console.messages.campaigns.new")}
          </Link>
        </div>
        <ConsoleList
          filters={
            <FilterBar
              submitLabel={t("console.messages.campaigns.apply")}
              className="mt-4"
              columns="lg:grid-cols-[16rem_auto]"
            >
              <FilterSelect
                name="status"
                label={t("console.messages.campaigns.status")}
                value={loaderData.status ?? ""}
                options={CAMPAIGN_STATUSES.map((s) => ({
                  value: s,
                  label: t(`console.messages.campaignStatus.${s}` as MessageKey),
                }))}
              />
            </FilterBar>
          }
          empty={t("console.messages.campaigns.empty")}
          emptyTestId="campaigns-empty"
          labelledBy="campaigns-title"
          testId="campaigns-table"
          rows={loaderData.campaigns}
          rowKey={(c) => c.id}
          rowTestId="campaign-row"
          columns={[
            {
              key: "name",
              header: t("console.messages.campaigns.col.name"),
              className: "max-w-[20rem] break-words",
              cell: (c) => <RowLink to={`/admin/messages/campaigns/${c.id}`}>{c.name}</RowLink>,
            },
            {
              key: "status",
              header: t("console.messages.campaigns.col.status"),
              cell: (c) => <CampaignStatusBadge status={c.status} />,
            },
            {
              key: "when",
              header: t("console.messages.campaigns.col.when"),
              className: "tabular-nums",
              cell: (c) => (c.scheduledAt ? formatTaipei(c.scheduledAt, locale, "dateTime") : "—"),
            },
            {
              key: "audience",
              header: t("console.messages.campaigns.col.audience"),
              className: "tabular-nums",
              cell: (c) => (c.queuedCount === null ? "—" : c.queuedCount.toLocaleString("en-US")),
            },
          ]}
          paging={{ kind: "more", href: loaderData.moreHref, label: t("console.messages.campaigns.more") }}
        />
      </section>
    </ConsolePage>
  );
}
