import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import type { useFormState } from "~/lib/use-form-state";
import { CopyField } from "../copy-field";
import { DetailSection } from "../detail-section";
import { StepUpField } from "../step-up-field";
import { useConsoleT } from "../use-console-t";

/** The key just created: its secret, shown this once. */
export function CreatedSecret({ name, secret }: { name: string; secret: string }) {
  const t = useConsoleT();
  return (
    <section className="mt-6 space-y-3 rounded-2xl border border-success-700/30 bg-white p-5" data-testid="key-created">
      <Alert tone="success" title={t("console.keys.createdTitle", { name })}>
        {t("console.keys.createdBody")}
      </Alert>
      <CopyField
        id="key-secret"
        label={t("console.keys.secret")}
        value={secret}
        copyLabel={t("console.keys.copy")}
        testId="key-secret"
      />
    </section>
  );
}

/** A new key: its store and name; the code when the server asks for it. Emptied once a key was created. */
export function NewKeyForm({
  form,
  stores,
  stepUp,
  createdSecret,
}: {
  /** The page's form state (the last answer). */
  form: ReturnType<typeof useFormState>;
  stores: { id: string; name: string }[];
  stepUp: boolean;
  createdSecret: string | null;
}) {
  const t = useConsoleT();
  const pending = useNavigation().state === "submitting";
  return (
    <DetailSection id="new-key-title" title={t("console.keys.new")} className="mt-6">
      <Form method="post" className="grid gap-4 sm:grid-cols-2" key={createdSecret ?? "form"}>
        <input type="hidden" name="intent" value="create" />
        <NativeSelectField
          label={t("console.audit.store")}
          errors={form.errors("storeId")}
          selectProps={{ name: "storeId", required: true, defaultValue: form.value("storeId") }}
        >
          <option value="">{t("console.store.choose")}</option>
          {stores.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </NativeSelectField>
        <Field
          label={t("console.keys.name")}
          description={t("console.keys.nameHint")}
          errors={form.errors("name")}
          inputProps={{ name: "name", required: true, maxLength: 50, defaultValue: form.value("name") }}
        />
        <div className="sm:col-span-2">
          <CheckboxField
            name="einvoiceRead"
            label={t("console.keys.scopes.einvoiceReadHint")}
            defaultChecked={form.value("einvoiceRead") === "on"}
          />
        </div>
        <div className="sm:col-span-2">
          <StepUpField show={stepUp} errors={form.errors("stepUpCode")} />
        </div>
        <div>
          <Button type="submit" pending={pending}>
            {t("console.keys.create")}
          </Button>
        </div>
      </Form>
    </DetailSection>
  );
}
