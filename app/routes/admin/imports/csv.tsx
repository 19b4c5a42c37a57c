import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { CsvUploadForm } from "~/components/console/imports/upload-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { setCsvMapping, stageCsv } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { formFailure, formValues, parseForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/csv";
import { csvSchema } from "./forms.server";
import { fileFailure, initialMapping, staffRunActor } from "./imports.server";
import { IMPORT_MAX_FILE_BYTES, namedStream, readUploadForm } from "./upload.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.import.csv.title");

const COMMAND = "npm run import:csv";

/** A CSV of another CRM (admins, `member.import`): the file read into the run, then the mapping step. */
export function loader({ context }: Route.LoaderArgs) {
  requirePermission(context, "member.import");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requirePermission(context, "member.import");
  const app = getApp(context);
  const t = serverT(request);
  const fix = t("console.import.error.fix");
  const upload = await readUploadForm(request, ["file"]);
  if (!upload.ok) {
    const message = t("console.import.error.tooLarge", { command: COMMAND });
    return formFailure({ errors: { file: [message] }, values: {}, formError: fix }, 413);
  }
  const { form } = upload;
  const parsed = parseForm(csvSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: fix });
  const refuse = (field: string, message: string, status = 400) =>
    formFailure({ errors: { [field]: [message] }, values: formValues(form), formError: fix }, status);
  const file = namedStream(form, "file");
  if (!file) return refuse("file", t("console.import.error.fileRequired"));
  const { source, encoding } = parsed.data;
  try {
    const run = await stageCsv(app.db, {
      source,
      file,
      encoding: encoding === "auto" ? undefined : encoding,
      maxBytes: IMPORT_MAX_FILE_BYTES,
      actor: staffRunActor(context, request),
    });
    // The guess is the mapping until the admin changes it, so the mapping step shows a preview at once.
    await setCsvMapping(app.db, run.id, initialMapping(run.headers), { welcome: false, evaluateTiers: false });
    return redirect(`/admin/imports/${run.id}`);
  } catch (error) {
    const failure = fileFailure(error, t, "file", COMMAND);
    if (!failure) throw error;
    return refuse(failure.field, failure.message, failure.status);
  }
}

export default function CsvImport() {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsolePage
      width="4xl"
      back={{ to: "/admin/imports", label: t("console.import.back") }}
      title={t("console.import.csv.title")}
      lead={t("console.import.csv.lead")}
      titleTestId="import-csv-title"
      notices={form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
    >
      <CsvUploadForm form={form} />
    </ConsolePage>
  );
}
