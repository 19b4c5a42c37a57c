import type { Database } from "@platform/db/client";
import type { Locale } from "~/lib/i18n";
import { CODE_POLICY, type IssueResult, issueCode, type VerifyResult, verifyCode } from "../auth/one-time-codes.server";
import type { Messaging } from "../messaging/types";

/**
 * A guest's phone for a showroom booking (issue 37): the one-time code machinery of sign-up (a hashed code, single
 * use, 5 tries, the resend cooldown and the per-number and per-IP send limits, all atomic; ADR 009 and 018) with a
 * purpose of its own, so a booking code never signs anybody up and a sign-up code never books. Sent by SMS through
 * the outbox like every code.
 */
export type GuestCodeDeps = { db: Database; messaging: Messaging; secret: string };

const TEXT: Record<Locale, (code: string) => string> = {
  "zh-TW": (code) => `您的門市預約驗證碼為 ${code}，${CODE_POLICY.validMinutes} 分鐘內有效。請勿將驗證碼告訴任何人。`,
  en: (code) => `Your showroom booking code is ${code}, valid for ${CODE_POLICY.validMinutes} minutes. Never share it.`,
};

export async function sendGuestCode(
  deps: GuestCodeDeps,
  input: { phone: string; ip: string | null; locale: Locale },
  now = new Date(),
): Promise<IssueResult> {
  const issued = await issueCode(
    deps.db,
    { purpose: "appointment", target: input.phone, ip: input.ip, secret: deps.secret },
    now,
  );
  if (issued.ok) await deps.messaging.sendSms({ to: input.phone, text: TEXT[input.locale](issued.code) });
  return issued;
}

/** Checks (and on success consumes) a guest's booking code for that phone. */
export function checkGuestCode(
  deps: Pick<GuestCodeDeps, "db" | "secret">,
  input: { phone: string; code: string },
  now = new Date(),
): Promise<VerifyResult> {
  return verifyCode(
    deps.db,
    { purpose: "appointment", target: input.phone, code: input.code, secret: deps.secret },
    now,
  );
}
