import { redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ImportUploadPage } from "~/components/console/imports/upload-forms";
import { setCsvMapping, stageCsv } from "~/domain/imports/runs.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/csv";
import { csvSchema } from "./forms.server";
import { initialMapping, staffRunActor } from "./imports.server";
import { IMPORT_MAX_FILE_BYTES, namedStream, readImportUpload } from "./upload.server";

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
  const read = await readImportUpload(request, t, { files: ["file"], schema: csvSchema(t), command: COMMAND });
  if (!read.ok) return read.failure;
  const { form, data, refuse, refuseFile } = read.upload;
  const file = namedStream(form, "file");
  if (!file) return refuse("file", t("console.import.error.fileRequired"));
  const { source, encoding } = data;
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
    return refuseFile(error, "file");
  }
}

export default function CsvImport() {
  return <ImportUploadPage kind="csv" />;
}
