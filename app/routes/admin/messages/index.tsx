import { CAMPAIGN_STATUSES } from "@platform/db/schema/member-message-kinds";
import { Form } from "react-router";
import { getApp } from "~/adapters/context.server";
import { CampaignStatusBadge } from "~/components/console/campaign-status";
import { ConsolePage } from "~/components/console/console-page";
import { FilterSelect } from "~/components/console/filter-fields";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { listCampaigns } from "~/domain/member-messages/campaigns.server";
import { automaticSettings } from "~/domain/member-messages/settings.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.messages.title");

/** Messages to members (admins, ADR 034): the automatic messages at a glance, and the campaigns, newest first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const db = getApp(context).db;
  const url = new URL(request.url);
  const { status, after } = parseListQuery(url, {
    status: listField.choice(CAMPAIGN_STATUSES, null),
    after: listField.cursor(),
  }).values;
  const [automatic, campaigns] = await Promise.all([automaticSettings(db), listCampaigns(db, { status, after })]);
  const moreParams = new URLSearchParams();
  if (status) moreParams.set("status", status);
  if (campaigns.nextAfter) moreParams.set("after", campaigns.nextAfter);
  return {
    status,
    automatic: automatic.map((a) => ({ kind: a.kind, enabled: a.enabled, channels: a.channels })),
    campaigns: campaigns.rows.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status,
      scheduledAt: c.scheduledAt?.toISOString() ?? null,
      queuedCount: c.queuedCount,
    })),
    moreHref: campaigns.nextAfter ? `/admin/messages?${moreParams}` : null,
  };
}

export default function Messages({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <ConsolePage title={t("console.messages.title")} lead={t("console.messages.lead")}>
      <section aria-labelledby="automatic-title" className="mt-8">
        <h2 id="automatic-title" className="text-xl font-semibold">
          {t("console.messages.automatic.title")}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-muted">{t("console.messages.automatic.lead")}</p>
        <ul className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" data-testid="automatic-list">
          {loaderData.automatic.map((a) => (
            <li
              key={a.kind}
              className="flex flex-col rounded-2xl border border-line bg-white p-4"
              data-testid="automatic-item"
            >
              <div className="flex items-start justify-between gap-3">
                <h3 className="font-medium">{t(`console.messages.kind.${a.kind}` as MessageKey)}</h3>
                <span
                  className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${
                    a.enabled ? "bg-success-700/10 text-success-700" : "bg-sand text-muted"
                  }`}
                >
                  {a.enabled ? t("console.messages.automatic.on") : t("console.messages.automatic.off")}
                </span>
              </div>
              <p className="mt-1 text-sm text-muted">{t(`console.messages.when.${a.kind}` as MessageKey)}</p>
              <p className="mt-2 text-sm">
                {a.channels.map((c) => t(`console.messages.channel.${c}` as MessageKey)).join(" · ")}
              </p>
              <Link
                to={`/admin/messages/automatic/${a.kind}`}
                className="mt-auto self-start pt-3 text-sm font-medium underline underline-offset-4"
                aria-label={`${t("console.messages.automatic.edit")}：${t(`console.messages.kind.${a.kind}` as MessageKey)}`}
              >
                {t("console.messages.automatic.edit")}
              </Link>
            </li>
          ))}
        </ul>
      </section>

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
        <Form method="get" className="mt-4 flex flex-wrap items-end gap-3">
          <FilterSelect
            name="status"
            label={t("console.messages.campaigns.status")}
            value={loaderData.status ?? ""}
            options={CAMPAIGN_STATUSES.map((s) => ({
              value: s,
              label: t(`console.messages.campaignStatus.${s}` as MessageKey),
            }))}
          />
          <Button type="submit" variant="secondary">
            {t("console.messages.campaigns.apply")}
          </Button>
        </Form>
        {loaderData.campaigns.length === 0 ? (
          <p
            className="mt-4 rounded-2xl border border-line bg-white p-6 text-center text-muted"
            data-testid="campaigns-empty"
          >
            {t("console.messages.campaigns.empty")}
          </p>
        ) : (
          <TableScroll labelledBy="campaigns-title" className="mt-4 rounded-2xl border border-line bg-white">
            <table className="w-full min-w-[40rem] text-left text-sm" data-testid="campaigns-table">
              <thead className="border-b border-line bg-sand/50 text-muted">
                <tr>
                  {(["name", "status", "when", "audience"] as const).map((col) => (
                    <th key={col} scope="col" className="px-4 py-3 font-medium">
                      {t(`console.messages.campaigns.col.${col}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-line">
                {loaderData.campaigns.map((c) => (
                  <tr key={c.id} data-testid="campaign-row">
                    <td className="max-w-[20rem] px-4 py-3 break-words">
                      <Link
                        to={`/admin/messages/campaigns/${c.id}`}
                        className="font-medium underline decoration-line underline-offset-4 hover:decoration-ink"
                      >
                        {c.name}
                      </Link>
                    </td>
                    <td className="px-4 py-3">
                      <CampaignStatusBadge status={c.status} />
                    </td>
                    <td className="px-4 py-3 tabular-nums">
                      {c.scheduledAt ? formatTaipei(c.scheduledAt, locale, "dateTime") : "—"}
                    </td>
                    <td className="px-4 py-3 tabular-nums">
                      {c.queuedCount === null ? "—" : c.queuedCount.toLocaleString("en-US")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {loaderData.moreHref ? (
          <p className="mt-4">
            <Link to={loaderData.moreHref} className="text-sm font-medium underline underline-offset-4">
              {t("console.messages.campaigns.more")}
            </Link>
          </p>
        ) : null}
      </section>
    </ConsolePage>
  );
}
