import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FirebaseUploadForm } from "~/components/console/imports/upload-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { checkRun, stageFirebase } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/firebase";
import { firebaseSchema } from "./forms.server";
import { fileFailure, readHashConfig, staffRunActor } from "./imports.server";
import { IMPORT_MAX_FILE_BYTES, namedStream, type ReadTracker, readUploadForm, smallFileText } from "./upload.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.import.firebase.title");

const COMMAND = "npm run import:firebase";
const FILES = ["users", "members", "hashConfig"] as const;

/** Import from the original system (admins, `member.import`): the Firebase export's files, then the dry run. */
export function loader({ context }: Route.LoaderArgs) {
  requirePermission(context, "member.import");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  requirePermission(context, "member.import");
  const app = getApp(context);
  const t = serverT(request);
  const fix = t("console.import.error.fix");
  const upload = await readUploadForm(request, FILES);
  if (!upload.ok) {
    const message = t("console.import.error.tooLarge", { command: COMMAND });
    return formFailure({ errors: { [upload.field]: [message] }, values: {}, formError: fix }, 413);
  }
  const { form } = upload;
  const refuse = (field: string, message: string, status = 400) =>
    formFailure({ errors: { [field]: [message] }, values: formValues(form), formError: fix }, status);
  const parsed = parseForm(firebaseSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: fix });
  const tracker: ReadTracker = { last: null };
  const users = namedStream(form, "users", tracker);
  const members = namedStream(form, "members", tracker);
  if (!users) return refuse("users", t("console.import.error.fileRequired"));
  if (!members) return refuse("members", t("console.import.error.fileRequired"));
  const hashText = await smallFileText(form, "hashConfig");
  const hashConfig = hashText === null ? undefined : readHashConfig(hashText);
  if (hashConfig === null) {
    return refuse("hashConfig", t("console.import.error.file.hash_config_invalid"));
  }
  const { sampleIdentifier, samplePassword, welcome, evaluateTiers } = parsed.data;
  let runId: string;
  try {
    const run = await stageFirebase(app.db, {
      users,
      members,
      hashConfig,
      samplePassword: sampleIdentifier ? { identifier: sampleIdentifier, password: samplePassword } : undefined,
      options: { welcome, evaluateTiers },
      actor: staffRunActor(context, request),
      maxBytes: IMPORT_MAX_FILE_BYTES,
    });
    runId = run.id;
  } catch (error) {
    const failure = fileFailure(error, t, tracker.last ?? "members", COMMAND);
    if (!failure) throw error;
    return refuse(failure.field, failure.message, failure.status);
  }
  await checkRun(app.db, runId, requestNow(request, app.config));
  return redirect(`/admin/imports/${runId}`);
}

export default function FirebaseImport() {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <ConsolePage
      width="4xl"
      back={{ to: "/admin/imports", label: t("console.import.back") }}
      title={t("console.import.firebase.title")}
      lead={t("console.import.firebase.lead")}
      titleTestId="import-firebase-title"
      notices={form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
    >
      <FirebaseUploadForm form={form} />
    </ConsolePage>
  );
}
