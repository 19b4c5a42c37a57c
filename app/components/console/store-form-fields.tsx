import type { ReactNode } from "react";
import { CheckboxField } from "~/components/ui/checkbox";
import { ErrorList, Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import type { MessageKey } from "~/lib/i18n";
import { DetailSection, TextArea } from "./detail-section";
import { useConsoleT } from "./use-console-t";

/**
 * The store editor's fields (new store and edit): texts in both languages, the district (city →
 * district → postal code in one grouped list), contact, coordinates, the week's hours, the exception
 * rows (existing ones plus blank ones to add; a "Delete" box removes one) and the services. Plain
 * form fields: everything works without JavaScript, and the server validates.
 */

export type StoreFormProps = {
  values: (field: string) => string;
  errors: (field: string) => string[] | null;
  services: readonly string[];
  allServices: readonly string[];
  districts: { city: string; districts: { postalCode: string; label: string }[] }[];
  exceptionRows: number;
  /** The editor's photos field (not on the new-store form: photos are added once the store exists). */
  photos?: ReactNode;
  withId?: boolean;
};

const LIMITS = { name: 40, summary: 300, address: 120, note: 60 };

export function StoreFormFields(props: StoreFormProps) {
  const t = useConsoleT();
  const { values, errors } = props;
  const text = (name: string, label: MessageKey, maxLength: number, extra: Record<string, unknown> = {}) => (
    <Field
      label={t(label)}
      errors={errors(name)}
      inputProps={{
        name,
        type: "text",
        defaultValue: values(name),
        maxLength,
        required: true,
        autoComplete: "off",
        ...extra,
      }}
    />
  );
  return (
    <div className="space-y-6">
      <DetailSection id="store-texts" title={t("console.stores.section.texts")}>
        {props.withId ? (
          <Field
            label={t("console.stores.field.id")}
            description={t("console.stores.field.idHint")}
            errors={errors("id")}
            inputProps={{
              name: "id",
              type: "text",
              defaultValue: values("id"),
              maxLength: 60,
              required: true,
              autoComplete: "off",
              spellCheck: false,
              className: "font-mono",
            }}
          />
        ) : null}
        <div className="grid gap-4 md:grid-cols-2">
          {text("nameZh", "console.stores.field.nameZh", LIMITS.name, { lang: "zh-TW" })}
          {text("nameEn", "console.stores.field.nameEn", LIMITS.name, { lang: "en" })}
          <TextArea
            label={t("console.stores.field.summaryZh")}
            name="summaryZh"
            value={values("summaryZh")}
            errors={errors("summaryZh")}
            max={LIMITS.summary}
          />
          <TextArea
            label={t("console.stores.field.summaryEn")}
            name="summaryEn"
            value={values("summaryEn")}
            errors={errors("summaryEn")}
            max={LIMITS.summary}
          />
        </div>
      </DetailSection>

      <DetailSection id="store-address" title={t("console.stores.section.address")}>
        <NativeSelectField
          label={t("console.stores.field.district")}
          description={t("console.stores.field.districtHint")}
          errors={errors("postalCode")}
          selectProps={{ name: "postalCode", defaultValue: values("postalCode"), required: true }}
        >
          <option value="">—</option>
          {props.districts.map((group) => (
            <optgroup key={group.city} label={group.city}>
              {group.districts.map((d) => (
                <option key={d.postalCode} value={d.postalCode}>
                  {group.city} {d.label}
                </option>
              ))}
            </optgroup>
          ))}
        </NativeSelectField>
        <div className="grid gap-4 md:grid-cols-2">
          {text("addressZh", "console.stores.field.addressZh", LIMITS.address, { lang: "zh-TW" })}
          {text("addressEn", "console.stores.field.addressEn", LIMITS.address, { lang: "en" })}
        </div>
        <p className="-mt-2 text-sm text-muted">{t("console.stores.field.addressHint")}</p>
        <div className="grid gap-4 md:grid-cols-2">
          {text("latitude", "console.stores.field.latitude", 20, { inputMode: "decimal", className: "tabular-nums" })}
          {text("longitude", "console.stores.field.longitude", 20, { inputMode: "decimal", className: "tabular-nums" })}
        </div>
        <p className="-mt-2 text-sm text-muted">{t("console.stores.field.coordsHint")}</p>
      </DetailSection>

      <DetailSection id="store-contact" title={t("console.stores.section.contact")}>
        <div className="grid gap-4 md:grid-cols-2">
          <Field
            label={t("console.stores.field.phone")}
            description={t("console.stores.field.phoneHint")}
            errors={errors("phone")}
            inputProps={{ name: "phone", type: "tel", defaultValue: values("phone"), maxLength: 20, required: true }}
          />
          <Field
            label={t("console.stores.field.email")}
            errors={errors("email")}
            inputProps={{ name: "email", type: "email", defaultValue: values("email"), maxLength: 120, required: true }}
          />
        </div>
      </DetailSection>

      <DetailSection
        id="store-hours"
        title={t("console.stores.section.hours")}
        lead={t("console.stores.field.hoursHint")}
      >
        <div className="grid gap-3">
          {[1, 2, 3, 4, 5, 6, 0].map((day) => (
            <Field
              key={day}
              className="grid items-center gap-x-4 gap-y-1 sm:grid-cols-[8rem_1fr] [&>label]:sm:pt-0 [&>ul]:sm:col-start-2"
              label={t(`console.stores.weekday.${day}` as MessageKey)}
              errors={errors(`hours${day}`)}
              inputProps={{
                name: `hours${day}`,
                type: "text",
                defaultValue: values(`hours${day}`),
                maxLength: 80,
                placeholder: t("console.stores.calendar.closed"),
                autoComplete: "off",
                className: "tabular-nums",
              }}
            />
          ))}
        </div>
      </DetailSection>

      <DetailSection
        id="store-exceptions"
        title={t("console.stores.section.exceptions")}
        lead={t("console.stores.ex.lead")}
      >
        <ol className="space-y-3">
          {Array.from({ length: props.exceptionRows }, (_, row) => {
            const isNew = !values(`ex${row}Date`) && !values(`ex${row}Hours`) && !values(`ex${row}NoteZh`);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions in the form
              <li key={row} className="rounded-xl border border-line/80 p-3" data-testid="exception-row">
                <fieldset>
                  <legend className="text-sm font-medium text-muted">
                    {isNew ? t("console.stores.ex.newRow") : t("console.stores.ex.row", { n: row + 1 })}
                  </legend>
                  <div className="mt-2 grid gap-3 sm:grid-cols-2 lg:grid-cols-[10rem_12rem_1fr_1fr_auto] lg:items-start">
                    <Field
                      label={t("console.stores.ex.date")}
                      errors={errors(`ex${row}Date`)}
                      inputProps={{ name: `ex${row}Date`, type: "date", defaultValue: values(`ex${row}Date`) }}
                    />
                    <Field
                      label={t("console.stores.ex.hours")}
                      description={t("console.stores.ex.hoursHint")}
                      errors={errors(`ex${row}Hours`)}
                      inputProps={{
                        name: `ex${row}Hours`,
                        type: "text",
                        defaultValue: values(`ex${row}Hours`),
                        maxLength: 80,
                        autoComplete: "off",
                        className: "tabular-nums",
                      }}
                    />
                    <Field
                      label={t("console.stores.ex.noteZh")}
                      errors={errors(`ex${row}NoteZh`)}
                      inputProps={{
                        name: `ex${row}NoteZh`,
                        type: "text",
                        defaultValue: values(`ex${row}NoteZh`),
                        maxLength: LIMITS.note,
                        lang: "zh-TW",
                      }}
                    />
                    <Field
                      label={t("console.stores.ex.noteEn")}
                      errors={errors(`ex${row}NoteEn`)}
                      inputProps={{
                        name: `ex${row}NoteEn`,
                        type: "text",
                        defaultValue: values(`ex${row}NoteEn`),
                        maxLength: LIMITS.note,
                        lang: "en",
                      }}
                    />
                    {isNew ? null : (
                      <div className="lg:pt-8">
                        <CheckboxField
                          name={`ex${row}Remove`}
                          label={t("console.stores.ex.remove")}
                          defaultChecked={values(`ex${row}Remove`) === "on"}
                        />
                      </div>
                    )}
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ol>
      </DetailSection>

      <DetailSection id="store-services" title={t("console.stores.section.services")}>
        <fieldset>
          <legend className="sr-only">{t("console.stores.field.services")}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {props.allServices.map((s) => (
              <CheckboxField
                key={s}
                name="services"
                value={s}
                label={t(`console.stores.service.${s}` as MessageKey)}
                defaultChecked={props.services.includes(s)}
              />
            ))}
          </div>
          <ErrorList errors={errors("services")} />
        </fieldset>
      </DetailSection>

      {props.photos ? (
        <DetailSection
          id="store-photos"
          title={t("console.stores.section.photos")}
          lead={t("console.stores.photos.lead")}
        >
          {props.photos}
        </DetailSection>
      ) : null}
    </div>
  );
}
