import type { ReactNode } from "react";
import { DetailSection, FieldRow } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import type { ConsoleMemberView } from "~/domain/members/console.server";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { IntentForm } from "./intent-form";

/** The member's profile: personal fields masked until revealed (audited), logins, consents, sessions. */
export function MemberProfile({ member: m, revealed }: { member: ConsoleMemberView; revealed: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  const date = (v: string | null) => (v ? formatTaipei(v, locale, "dateTime") : "—");
  const row = (label: string, value: ReactNode, testId?: string) => (
    <FieldRow label={label} className="break-words" testId={testId}>
      {value ?? "—"}
    </FieldRow>
  );
  const logins = [
    t("console.members.login.phone"),
    m.logins.email ? t("console.members.login.email") : null,
    m.logins.line ? "LINE" : null,
    m.logins.passkeys ? t("console.members.login.passkeys", { count: m.logins.passkeys }) : null,
  ];
  const consents = m.consents.map(
    (c) =>
      `${t(`console.members.consent.${c.kind}` as "console.members.consent.terms")} ${c.granted ? t("console.members.consent.yes") : t("console.members.consent.no")}（v${c.version}）`,
  );
  return (
    <DetailSection
      id="profile-title"
      title={t("console.members.profile")}
      action={
        m.canReveal && !revealed ? <IntentForm intent="reveal" size="sm" label={t("console.members.reveal")} /> : null
      }
    >
      <dl className="grid gap-4 text-sm sm:grid-cols-2">
        {row(t("console.members.col.phone"), <span className="font-mono">{m.phone}</span>, "member-phone")}
        {row(t("console.members.email"), m.email)}
        {m.emailPending
          ? row(
              t("console.members.pendingEmail"),
              <>
                <span className="block">{m.pendingEmail}</span>
                {m.canManage ? (
                  <IntentForm
                    intent="resend-verification"
                    size="sm"
                    className="mt-2"
                    label={t("console.members.resendVerification")}
                  />
                ) : null}
              </>,
              "member-pending-email",
            )
          : null}
        {row(t("console.members.birthday"), m.birthday)}
        {row(t("console.members.address"), m.address)}
        {row(
          t("console.members.company"),
          m.companyName || m.taxIdNumber ? `${m.companyName ?? ""} ${m.taxIdNumber ?? ""}` : null,
        )}
        {row(t("console.members.col.since"), date(m.createdAt))}
        {row(t("console.members.lastLogin"), date(m.lastLoginAt))}
        {row(t("console.members.logins"), logins.filter(Boolean).join("、"))}
        {row(t("console.members.consents"), consents.join("；"))}
        {row(
          t("console.members.sessions"),
          t("console.members.sessionsValue", { count: m.sessions.count, time: date(m.sessions.lastActiveAt) }),
          "member-sessions",
        )}
      </dl>
    </DetailSection>
  );
}
