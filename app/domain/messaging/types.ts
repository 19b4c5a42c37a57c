import type { Locale } from "~/lib/i18n";

/** Why a one-time code was sent; a code is only good for the purpose it was issued for. */
export type CodePurpose =
  | "signup"
  | "reset-password"
  | "verify-email"
  | "change-phone"
  | "change-email"
  | "reauth"
  // A guest's phone for a showroom booking (issue 37): by SMS only.
  | "appointment";

/** A text message. `text` is the body without the brand: the messaging layer prefixes 【漢生活】. No URLs. */
export type SmsMessage = { to: string; text: string };

/** E-mails are rendered from templates (zh-TW and en, HTML + text) by the messaging layer. */
export type EmailMessage =
  | {
      to: string;
      locale: Locale;
      template: "one-time-code";
      /** `wording: "welcome"`: a reset code worded as the welcome claim of an imported member (ADR 038). */
      data: { code: string; purpose: CodePurpose; minutes: number; wording?: "welcome" };
    }
  | {
      /** Sent to the old address after a member's e-mail changed (no code, no link). */
      to: string;
      locale: Locale;
      template: "email-changed";
      data: { newEmail: string };
    }
  | {
      /** To the admins: a webhook endpoint failing for 24 h was disabled (ADR 054). */
      to: string;
      locale: Locale;
      template: "webhook-disabled";
      data: { url: string; since: string };
    };

/**
 * Outgoing messages. Both calls only enqueue (a PostgreSQL-backed job queue sends with retries),
 * so a provider outage delays a message instead of failing the request.
 */
export interface Messaging {
  sendSms(message: SmsMessage): Promise<void>;
  sendEmail(message: EmailMessage): Promise<void>;
}
