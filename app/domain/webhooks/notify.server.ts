import { type Database, rowsOf } from "@platform/db/client";
import { sql } from "drizzle-orm";
import { formatTaipei } from "~/lib/time";
import type { Messaging } from "../messaging/types";
import type { DisabledEndpoint } from "./delivery.server";

/**
 * Tells the admins that endpoints were disabled after 24 h of failures (ADR 054): an e-mail to every active admin
 * with a real address (through the messaging queue, retried like every e-mail); the console shows a banner on the
 * webhooks page until the endpoint is enabled again.
 */
export function adminsToldOfDisabled(db: Database, messaging: Pick<Messaging, "sendEmail">) {
  return async (endpoints: DisabledEndpoint[]) => {
    const result = await db.execute(sql`
      select u.email from auth_user u join staff_account s on s.user_id = u.id
       where u.role = 'admin' and s.disabled_at is null and u.email not like '%.invalid'`);
    const admins = rowsOf<{ email: string }>(result).map((r) => r.email);
    for (const endpoint of endpoints) {
      for (const to of admins) {
        await messaging.sendEmail({
          to,
          locale: "zh-TW",
          template: "webhook-disabled",
          data: { url: endpoint.url, since: formatTaipei(endpoint.failingSince, "zh-TW", "dateTime") },
        });
      }
    }
  };
}
