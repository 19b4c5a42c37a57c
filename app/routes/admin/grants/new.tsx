import { Form, redirect } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { DetailSection } from "~/components/console/detail-section";
import { GrantPageFrame } from "~/components/console/grants/grant-page";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { MAX_GRANT_POINTS, MAX_GRANT_REASON, parseGrantPoints } from "~/domain/imports/grant-limits";
import { stageGrantCsv, stageGrantFilter } from "~/domain/imports/grants.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import { memberFilters } from "../members/filters.server";
import type { Route } from "./+types/new";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.grants.newTitle");

type T = ReturnType<typeof serverT>;

/** The member list's filters this page was opened with (`?source=members&…`), as the list reads them. */
async function filtersOf(request: Request, context: Route.LoaderArgs["context"]) {
  const actor = requirePermission(context, "points.bulk");
  const url = new URL(request.url);
  if (url.searchParams.get("source") !== "members") return { actor, members: null };
  const stores = await storeChoicesFor(getApp(context).db, actor, getLocale(request));
  const read = memberFilters(url, serverT(request), stores);
  const query = new URLSearchParams(url.searchParams);
  query.delete("source");
  query.delete("after");
  const storeName = (id: string) => stores.find((s) => s.id === id)?.name ?? id;
  const shown = Object.entries(read.filters)
    .filter(([, v]) => Boolean(v))
    .map(([name, value]) => ({ name, value: name === "store" ? storeName(String(value)) : String(value) }));
  return { actor, members: { ...read, query: query.toString(), shown } };
}

/** A new bulk grant (`points.bulk`): a CSV, or the members of the member list's filter; the dry run follows. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { members } = await filtersOf(request, context);
  return {
    members: members
      ? { shown: members.shown, valid: members.valid, listHref: `/admin/members?${members.query}` }
      : null,
  };
}

function reasonSchema(t: T) {
  return z
    .string()
    .default("")
    .transform((v) => v.trim())
    .pipe(z.string().min(1, t("console.grants.error.reason")).max(MAX_GRANT_REASON, t("console.grants.error.reason")));
}

/** The "notify the members" checkbox: off unless ticked. */
const notifySchema = z
  .string()
  .default("")
  .transform((v) => v === "on");

function csvSchema(t: T) {
  return z.object({ reason: reasonSchema(t), notify: notifySchema });
}

