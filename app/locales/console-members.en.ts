import type { consoleMembersZhTW } from "./console-members.zh-TW";

/** The console's member pages, issue 15's last items (ADR 024 addendum). */
export const consoleMembersEn = {
  "console.members.backToMember": "Back to the member",
  "console.members.lastStore": "Store of last purchase",
  "console.members.error.store": "Choose one of your stores",
  "console.members.pendingEmail": "E-mail awaiting verification",
  "console.members.resendVerification": "Resend the e-mail verification code",
  "console.members.verificationSent":
    "A new code was sent to the member's unverified e-mail (valid for {minutes} minutes); it is verified once they enter it in the member center.",
  "console.members.error.not_pending": "This member has no e-mail awaiting verification",
} as const satisfies Record<keyof typeof consoleMembersZhTW, string>;
