import { data, Form, redirect } from "react-router";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { MappingForm, PreviewTable } from "~/components/console/imports/mapping-form";
import {
  DryRunReport,
  ProblemRowsTable,
  RejectedDownload,
  RunFiles,
  RunProgress,
  RunResult,
} from "~/components/console/imports/run-report";
import { RunStatusBadge } from "~/components/console/imports/run-status";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { cancelRun, checkRun, previewRun, setCsvMapping, startRun } from "~/domain/imports/runs.server";
import { isRefusal } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { staffNames } from "~/domain/staff/names.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { listField, pageHrefs, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/run";
import { mappingSchema } from "./forms.server";
import {
  initialMapping,
  PROBLEM_PAGE_SIZE,
  pageRun,
  previewView,
  problemRows,
  reportView,
  runChoices,
  runView,
  staffRunActor,
} from "./imports.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.import.title");

const QUERY = { page: listField.int(1, 100_000, 1) };
const FINISHED = new Set(["done", "cancelled", "failed", "rejected"]);

/** One import (admins, `member.import`), by its status: mapping, dry run, progress or result. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requirePermission(context, "member.import");
  const db = getApp(context).db;
  const run = await pageRun(db, params.runId);
  const view = runView(run, await staffNames(db, [run.createdBy]));
  const choices = runChoices(run);
  const parsed = parseListQuery(new URL(request.url), QUERY);
  const mapping =
    run.status === "staged" && run.kind === "csv"
      ? { headers: choices.headers, mapping: choices.mapping ?? initialMapping(choices.headers) }
      : null;
  const preview = mapping ? previewView(await previewRun(db, run.id, 10)) : null;
  const listed = run.status === "checked" ? "problems" : FINISHED.has(run.status) ? ("rejected" as const) : null;
  const problems = listed ? await problemRows(db, run.id, parsed.values.page, listed) : null;
  const pages = Math.max(1, Math.ceil((problems?.total ?? 0) / PROBLEM_PAGE_SIZE));
  return {
    run: view,
    options: { welcome: choices.welcome, evaluateTiers: choices.evaluateTiers },
    mapping,
    preview,
    report: run.status === "checked" ? reportView(run.report) : null,
    problems,
    page: parsed.values.page,
    pages,
    ...pageHrefs(`/admin/imports/${run.id}`, QUERY, parsed, parsed.values.page, pages),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requirePermission(context, "member.import");
  const app = getApp(context);
  const t = serverT(request);
  const run = await pageRun(app.db, params.runId);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const here = `/admin/imports/${run.id}`;
  try {
    if (intent === "check" || intent === "preview") {
      if (run.kind === "csv" && run.status === "staged") {
        const parsed = parseForm(mappingSchema(t, runChoices(run).headers), form);
        if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.import.error.fix") });
        await setCsvMapping(app.db, run.id, parsed.data.mapping, parsed.data.options);
        if (parsed.data.intent === "preview") return redirect(here);
      }
      await checkRun(app.db, run.id, requestNow(request, app.config));
      return redirect(here);
    }
    if (intent === "start") {
      await startRun(app.db, app.jobs, run.id, staffRunActor(context, request));
      return redirect(here);
    }
    if (intent === "cancel" || intent === "discard") {
      await cancelRun(app.db, run.id, staffRunActor(context, request));
      return redirect(intent === "discard" ? "/admin/imports" : here);
    }
    throw data(null, { status: 400 });
  } catch (error) {
    if (!isRefusal(error, "imports")) throw error;
    const busy = error.code === "import_busy";
    return data(
      {
        ok: false as const,
        busy,
        errors: {},
        values: {},
        formError: busy ? t("console.import.busy") : t(error.messageKey),
      },
      { status: error.status },
    );
  }
}

export default function ImportRun({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const { run } = loaderData;
  const paging = {
    kind: "pages" as const,
    pages: loaderData.pages,
    label: t("console.import.problems.pagination"),
    status: t("console.import.page", { page: loaderData.page, pages: loaderData.pages }),
    prevHref: loaderData.prevHref,
    nextHref: loaderData.nextHref,
    prevLabel: t("console.import.prev"),
    nextLabel: t("console.import.next"),
  };
  const finished = FINISHED.has(run.status);
  return (
    <ConsolePage
      width="6xl"
      back={{ to: "/admin/imports", label: t("console.import.back") }}
      title={t("console.import.run.title", {
        source:
          run.kind === "firebase"
            ? t("console.import.kind.firebase")
            : `${t("console.import.kind.csv")} · ${run.source}`,
      })}
      titleTestId="import-run-title"
      testId="import-run"
      badges={<RunStatusBadge status={run.status} />}
      lead={t("console.import.run.created", {
        time: formatTaipei(run.createdAt, locale, "dateTime"),
        who: run.createdBy ? (run.who ?? t("console.import.unknownStaff")) : t("console.import.cli"),
      })}
      notices={
        form.formError ? (
          <Alert tone="error" className={form.state && "busy" in form.state ? "import-busy" : undefined}>
            <span data-testid="import-form-error">{form.formError}</span>
          </Alert>
        ) : null
      }
    >
      <RunFiles run={run} />
      {loaderData.mapping ? (
        <>
          <MappingForm
            form={form}
            headers={loaderData.mapping.headers}
            mapping={loaderData.mapping.mapping}
            options={loaderData.options}
          />
          {loaderData.preview ? <PreviewTable rows={loaderData.preview} /> : null}
        </>
      ) : null}
      {run.status === "staged" && run.kind !== "csv" ? (
        <Form method="post" className="mt-6">
          <Button type="submit" name="intent" value="check" data-testid="import-check">
            {t("console.import.mapping.submit")}
          </Button>
        </Form>
      ) : null}
      {loaderData.report ? <DryRunReport report={loaderData.report} showPassword={run.kind === "firebase"} /> : null}
      {run.status === "checked" ? (
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="start" data-testid="import-start">
            {t("console.import.start")}
          </Button>
          <Button type="submit" name="intent" value="discard" variant="secondary" data-testid="import-discard">
            {t("console.import.discard")}
          </Button>
        </Form>
      ) : null}
      {run.status === "queued" || run.status === "running" ? <RunProgress run={run} /> : null}
      {finished ? <RunResult run={run} /> : null}
      {loaderData.problems ? (
        <ProblemRowsTable
          rows={loaderData.problems.rows}
          total={loaderData.problems.total}
          paging={paging}
          title={finished ? "console.import.rejected.title" : "console.import.problems.title"}
          empty={finished ? "console.import.rejected.empty" : "console.import.problems.empty"}
          action={finished && loaderData.problems.total > 0 ? <RejectedDownload runId={run.id} /> : undefined}
        />
      ) : null}
    </ConsolePage>
  );
}
