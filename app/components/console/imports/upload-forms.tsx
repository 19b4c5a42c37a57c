import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { useFormState } from "~/lib/use-form-state";
import { ConsolePage } from "../console-page";
import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";
import { testId } from "./types";

type FormState = ReturnType<typeof useFormState>;

/** The console's import files are read as they stream; the browser is told the kinds it may pick. */
const JSON_FILES = ".json,.ndjson,.jsonl,application/json,application/x-ndjson";
const CSV_FILES = ".csv,.txt,text/csv,text/plain";

/** 100 MB: a larger file is refused here at once (the page refuses it too), before it is sent. */
const MAX_FILE_BYTES = 100 * 1024 * 1024;

function FileField({
  form,
  name,
  label,
  description,
  accept,
  required,
  command,
}: {
  form: FormState;
  name: string;
  label: string;
  description?: string;
  accept: string;
  required?: boolean;
  /** The command line's import, named in the too-large message. */
  command: string;
}) {
  const t = useConsoleT();
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const errors = [...(form.errors(name) ?? []), ...(tooLarge ? [tooLarge] : [])];
  return (
    <Field
      label={label}
      description={description}
      errors={errors.length ? errors : null}
      inputProps={{
        type: "file",
        name,
        accept,
        required,
        onChange: (event) => {
          const input = event.currentTarget;
          const file = input.files?.[0];
          const message = file && file.size > MAX_FILE_BYTES ? t("console.import.error.tooLarge", { command }) : null;
          input.setCustomValidity(message ?? "");
          setTooLarge(message);
        },
        ...testId(`import-file-${name}`),
        className: "py-2 file:mr-3 file:rounded-full file:border-0 file:bg-sand file:px-3 file:py-1 file:text-sm",
      }}
    />
  );
}

/** The two choices of a run: welcome gift and message (off), tiers evaluated at the end (off). */
export function ImportOptionFields({
  form,
  defaults,
}: {
  form: FormState;
  defaults?: { welcome: boolean; evaluateTiers: boolean };
}) {
  const t = useConsoleT();
  return (
    <DetailSection as="fieldset" title={t("console.import.options")}>
      {(["welcome", "evaluateTiers"] as const).map((option) => (
        <div key={option}>
          <CheckboxField
            name={option}
            label={t(`console.import.option.${option}`)}
            defaultChecked={form.checked(option, defaults?.[option] ?? false)}
            errors={form.errors(option)}
          />
          <p className="ml-9 text-sm text-muted">{t(`console.import.option.${option}Hint`)}</p>
        </div>
      ))}
    </DetailSection>
  );
}

function useSubmitting() {
  const navigation = useNavigation();
  return navigation.state === "submitting";
}

/** The Firebase export's files: the form field, its words (label and `…Hint`), whether it must be chosen. */
const FIREBASE_FILES = [
  { name: "users", label: "users", required: true },
  { name: "members", label: "members", required: true },
  { name: "hashConfig", label: "hash", required: false },
] as const;

/** The Firebase export: users.json, memberList, hash.json, an optional sample sign-in, the options. */
export function FirebaseUploadForm({ form }: { form: FormState }) {
  const t = useConsoleT();
  const submitting = useSubmitting();
  return (
    <Form method="post" encType="multipart/form-data" className="mt-6 space-y-6" data-testid="import-firebase-form">
      <DetailSection as="fieldset" title={t("console.import.firebase.files")}>
        {FIREBASE_FILES.map((file) => (
          <FileField
            key={file.name}
            form={form}
            name={file.name}
            label={t(`console.import.firebase.${file.label}`)}
            description={t(`console.import.firebase.${file.label}Hint`)}
            accept={JSON_FILES}
            command="npm run import:firebase"
            required={file.required}
          />
        ))}
      </DetailSection>
      <DetailSection
        as="fieldset"
        title={t("console.import.firebase.sample")}
        lead={t("console.import.firebase.sampleLead")}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t("console.import.firebase.sampleIdentifier")}
            errors={form.errors("sampleIdentifier")}
            inputProps={{
              name: "sampleIdentifier",
              defaultValue: form.value("sampleIdentifier"),
              autoComplete: "off",
              maxLength: 254,
              ...testId("import-sample-identifier"),
            }}
          />
          <Field
            label={t("console.import.firebase.samplePassword")}
            errors={form.errors("samplePassword")}
            inputProps={{
              name: "samplePassword",
              type: "password",
              autoComplete: "off",
              maxLength: 200,
              ...testId("import-sample-password"),
            }}
          />
        </div>
      </DetailSection>
      <ImportOptionFields form={form} />
      <Button type="submit" pending={submitting} disabled={submitting} data-testid="import-submit">
        {t("console.import.firebase.submit")}
      </Button>
    </Form>
  );
}

export const CSV_ENCODINGS = ["auto", "utf-8", "big5"] as const;

/** A CSV of another CRM: the file, its source label, its encoding. */
export function CsvUploadForm({ form }: { form: FormState }) {
  const t = useConsoleT();
  const submitting = useSubmitting();
  return (
    <Form method="post" encType="multipart/form-data" className="mt-6 space-y-6" data-testid="import-csv-form">
      <DetailSection as="fieldset" title={t("console.import.csv.file")}>
        <FileField
          form={form}
          name="file"
          label={t("console.import.csv.file")}
          description={t("console.import.csv.fileHint")}
          accept={CSV_FILES}
          command="npm run import:csv"
          required
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t("console.import.csv.source")}
            description={t("console.import.csv.sourceHint")}
            errors={form.errors("source")}
            inputProps={{
              name: "source",
              defaultValue: form.value("source"),
              required: true,
              maxLength: 32,
              autoCapitalize: "none",
              spellCheck: false,
              ...testId("import-source"),
            }}
          />
          <NativeSelectField
            label={t("console.import.csv.encoding")}
            errors={form.errors("encoding")}
            selectProps={{
              name: "encoding",
              defaultValue: form.value("encoding", "auto"),
              ...testId("import-encoding"),
            }}
          >
            {CSV_ENCODINGS.map((e) => (
              <option key={e} value={e}>
                {t(`console.import.csv.encoding.${e}`)}
              </option>
            ))}
          </NativeSelectField>
        </div>
      </DetailSection>
      <Button type="submit" pending={submitting} disabled={submitting} data-testid="import-submit">
        {t("console.import.csv.submit")}
      </Button>
    </Form>
  );
}

/** An upload page (CSV or Firebase): its title and lead, the form's error above, the form. */
export function ImportUploadPage({ kind }: { kind: "csv" | "firebase" }) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsolePage
      width="4xl"
      back={{ to: "/admin/imports", label: t("console.import.back") }}
      title={t(`console.import.${kind}.title`)}
      lead={t(`console.import.${kind}.lead`)}
      titleTestId={`import-${kind}-title`}
      notices={form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
    >
      {kind === "csv" ? <CsvUploadForm form={form} /> : <FirebaseUploadForm form={form} />}
    </ConsolePage>
  );
}
