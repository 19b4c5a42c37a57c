import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { exportMemberData } from "~/domain/members/privacy.server";
import { taipeiIsoDate } from "~/lib/time";
import type { Route } from "./+types/privacy-export";

/**
 * "Download my data": the session member's data as a JSON file (never another member's: there is
 * no id in the request to change). Not cached anywhere.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const session = requireMember(context, request);
  const now = new Date();
  const data = await exportMemberData(getApp(context).db, session.userId, now);
  const filename = `han-living-${session.member.memberNumber}-${taipeiIsoDate(now)}.json`;
  return new Response(`${JSON.stringify(data, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
