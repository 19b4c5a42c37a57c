import type { AudienceCount, CampaignFormValues, ComposerFrame } from "~/domain/member-messages/campaign-values";
import { formatNumber, useLocale } from "~/lib/i18n";
import { EmailPreview, LinePreview, SmsPreview } from "../message-previews";
import { useConsoleT } from "../use-console-t";

/** The live count: who the filters name, split as the delivery would reach them (a polite live region). */
export function AudienceCountPanel({ count, busy }: { count: AudienceCount | null; busy: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <section
      aria-labelledby="count-title"
      className="rounded-2xl border border-line bg-white p-5"
      data-testid="audience-count"
    >
      <h2 id="count-title" className="text-lg font-semibold">
        {t("console.messages.count.title")}
      </h2>
      <div aria-live="polite" aria-busy={busy}>
        {count ? (
          <>
            <p className="mt-2 text-2xl font-semibold tabular-nums" data-testid="count-total">
              {t("console.messages.count.total", { count: formatNumber(count.total, locale) })}
            </p>
            <ul className="mt-2 space-y-1 text-sm">
              {(["line", "sms", "email", "optedOut", "unreachable"] as const).map((k) => (
                <li key={k} data-testid={`count-${k}`} className="tabular-nums">
                  {t(`console.messages.count.${k}`, { count: formatNumber(count[k], locale) })}
                </li>
              ))}
            </ul>
          </>
        ) : (
          <p className="mt-2 text-sm text-muted">{busy ? t("console.messages.count.updating") : "—"}</p>
        )}
      </div>
      <p className="mt-3 text-xs text-muted">{t("console.messages.count.hint")}</p>
    </section>
  );
}

/** The campaign as members will get it on each channel with a message (brand, refusal line, footer included). */
export function CampaignPreviews({ values, frame: f }: { values: CampaignFormValues; frame: ComposerFrame }) {
  const t = useConsoleT();
  return (
    <section aria-labelledby="preview-title" className="space-y-3">
      <h2 id="preview-title" className="text-lg font-semibold">
        {t("console.messages.edit.previewTitle")}
      </h2>
      {values.lineText ? (
        <LinePreview
          label={t("console.messages.preview.line")}
          text={`${values.lineText}${f.lineSuffix}`}
          testId="line-preview"
        />
      ) : null}
      {values.smsText ? (
        <SmsPreview
          label={t("console.messages.preview.sms")}
          text={`${f.smsPrefix}${values.smsText}${f.smsSuffix}`}
          testId="sms-preview"
        />
      ) : null}
      {values.emailSubject || values.emailBody ? (
        <EmailPreview
          label={t("console.messages.preview.email")}
          subject={values.emailSubject ?? ""}
          body={values.emailBody ?? ""}
          footer={`${f.emailFooter} ${f.emailUnsubscribe}`}
          testId="email-preview"
        />
      ) : null}
    </section>
  );
}
