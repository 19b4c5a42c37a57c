import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { rowCount, SPARE_IMAGE_ROWS, SPARE_SPEC_ROWS } from "~/domain/materials/editor";
import { useConsoleT } from "../use-console-t";
import type { FormFields } from "./editor-fields";
import { RelatedSection, StoresSection } from "./material-choices";
import { BasicsSection, CareSection, type Choice, ImagesSection, LookSection, SpecsSection } from "./material-sections";

/**
 * The material editor's form: its sections, the buttons (save or create, save and publish, preview) in a bar that
 * stays in view, and for a published material the separate form that takes it off the site. `rowValues` are the
 * values whose numbered rows the form shows (the saved ones and those of a refused save), plus spare rows.
 */
export function MaterialForm({
  material,
  fields,
  formError,
  rowValues,
  categories,
  stores,
  materials,
}: {
  material: { version: number; published: boolean } | null;
  fields: FormFields;
  formError: string | null;
  rowValues: Record<string, string>;
  categories: Choice[];
  stores: (Choice & { published: boolean })[];
  materials: (Choice & { categoryId: string })[];
}) {
  const t = useConsoleT();
  const navigation = useNavigation();
  const pending = (intent: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const intent = (value: string, label: string, variant?: "secondary" | "ghost") => (
    <Button type="submit" name="intent" value={value} variant={variant} pending={pending(value)}>
      {label}
    </Button>
  );
  return (
    <>
      <Form method="post" className="mt-6 space-y-6">
        {formError ? (
          <Alert tone="error">
            <span data-testid="form-error">{formError}</span>
          </Alert>
        ) : null}
        {material ? <input type="hidden" name="version" value={material.version} /> : null}
        <BasicsSection fields={fields} isNew={!material} categories={categories} />
        <LookSection fields={fields} />
        <SpecsSection fields={fields} rows={rowCount(rowValues, "spec") + SPARE_SPEC_ROWS} />
        <CareSection fields={fields} />
        <ImagesSection fields={fields} rows={rowCount(rowValues, "image") + SPARE_IMAGE_ROWS} />
        <StoresSection fields={fields} stores={stores} />
        <RelatedSection fields={fields} categories={categories} materials={materials} />
        <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap gap-3 border-t border-line bg-paper/95 px-4 py-4 sm:mx-0 sm:rounded-2xl sm:border">
          {intent("save", t(material ? "console.materials.save" : "console.materials.create"))}
          {material && !material.published
            ? intent("publish", t("console.materials.saveAndPublish"), "secondary")
            : null}
          {intent("preview", t("console.materials.preview"), "ghost")}
        </div>
      </Form>
      {material?.published ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="version" value={material.version} />
          {intent("unpublish", t("console.materials.unpublish"), "ghost")}
        </Form>
      ) : null}
    </>
  );
}
