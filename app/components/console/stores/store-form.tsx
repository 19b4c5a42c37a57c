import { STORE_SERVICES } from "@platform/db/schema/catalog";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { useFormState } from "~/lib/use-form-state";
import { StoreFormFields, type StoreFormProps } from "../store-form-fields";

/** What a new store's form starts with: open every day 10:30–21:00, three blank exception rows. */
const NEW_STORE = {
  values: Object.fromEntries([0, 1, 2, 3, 4, 5, 6].map((d) => [`hours${d}`, "10:30–21:00"])),
  services: [],
  exceptionRows: 3,
};

/**
 * The store editor's form, new and edit (ADR 027): the saved content (or a new store's defaults), or after a
 * refused save the values as typed with the messages beside their fields. The edit form posts the version it
 * started from (a save over a newer one is refused) and is drawn again after a conflict with the version now.
 */
export function StoreEditorForm({
  saved = NEW_STORE,
  districts,
  version,
  photos,
  submitLabel,
  showError,
}: {
  /** The saved content as form values (absent: a new store). */
  saved?: { values: Record<string, string>; services: readonly string[]; exceptionRows: number };
  districts: StoreFormProps["districts"];
  /** The version being edited (absent: a new store, which also asks for its id). */
  version?: number;
  photos?: ReactNode;
  submitLabel: string;
  /** The line above the form after a refused save (the editor shows it in its status panel instead). */
  showError?: boolean;
}) {
  const form = useFormState();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && (navigation.formData?.get("intent") ?? "save") === "save";
  const typed = form.state?.values;
  const conflict = (form.state as { conflict?: boolean } | undefined)?.conflict;
  const current = typed?.version ?? String(version);
  return (
    <Form method="post" className="mt-6 space-y-6" key={conflict ? `conflict-${current}` : "form"}>
      {showError && form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
      {version === undefined ? null : (
        <>
          <input type="hidden" name="intent" value="save" />
          <input type="hidden" name="version" value={current} />
        </>
      )}
      <StoreFormFields
        withId={version === undefined}
        values={(field) => (typed ? form.value(field) : (saved.values[field] ?? ""))}
        errors={form.errors}
        services={typed ? form.value("services").split(",").filter(Boolean) : saved.services}
        allServices={STORE_SERVICES}
        districts={districts}
        exceptionRows={
          typed ? Math.max(Object.keys(typed).filter((k) => /^ex\d+Date$/.test(k)).length, 3) : saved.exceptionRows
        }
        photos={photos}
      />
      <Button type="submit" pending={pending}>
        {submitLabel}
      </Button>
    </Form>
  );
}
