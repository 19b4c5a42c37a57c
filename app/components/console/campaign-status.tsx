import type { CampaignStatus } from "@platform/db/schema/member-message-kinds";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "./use-console-t";

/** A campaign's status as a small badge (the campaign list and the campaign's page). */
const STATUS_TONE: Record<CampaignStatus, string> = {
  draft: "bg-sand text-ink",
  scheduled: "bg-brand-700/10 text-brand-800",
  sending: "bg-brand-700/10 text-brand-800",
  sent: "bg-success-700/10 text-success-700",
  cancelled: "bg-danger-700/10 text-danger-800",
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const t = useConsoleT();
  return (
    <span className={`inline-block rounded-full px-2.5 py-0.5 text-xs font-medium ${STATUS_TONE[status]}`}>
      {t(`console.messages.campaignStatus.${status}` as MessageKey)}
    </span>
  );
}
