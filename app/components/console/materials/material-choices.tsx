import { DetailSection } from "~/components/console/detail-section";
import { ErrorList } from "~/components/ui/field";
import { useConsoleT } from "../use-console-t";
import { CheckField, type FormFields } from "./editor-fields";
import type { Choice } from "./material-sections";

/** The material editor's lists of boxes to tick: the stores that display it, and the related materials. */

/** Boxes to tick (`name` repeated, one per id), in a grid, with the list's one message below. */
function ChoiceList({
  fields,
  name,
  choices,
  testId,
  className = "min-h-11",
}: {
  fields: FormFields;
  name: "stores" | "related" | "samples";
  choices: (Choice & { note?: string })[];
  testId?: string;
  className?: string;
}) {
  const chosen = new Set(fields.value(name).split(",").filter(Boolean));
  const invalid = Boolean(fields.errors(name));
  return (
    <ul className="grid gap-x-4 gap-y-1 sm:grid-cols-2 lg:grid-cols-3" data-testid={testId}>
      {choices.map((c) => (
        <li key={c.id}>
          <CheckField
            name={name}
            value={c.id}
            checked={chosen.has(c.id)}
            invalid={invalid}
            errorId={`${name}-error`}
            className={className}
            label={
              <span>
                {c.name}
                {c.note ? <span className="text-muted"> {c.note}</span> : null}
              </span>
            }
          />
        </li>
      ))}
    </ul>
  );
}

export function StoresSection({ fields, stores }: { fields: FormFields; stores: (Choice & { published: boolean })[] }) {
  const t = useConsoleT();
  const note = t("console.materials.stores.unpublished");
  return (
    <DetailSection
      as="fieldset"
      title={t("console.materials.section.stores")}
      lead={t("console.materials.stores.hint")}
    >
      <ChoiceList
        fields={fields}
        name="stores"
        testId="store-choices"
        choices={stores.map((s) => ({ ...s, note: s.published ? undefined : note }))}
      />
      <ErrorList id="stores-error" errors={fields.errors("stores")} />
      {/* Samples to lend (issue 37 part 3, ADR 046): a box per store, among those displaying it. */}
      <fieldset className="mt-6">
        <legend className="font-medium">{t("console.materials.samples.title")}</legend>
        <p className="text-sm text-muted">{t("console.materials.samples.hint")}</p>
        <div className="mt-2">
          <ChoiceList
            fields={fields}
            name="samples"
            testId="sample-store-choices"
            choices={stores.map((s) => ({
              ...s,
              name: t("console.materials.samples.choice", { store: s.name }),
              note: s.published ? undefined : note,
            }))}
          />
        </div>
        <ErrorList id="samples-error" errors={fields.errors("samples")} />
      </fieldset>
    </DetailSection>
  );
}

export function RelatedSection({
  fields,
  categories,
  materials,
}: {
  fields: FormFields;
  categories: Choice[];
  materials: (Choice & { categoryId: string })[];
}) {
  const t = useConsoleT();
  return (
    <DetailSection
      as="fieldset"
      title={t("console.materials.section.related")}
      lead={t("console.materials.related.hint")}
    >
      {categories.map((c) => {
        const inCategory = materials.filter((m) => m.categoryId === c.id);
        return inCategory.length === 0 ? null : (
          <fieldset key={c.id}>
            <legend className="text-sm font-medium">{c.name}</legend>
            <div className="mt-1">
              <ChoiceList fields={fields} name="related" choices={inCategory} className="min-h-10" />
            </div>
          </fieldset>
        );
      })}
      <ErrorList id="related-error" errors={fields.errors("related")} />
    </DetailSection>
  );
}
