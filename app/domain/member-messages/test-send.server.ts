import { authUser } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import type { Locale } from "~/lib/i18n";
import { type AuditContext, auditedTx } from "../audit/audit.server";
import { isPlaceholderEmail } from "../auth/flows.server";
import { composeSms } from "../messaging/sms";
import type { StaffActor } from "../staff/actor";
import { requirePermission } from "../staff/guard.server";
import type { CampaignRow } from "./campaigns.server";
import { campaignEmail, campaignSmsText } from "./compose.server";
import type { DeliveryDeps } from "./delivery.server";

export type TestSendResult = { sms: string | null; email: string | null };

/**
 * A campaign's test send to the admin's own phone and e-mail (issue 16 item 4): the text and the e-mail exactly as
 * members would get them, marked as a test, outside the queue, the cap and the quiet hours; audited. LINE is shown
 * in the composer's preview (staff do not link LINE to their console account).
 */
export async function testSendCampaign(
  deps: Pick<DeliveryDeps, "db" | "sms" | "email" | "secret" | "publicBaseUrl">,
  actor: StaffActor,
  c: CampaignRow,
  locale: Locale,
  audit: AuditContext,
  now = new Date(),
): Promise<TestSendResult> {
  requirePermission(actor, "messages.manage");
  const [me] = await deps.db
    .select({ email: authUser.email, phone: authUser.phoneNumber, name: authUser.name })
    .from(authUser)
    .where(eq(authUser.id, actor.userId));
  const result: TestSendResult = { sms: null, email: null };
  const key = `test:${c.id}:${c.version}:${now.getTime()}`;
  if (c.smsText && me?.phone) {
    const sms = composeSms({ to: me.phone, text: campaignSmsText(c, true) });
    await deps.sms.send({ ...sms, idempotencyKey: `${key}:sms` });
    result.sms = me.phone;
  }
  if (c.emailSubject && c.emailBody && me?.email && !isPlaceholderEmail(me.email)) {
    const email = campaignEmail(
      c,
      { memberId: "00000000-0000-0000-0000-000000000000", name: me.name ?? "", locale },
      { publicBaseUrl: deps.publicBaseUrl, secret: deps.secret, storeName: (id) => id, now },
      true,
    );
    await deps.email.send({
      to: me.email,
      subject: email.subject,
      text: email.text,
      html: email.html,
      headers: email.headers,
      idempotencyKey: `${key}:email`,
    });
    result.email = me.email;
  }
  await auditedTx(deps.db, audit, now, async (_tx, record) => {
    await record("campaign.test-sent", ["campaign", c.id], {
      after: { sms: result.sms ? "sent" : "none", email: result.email ? "sent" : "none" },
    });
  });
  return result;
}
