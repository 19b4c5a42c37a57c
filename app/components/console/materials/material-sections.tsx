import { DetailSection, TextArea } from "~/components/console/detail-section";
import { NativeSelectField } from "~/components/ui/native-select";
import { LIMITS } from "~/domain/materials/editor";
import type { MessageKey } from "~/lib/i18n";
import { useConsoleT } from "../use-console-t";
import { CheckField, type FormFields, LanguagePair, SlugField, TextField, Thumbnail } from "./editor-fields";

/**
 * The material editor's sections (app/routes/admin/materials/edit.tsx), in the order of the public page. Repeated
 * rows (specifications, images) are numbered fields (`spec0LabelZh`, `image1Src`): the editor offers the rows
 * filled plus a few spare ones, so no client script is needed to add one.
 */

export type Choice = { id: string; name: string };

/** Text in both languages as one textarea each, side by side. */
function TextAreaPair({ fields, field, max, rows }: { fields: FormFields; field: string; max: number; rows?: number }) {
  const t = useConsoleT();
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {(["Zh", "En"] as const).map((lang) => (
        <TextArea
          key={lang}
          label={t(`console.materials.field.${field}${lang}` as MessageKey)}
          name={`${field}${lang}`}
          value={fields.value(`${field}${lang}`)}
          errors={fields.errors(`${field}${lang}`)}
          max={max}
          rows={rows}
        />
      ))}
    </div>
  );
}

export function BasicsSection({
  fields,
  isNew,
  categories,
}: {
  fields: FormFields;
  isNew: boolean;
  categories: Choice[];
}) {
  const t = useConsoleT();
  return (
    <DetailSection as="fieldset" title={t("console.materials.section.basics")}>
      <div className="grid gap-4 sm:grid-cols-2">
        {isNew ? (
          <SlugField
            fields={fields}
            label={t("console.materials.field.id")}
            description={t("console.materials.field.idHint")}
          />
        ) : null}
        <NativeSelectField
          label={t("console.materials.field.category")}
          errors={fields.errors("categoryId")}
          selectProps={{ name: "categoryId", required: true, defaultValue: fields.value("categoryId") }}
        >
          <option value="">{t("console.materials.field.choose")}</option>
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </NativeSelectField>
      </div>
      <LanguagePair fields={fields} field="name" max={LIMITS.name} />
      <LanguagePair fields={fields} field="series" max={LIMITS.series} />
      <TextAreaPair fields={fields} field="summary" max={LIMITS.summary} />
      <CheckField
        name="featured"
        label={t("console.materials.field.featured")}
        checked={fields.value("featured") === "on"}
      />
    </DetailSection>
  );
}

export function LookSection({ fields }: { fields: FormFields }) {
  const t = useConsoleT();
  return (
    <DetailSection as="fieldset" title={t("console.materials.section.look")}>
      <TextArea
        label={t("console.materials.field.sizes")}
        description={t("console.materials.field.sizesHint")}
        name="sizes"
        value={fields.value("sizes")}
        errors={fields.errors("sizes")}
        max={LIMITS.sizes * (LIMITS.size + 2)}
        required={false}
      />
      <LanguagePair fields={fields} field="finish" max={LIMITS.short} />
      <LanguagePair fields={fields} field="colour" max={LIMITS.short} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          fields={fields}
          name="swatch"
          label={t("console.materials.field.swatch")}
          description={t("console.materials.field.swatchHint")}
          max={7}
          pattern="#[0-9a-fA-F]{6}"
          spellCheck={false}
        />
      </div>
      <LanguagePair fields={fields} field="origin" max={LIMITS.short} />
    </DetailSection>
  );
}

/** 0…n-1: the numbers of a form's rows (their field names are `spec0…`, so the number is the row's identity). */
const rowNumbers = (n: number) => [...Array(n).keys()];

/** A hidden field that carries a stored value the editor does not show (a specification's key, a picture's size). */
function Kept({ fields, name }: { fields: FormFields; name: string }) {
  const value = fields.value(name);
  return value ? <input type="hidden" name={name} value={value} /> : null;
}

const SPEC_CELLS = ["LabelZh", "LabelEn", "ValueZh", "ValueEn"] as const;

export function SpecsSection({ fields, rows }: { fields: FormFields; rows: number }) {
  const t = useConsoleT();
  return (
    <DetailSection as="fieldset" title={t("console.materials.section.specs")} lead={t("console.materials.specs.hint")}>
      {rowNumbers(rows).map((i) => (
        <fieldset key={`spec${i}`} className="rounded-xl border border-line/70 p-4" data-testid="spec-row">
          <legend className="px-1 text-sm font-medium text-muted">
            {t("console.materials.specs.row", { n: i + 1 })}
          </legend>
          <Kept fields={fields} name={`spec${i}Key`} />
          <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
            {SPEC_CELLS.map((cell) => (
              <TextField
                key={cell}
                fields={fields}
                name={`spec${i}${cell}`}
                label={t(`console.materials.specs.${cell[0]?.toLowerCase()}${cell.slice(1)}` as MessageKey)}
                max={cell.startsWith("Label") ? LIMITS.specLabel : LIMITS.specValue}
                required={false}
              />
            ))}
          </div>
        </fieldset>
      ))}
    </DetailSection>
  );
}

export function CareSection({ fields }: { fields: FormFields }) {
  const t = useConsoleT();
  return (
    <DetailSection as="fieldset" title={t("console.materials.section.care")}>
      <TextAreaPair fields={fields} field="care" max={LIMITS.care} rows={4} />
    </DetailSection>
  );
}

/* The image uploader (branch `images`, ADR 028) replaces the path field of each row. */
export function ImagesSection({ fields, rows }: { fields: FormFields; rows: number }) {
  const t = useConsoleT();
  return (
    <DetailSection
      as="fieldset"
      title={t("console.materials.section.images")}
      lead={t("console.materials.images.hint")}
    >
      {rowNumbers(rows).map((i) => (
        <fieldset
          key={`image${i}`}
          className="grid gap-4 rounded-xl border border-line/70 p-4 sm:grid-cols-[8rem_1fr]"
          data-testid="image-row"
        >
          <legend className="px-1 text-sm font-medium text-muted">
            {t("console.materials.images.row", { n: i + 1 })}
          </legend>
          <Thumbnail src={fields.value(`image${i}Src`)} lazy />
          <div className="grid gap-3">
            <TextField
              fields={fields}
              name={`image${i}Src`}
              label={t("console.materials.images.src")}
              max={LIMITS.imageSrc}
              required={false}
              spellCheck={false}
            />
            <div className="grid gap-3 sm:grid-cols-2">
              {(["AltZh", "AltEn"] as const).map((cell) => (
                <TextField
                  key={cell}
                  fields={fields}
                  name={`image${i}${cell}`}
                  label={t(cell === "AltZh" ? "console.materials.images.altZh" : "console.materials.images.altEn")}
                  max={LIMITS.alt}
                  required={false}
                />
              ))}
            </div>
            {fields.value(`image${i}Width`) ? (
              <>
                <Kept fields={fields} name={`image${i}Width`} />
                <Kept fields={fields} name={`image${i}Height`} />
              </>
            ) : null}
          </div>
        </fieldset>
      ))}
    </DetailSection>
  );
}
