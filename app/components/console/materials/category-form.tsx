import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { LIMITS } from "~/domain/materials/editor";
import { useConsoleT } from "../use-console-t";
import { CheckField, type FormFields, LanguagePair, SlugField, TextField, Thumbnail } from "./editor-fields";

/** The category editor's form: the id (new only), names and summary, the picture and its alt texts, shown or not. */
export function CategoryForm({
  fields,
  formError,
  version,
}: {
  fields: FormFields;
  formError: string | null;
  /** The version being edited; null for a new category. */
  version: number | null;
}) {
  const t = useConsoleT();
  const pending = useNavigation().state === "submitting";
  return (
    <Form method="post" className="mt-6 space-y-5 rounded-2xl border border-line bg-white p-5">
      {formError ? <Alert tone="error">{formError}</Alert> : null}
      {version ? (
        <input type="hidden" name="version" value={version} />
      ) : (
        <SlugField fields={fields} label={t("console.materials.field.id")} />
      )}
      <LanguagePair fields={fields} field="name" max={LIMITS.name} />
      <LanguagePair fields={fields} field="summary" max={LIMITS.summary} />
      {/* The image uploader (branch `images`, ADR 028) replaces the path field. */}
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        <Thumbnail src={fields.value("imageSrc")} />
        <TextField
          fields={fields}
          name="imageSrc"
          label={t("console.categories.field.imageSrc")}
          max={LIMITS.imageSrc}
          spellCheck={false}
        />
      </div>
      <LanguagePair fields={fields} field="imageAlt" max={LIMITS.alt} labels="console.categories.field" />
      <CheckField
        name="published"
        label={t("console.categories.field.published")}
        checked={fields.value("published") === "on"}
      />
      <Button type="submit" pending={pending}>
        {t(version ? "console.materials.save" : "console.materials.create")}
      </Button>
    </Form>
  );
}
