import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ImportUploadPage } from "~/components/console/imports/upload-forms";
import { checkRun, stageFirebase } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/firebase";
import { firebaseSchema } from "./forms.server";
import { readHashConfig, staffRunActor } from "./imports.server";
import { IMPORT_MAX_FILE_BYTES, namedStream, type ReadTracker, readImportUpload, smallFileText } from "./upload.server";

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
  const read = await readImportUpload(request, t, { files: FILES, schema: firebaseSchema(t), command: COMMAND });
  if (!read.ok) return read.failure;
  const { form, data, refuse, refuseFile } = read.upload;
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
  const { sampleIdentifier, samplePassword, welcome, evaluateTiers } = data;
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
    return refuseFile(error, tracker.last ?? "members");
  }
  await checkRun(app.db, runId, requestNow(request, app.config));
  return redirect(`/admin/imports/${runId}`);
}

export default function FirebaseImport() {
  return <ImportUploadPage kind="firebase" />;
}
