import { CheckboxField } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { TIER_ORDER as TIERS } from "~/domain/loyalty/tier-names";
import { type CampaignFormValues, LAST_PURCHASE_CHOICES } from "~/domain/member-messages/campaign-values";
import { RFM_GROUPS, RFM_SCORES } from "~/domain/segments/rfm";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { useFormState } from "~/lib/use-form-state";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

const MONTHS = Array.from({ length: 12 }, (_, i) => i + 1);

/** What the showroom filters can name, in the page's language (ADR 048). */
export type ShowroomChoices = {
  categories: { id: string; name: string }[];
  stores: { id: string; name: string }[];
};

/**
 * The composer's audience (issue 16 item 4): tiers, city, last purchase, balance, birthday month, reachable; then
 * the showroom filters (favourited category, quote open, visited store in the last N days; ADR 048); the RFM scores
 * and groups (ADR 056). The campaign composer and the segment builder both show it.
 */
export function AudienceFields({
  initial,
  cities,
  showroom,
  lineOn,
}: {
  initial: CampaignFormValues;
  cities: readonly string[];
  showroom: ShowroomChoices;
  lineOn: boolean;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const tiers = new Set((initial.tiers ?? "").split(",").filter(Boolean));
  const any = <option value="">{t("console.messages.audience.any")}</option>;
  const select = (name: string, label: MessageKey, options: { value: string | number; label: string }[]) => (
    <NativeSelectField label={t(label)} errors={form.errors(name)} selectProps={{ name, defaultValue: initial[name] }}>
      {any}
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </NativeSelectField>
  );
  const balance = (name: "balanceMin" | "balanceMax") => (
    <Field
      label={t(`console.messages.audience.${name}`)}
      errors={form.errors(name)}
      inputProps={{ name, inputMode: "numeric", maxLength: 12, defaultValue: initial[name] }}
    />
  );
  const monthName = (m: number) =>
    locale === "en" ? new Date(2026, m - 1, 1).toLocaleString("en-US", { month: "long" }) : m;
  return (
    <DetailSection
      id="audience-title"
      title={t("console.messages.audience.title")}
      lead={t("console.messages.audience.lead")}
    >
      <fieldset>
        <legend className="text-sm font-medium">{t("console.messages.audience.tiers")}</legend>
        <p className="mt-1 text-sm text-muted">{t("console.messages.audience.tiersHint")}</p>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {TIERS.map((tier) => (
            <CheckboxField
              key={tier}
              name="tiers"
              value={tier}
              label={t(`console.counter.tier.${tier}` as MessageKey)}
              defaultChecked={tiers.has(tier)}
              errors={tier === "basic" ? form.errors("tiers") : null}
            />
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        {select(
          "city",
          "console.messages.audience.city",
          cities.map((city) => ({ value: city, label: city })),
        )}
        {select(
          "lastPurchaseDays",
          "console.messages.audience.lastPurchase",
          LAST_PURCHASE_CHOICES.map((d) => ({
            value: d,
            label: t(`console.messages.audience.last.${d}` as MessageKey),
          })),
        )}
        {balance("balanceMin")}
        {balance("balanceMax")}
        {select(
          "birthdayMonth",
          "console.messages.audience.birthdayMonth",
          MONTHS.map((m) => ({ value: m, label: t("console.messages.audience.month", { month: monthName(m) }) })),
        )}
        {select(
          "reachable",
          "console.messages.audience.reachable",
          (lineOn ? (["line", "sms", "email"] as const) : (["sms", "email"] as const)).map((ch) => ({
            value: ch,
            label: t(`console.messages.channel.${ch}` as MessageKey),
          })),
        )}
      </div>
      <fieldset>
        <legend className="text-sm font-medium">{t("console.messages.audience.showroom")}</legend>
        <p className="mt-1 text-sm text-muted">{t("console.messages.audience.showroomHint")}</p>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          {select(
            "favouriteCategory",
            "console.messages.audience.favouriteCategory",
            showroom.categories.map((c) => ({ value: c.id, label: c.name })),
          )}
          {select("quoteOpen", "console.messages.audience.quoteOpen", [
            { value: "1", label: t("console.messages.audience.quoteOpenYes") },
          ])}
        </div>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          {select(
            "visitedStore",
            "console.messages.audience.visitedStore",
            showroom.stores.map((s) => ({ value: s.id, label: s.name })),
          )}
          <Field
            label={t("console.messages.audience.visitedDays")}
            description={t("console.messages.audience.visitedHint")}
            errors={form.errors("visitedDays")}
            inputProps={{ name: "visitedDays", inputMode: "numeric", maxLength: 6, defaultValue: initial.visitedDays }}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend className="text-sm font-medium">{t("console.segments.rfm.title")}</legend>
        <p className="mt-1 text-sm text-muted">{t("console.segments.rfm.lead")}</p>
        <div className="mt-3 grid gap-4 sm:grid-cols-2">
          {(["rfmR", "rfmF", "rfmM"] as const).map((name) => (
            <div key={name}>
              {select(
                name,
                `console.segments.rfm.${name.slice(3).toLowerCase()}` as MessageKey,
                RFM_SCORES.map((score) => ({ value: score, label: t("console.segments.rfm.score", { score }) })),
              )}
            </div>
          ))}
          {select(
            "rfmGroup",
            "console.segments.rfm.group",
            RFM_GROUPS.map((g) => ({ value: g, label: t(`console.segments.rfm.group.${g}` as MessageKey) })),
          )}
        </div>
      </fieldset>
    </DetailSection>
  );
}
