import { type ReactNode, useEffect, useState } from "react";
import { CheckboxField } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import type { AddressOptions, City } from "~/domain/members/address";
import { useT } from "~/lib/i18n";
import type { useFormState } from "~/lib/use-form-state";
import { EmailField } from "./email-field";

type FormState = ReturnType<typeof useFormState>;
type ProfileTextField =
  | "nameZh"
  | "gender"
  | "birthday"
  | "email"
  | "companyName"
  | "taxIdNumber"
  | "einvoiceCarrier"
  | "city"
  | "district"
  | "street";
/** The stored profile (edit-info); sign-up starts empty. */
export type ProfileDefaults = Partial<Record<ProfileTextField, string>> & {
  marketing?: Partial<Record<"sms" | "email" | "line", boolean>>;
};

/**
 * A titled card of fields. The legend floats inside the card (a legend otherwise sits on the
 * fieldset's border, cutting it), so it reads like the headings of the other account cards.
 */
function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="min-w-0 rounded-3xl border border-line bg-white p-5 sm:p-7">
      <legend className="float-left mb-5 w-full font-serif text-xl font-semibold tracking-wide">{title}</legend>
      <div className="clear-both space-y-5">{children}</div>
    </fieldset>
  );
}

/**
 * The district table, import()ed once after hydration: it is most of this form's weight and only
 * matters when the member picks another city.
 */
let districtTable: Promise<City[]> | null = null;
function loadDistrictTable(): Promise<City[]> {
  districtTable ??= import("~/domain/members/address").then((m) => m.TAIWAN_CITIES);
  return districtTable;
}

/**
 * The member profile fields (sign-up step 3; edit-info reuses them). `address` (from the loader,
 * addressOptions()) renders the city list and the chosen city's districts on the server; the full
 * table arrives in the browser right after hydration.
 */
