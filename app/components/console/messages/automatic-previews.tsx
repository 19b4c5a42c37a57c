import { BRAND_NAME } from "@platform/constants";
import { type CardInput, memberCard } from "~/domain/member-messages/flex";
import { renderTemplate } from "~/domain/member-messages/templates";
import type { Locale } from "~/lib/i18n";
import { LinePreview, SmsPreview } from "../message-previews";
import { useConsoleT } from "../use-console-t";

const SMS_PREFIX = `【${BRAND_NAME}】`;

export type AutomaticPreview = Record<
  Locale,
  { values: Record<string, string | number>; card: Omit<CardInput, "brand" | "text"> }
>;

/** An automatic message as members get it, per language: the LINE card around the text, and the SMS. */
export function AutomaticPreviews({ text, preview }: { text: Record<Locale, string>; preview: AutomaticPreview }) {
  const t = useConsoleT();
  return (
    <section aria-labelledby="preview-title" className="space-y-4">
      <div>
        <h2 id="preview-title" className="text-lg font-semibold">
          {t("console.messages.edit.previewTitle")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("console.messages.edit.previewLead")}</p>
      </div>
      {(["zh-TW", "en"] as const).map((locale) => {
        const rendered = renderTemplate(text[locale], preview[locale].values);
        const language = t(locale === "zh-TW" ? "console.messages.preview.zh" : "console.messages.preview.en");
        return (
          <div key={locale} className="space-y-3">
            <LinePreview
              label={`${t("console.messages.preview.line")} · ${language}`}
              bubble={memberCard({ brand: BRAND_NAME, ...preview[locale].card, text: rendered })}
              testId={`flex-preview-${locale}`}
            />
            <SmsPreview
              label={`${t("console.messages.preview.sms")} · ${language}`}
              text={`${SMS_PREFIX}${rendered}`}
              testId={`sms-preview-${locale}`}
            />
          </div>
        );
      })}
    </section>
  );
}
