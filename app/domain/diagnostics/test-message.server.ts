import { randomInt } from "node:crypto";
import { MessageRejectedError } from "~/domain/messaging/errors";
import type { Messaging } from "~/domain/messaging/types";
import type { Locale } from "~/lib/i18n";
import { catalogT } from "~/lib/i18n.server";

export type TestMessageResult = { queued: true } | { queued: false; reason: "invalid-phone" | "invalid-email" };

/**
 * The diagnostics page's "send a test message": a text message with a fixed notice, or an e-mail
 * from the one-time-code template with a random code. Both go through the queue like real ones.
 */
export async function sendTestMessage(
  messaging: Messaging,
  input: { channel: "sms" | "email"; recipient: string; locale: Locale },
): Promise<TestMessageResult> {
  try {
    if (input.channel === "sms") {
      await messaging.sendSms({ to: input.recipient, text: catalogT(input.locale)("testCrud.smsText") });
    } else {
      await messaging.sendEmail({
        to: input.recipient,
        locale: input.locale,
        template: "one-time-code",
        data: { code: String(randomInt(0, 1_000_000)).padStart(6, "0"), purpose: "verify-email", minutes: 5 },
      });
    }
    return { queued: true };
  } catch (error) {
    if (!(error instanceof MessageRejectedError)) throw error;
    return { queued: false, reason: input.channel === "sms" ? "invalid-phone" : "invalid-email" };
  }
}