export function ProfileFields({
  form,
  defaults = {},
  address,
  email,
}: {
  form: FormState;
  defaults?: ProfileDefaults;
  address: AddressOptions;
  /** What edit-info says beside the e-mail field (how a change is verified, an address waiting for its code). */
  email?: { description?: string; notice?: ReactNode };
}) {
  const t = useT();
  const [city, setCity] = useState(form.value("city", defaults.city ?? ""));
  const [table, setTable] = useState<City[] | null>(null);
  useEffect(() => {
    let live = true;
    loadDistrictTable().then(
      (cities) => live && setTable(cities),
      () => {
        // Offline or a stale deployment: the server's list of the chosen city stays.
      },
    );
    return () => {
      live = false;
    };
  }, []);
  const [district, setDistrict] = useState(form.value("district", defaults.district ?? ""));
  const districts = table
    ? (table.find((c) => c.name === city)?.districts ?? [])
    : city === address.city
      ? address.districts
      : // A city the server did not list districts for (a failed submission without JS): keep the
        // submitted district selectable so nothing typed is lost.
        district
        ? [{ name: district, postalCode: "" }]
        : [];
  const gender = form.value("gender", defaults.gender ?? "male");

  return (
    <div className="space-y-6">
      <Section title={t("profile.section.basic")}>
        <Field
          label={t("profile.name.label")}
          errors={form.errors("nameZh")}
          inputProps={{
            name: "nameZh",
            required: true,
            maxLength: 50,
            autoComplete: "name",
            defaultValue: form.value("nameZh", defaults.nameZh ?? ""),
          }}
        />
        <fieldset>
          <legend className="text-sm font-medium">{t("profile.gender.label")}</legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {(["male", "female", "undisclosed"] as const).map((g) => (
              <label
                key={g}
                className="flex min-h-11 cursor-pointer items-center gap-2 rounded-full border border-line bg-white px-4 has-[:checked]:border-ink has-[:checked]:bg-ink has-[:checked]:text-paper has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-700"
              >
                <input type="radio" name="gender" value={g} defaultChecked={gender === g} className="sr-only" />
                {t(`profile.gender.${g}`)}
              </label>
            ))}
          </div>
          {form.errors("gender") ? (
            <p className="mt-1.5 text-sm text-danger-700">{form.errors("gender")?.[0]}</p>
          ) : null}
        </fieldset>
        <Field
          label={t("profile.birthday.label")}
          description={t("profile.birthday.description")}
          errors={form.errors("birthday")}
          inputProps={{
            name: "birthday",
            type: "date",
            min: "1900-01-01",
            autoComplete: "bday",
            defaultValue: form.value("birthday", defaults.birthday ?? ""),
          }}
        />
        <div className="space-y-3">
          <EmailField
            required={false}
            description={email?.description ?? t("profile.email.description")}
            errors={form.errors("email")}
            defaultValue={form.value("email", defaults.email ?? "")}
          />
          {email?.notice}
        </div>
      </Section>

      <Section title={t("profile.section.invoice")}>
        <Field
          label={t("profile.company.label")}
          errors={form.errors("companyName")}
          inputProps={{
            name: "companyName",
            maxLength: 100,
            autoComplete: "organization",
            defaultValue: form.value("companyName", defaults.companyName ?? ""),
          }}
        />
        <Field
          label={t("profile.taxId.label")}
          errors={form.errors("taxIdNumber")}
          inputProps={{
            name: "taxIdNumber",
            inputMode: "numeric",
            pattern: "\\d{8}",
            maxLength: 8,
            defaultValue: form.value("taxIdNumber", defaults.taxIdNumber ?? ""),
          }}
        />
        <Field
          label={t("profile.carrier.label")}
          description={t("profile.carrier.description")}
          errors={form.errors("einvoiceCarrier")}
          inputProps={{
            name: "einvoiceCarrier",
            maxLength: 8,
            autoCapitalize: "characters",
            spellCheck: false,
            defaultValue: form.value("einvoiceCarrier", defaults.einvoiceCarrier ?? ""),
          }}
        />
      </Section>

      <Section title={t("profile.section.address")}>
        <div className="grid gap-5 sm:grid-cols-2">
          <NativeSelectField
            label={t("profile.city.label")}
            errors={form.errors("city")}
            selectProps={{
              name: "city",
              value: city,
              onChange: (e) => {
                setCity(e.currentTarget.value);
                setDistrict("");
              },
              autoComplete: "address-level1",
            }}
          >
            <option value="">{t("profile.city.placeholder")}</option>
            {address.cities.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </NativeSelectField>
          <NativeSelectField
            label={t("profile.district.label")}
            errors={form.errors("district")}
            selectProps={{
              name: "district",
              value: district,
              onChange: (e) => setDistrict(e.currentTarget.value),
              disabled: !city,
              autoComplete: "address-level2",
            }}
          >
            <option value="">{t("profile.district.placeholder")}</option>
            {districts.map((d) => (
              <option key={d.name} value={d.name}>
                {d.postalCode ? `${d.postalCode} ${d.name}` : d.name}
              </option>
            ))}
          </NativeSelectField>
        </div>
        <Field
          label={t("profile.street.label")}
          errors={form.errors("street")}
          inputProps={{
            name: "street",
            maxLength: 200,
            autoComplete: "address-line1",
            defaultValue: form.value("street", defaults.street ?? ""),
          }}
        />
      </Section>

      <Section title={t("profile.section.marketing")}>
        <p className="text-sm text-muted">{t("profile.marketing.description")}</p>
        <div className="flex flex-wrap gap-6">
          <CheckboxField
            name="marketingSms"
            label={t("profile.marketing.sms")}
            defaultChecked={form.checked("marketingSms", defaults.marketing?.sms ?? false)}
          />
          <CheckboxField
            name="marketingEmail"
            label={t("profile.marketing.email")}
            defaultChecked={form.checked("marketingEmail", defaults.marketing?.email ?? false)}
          />
          <CheckboxField
            name="marketingLine"
            label={t("profile.marketing.line")}
            defaultChecked={form.checked("marketingLine", defaults.marketing?.line ?? false)}
          />
        </div>
      </Section>
    </div>
  );
}