function filterSchema(t: T) {
  return z.object({
    reason: reasonSchema(t),
    notify: notifySchema,
    points: z
      .string()
      .default("")
      .transform((v, ctx) => {
        const points = parseGrantPoints(v);
        if (points === null) {
          ctx.addIssue({ code: "custom", message: t("console.grants.error.points") });
          return z.NEVER;
        }
        return points;
      }),
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const t = serverT(request);
  const { actor, members } = await filtersOf(request, context);
  // The server refuses a body much larger than the file limit before it is read (server/app.ts); a file a
  // little over the limit is refused here, beside the field (the domain's file_too_large).
  const form = await readForm(request);
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  try {
    if (form.get("intent") === "filter") {
      if (!members?.valid)
        return formFailure({ errors: {}, values: formValues(form), formError: t("console.grants.error.intent") });
      const parsed = parseForm(filterSchema(t), form);
      if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.grants.error.fix") });
      const run = await stageGrantFilter(
        app.db,
        actor,
        {
          search: members.search,
          filter: members.query,
          points: parsed.data.points,
          reason: parsed.data.reason,
          notify: parsed.data.notify,
          starter: audit,
        },
        now,
      );
      return redirect(`/admin/grants/${run.id}`);
    }
    const parsed = parseForm(csvSchema(t), form);
    const file = form.get("file");
    const hasFile = file instanceof File && file.size > 0;
    if (!parsed.ok || !hasFile) {
      const errors = parsed.ok ? {} : parsed.failure.errors;
      if (!hasFile) errors.file = [t("console.grants.error.file")];
      return formFailure({ errors, values: formValues(form), formError: t("console.grants.error.fix") });
    }
    const run = await stageGrantCsv(
      app.db,
      actor,
      {
        name: file.name,
        bytes: new Uint8Array(await file.arrayBuffer()),
        reason: parsed.data.reason,
        notify: parsed.data.notify,
        starter: audit,
      },
      now,
    );
    return redirect(`/admin/grants/${run.id}`);
  } catch (error) {
    return consoleFailure(error, form, t);
  }
}

const FILTER_LABELS: Record<string, string> = {
  q: "console.members.search",
  tier: "console.members.tier",
  status: "console.staff.status",
  line: "console.members.line",
  from: "console.members.signedUpFrom",
  to: "console.members.signedUpTo",
  store: "console.members.lastStore",
};

export default function NewGrant({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const { members } = loaderData;
  // Two forms on one page: a refused post shows its messages and values in its own form only.
  const sent = form.value("intent");
  const reasonField = (intent: "csv" | "filter") => (
    <Field
      label={t("console.grants.reason")}
      description={t("console.grants.reasonHint")}
      errors={sent === intent ? form.errors("reason") : null}
      inputProps={{
        name: "reason",
        required: true,
        maxLength: MAX_GRANT_REASON,
        defaultValue: sent === intent ? form.value("reason") : "",
      }}
    />
  );
  const notifyField = (intent: "csv" | "filter") => (
    <div>
      <CheckboxField
        name="notify"
        label={t("console.grants.notify")}
        defaultChecked={sent === intent ? form.checked("notify") : false}
      />
      <p className="ml-9 text-sm text-muted">{t("console.grants.notifyHint")}</p>
    </div>
  );
  return (
    <GrantPageFrame
      width="4xl"
      title={t("console.grants.newTitle")}
      notices={form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
    >
      {members ? (
        <DetailSection
          title={t("console.grants.filterTitle")}
          lead={t("console.grants.filterLead")}
          testId="grant-filter"
        >
          <ul className="text-sm" data-testid="grant-filter-summary">
            {members.shown.length === 0 ? <li>{t("console.grants.filterAll")}</li> : null}
            {members.shown.map((f) => (
              <li key={f.name}>
                {t((FILTER_LABELS[f.name] ?? "console.members.search") as "console.members.search")}：{f.value}
              </li>
            ))}
          </ul>
          <Form method="post" className="space-y-4">
            <input type="hidden" name="intent" value="filter" />
            <Field
              label={t("console.grants.points")}
              errors={form.errors("points")}
              inputProps={{
                name: "points",
                inputMode: "numeric",
                required: true,
                maxLength: 9,
                placeholder: `1 – ${MAX_GRANT_POINTS.toLocaleString("en-US")}`,
                defaultValue: form.value("points"),
                className: "max-w-xs",
              }}
            />
            {reasonField("filter")}
            {notifyField("filter")}
            <Button type="submit">{t("console.grants.check")}</Button>
          </Form>
        </DetailSection>
      ) : null}
      <DetailSection title={t("console.grants.csvTitle")} lead={t("console.grants.csvLead")} testId="grant-csv">
        <Form method="post" encType="multipart/form-data" className="space-y-4">
          <input type="hidden" name="intent" value="csv" />
          <Field
            label={t("console.grants.file")}
            errors={form.errors("file")}
            inputProps={{ name: "file", type: "file", accept: ".csv,text/csv", required: true }}
          />
          {reasonField("csv")}
          {notifyField("csv")}
          <Button type="submit">{t("console.grants.check")}</Button>
        </Form>
      </DetailSection>
      {members ? null : (
        <p className="text-sm text-muted">
          {t("console.grants.filterNone")}{" "}
          <Link to="/admin/members" className={buttonVariants({ variant: "secondary", size: "sm" })}>
            {t("console.grants.toMembers")}
          </Link>
        </p>
      )}
    </GrantPageFrame>
  );
}
