import { data, Form, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { useConsoleT } from "~/components/console/use-console-t";
import { useVisitWords } from "~/components/console/visits/visit-parts";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { followUps, markFollowUpDone, mayListAllFollowUps } from "~/domain/appointments/visits.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatIsoDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/follow-ups";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.visits.followUps.title");

const FOLLOW_UP_QUERY = { scope: listField.choice(["mine", "all"], "mine") };

const doneSchema = z.object({
  appointmentId: z.string().uuid(),
  version: z.coerce.number().int().min(1).max(1_000_000),
});

/** 今日追蹤 (issue 37, ADR 045): the follow-ups due today or earlier, the consultant's own or (admins) everyone's. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const actor = requirePermission(context, "counter.appointments");
  const app = getApp(context);
  const url = new URL(request.url);
  const { scope } = parseListQuery(url, FOLLOW_UP_QUERY).values;
  const canAll = mayListAllFollowUps(actor);
  const shown = canAll ? scope : "mine";
  return {
    scope: shown,
    canAll,
    rows: await followUps(app.db, actor, shown, requestNow(request, app.config)),
    done: url.searchParams.get("done") === "1",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = requirePermission(context, "counter.appointments");
  const app = getApp(context);
  const form = await readForm(request);
  const parsed = parseForm(doneSchema, form);
  if (!parsed.ok) throw data(null, { status: 400, statusText: "Bad Request" });
  try {
    const { appointmentId, version } = parsed.data;
    const now = requestNow(request, app.config);
    await markFollowUpDone(app.db, actor, appointmentId, version, consoleAudit(context, request), now);
  } catch (error) {
    return consoleFailure(error, null, serverT(request));
  }
  const scope = new URL(request.url).searchParams.get("scope") === "all" ? "&scope=all" : "";
  return redirect(`/admin/appointments/follow-ups?done=1${scope}`);
}

export default function FollowUps({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const words = useVisitWords();
  const form = useFormState();
  const navigation = useNavigation();
  const { rows, scope, canAll } = loaderData;
  return (
    <ConsolePage
      width="6xl"
      back={{ to: "/admin/appointments", label: t("console.visits.back") }}
      title={t("console.visits.followUps.title")}
      lead={t(scope === "all" ? "console.visits.followUps.leadAll" : "console.visits.followUps.lead")}
      notices={
        <>
          {loaderData.done && !form.state ? (
            <Alert tone="success">{t("console.visits.done.followUpDone")}</Alert>
          ) : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </>
      }
    >
      {canAll ? (
        <nav aria-label={t("console.visits.followUps.scope")} className="mt-6 flex gap-4 text-sm">
          {(["mine", "all"] as const).map((s) => (
            <Link
              key={s}
              to={s === "mine" ? "/admin/appointments/follow-ups" : "/admin/appointments/follow-ups?scope=all"}
              aria-current={scope === s ? "page" : undefined}
              className="inline-flex min-h-11 items-center aria-[current=page]:font-semibold"
            >
              {t(`console.visits.followUps.${s}`)}
            </Link>
          ))}
        </nav>
      ) : null}
      <ConsoleList
        empty={t("console.visits.followUps.empty")}
        emptyTestId="follow-ups-empty"
        rows={rows}
        label={t("console.visits.followUps.title")}
        rowKey={(r) => r.id}
        columns={[]}
      >
        {/* Cards, not a table: read and ticked off on a phone between visits. */}
        <ul className="mt-6 space-y-3">
          {rows.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-start justify-between gap-3 rounded-2xl border border-line bg-white p-4"
              data-testid="follow-up-row"
            >
              <div className="min-w-0 space-y-1">
                <p className="text-sm text-muted tabular-nums">
                  {t("console.visits.followUpOn")}：{r.followUpOn ? formatIsoDate(r.followUpOn, locale) : ""}
                </p>
                <p className="font-medium">
                  <RowLink to={`/admin/appointments/${r.id}`}>{words.who(r)}</RowLink>
                </p>
                <p className="text-sm text-muted">
                  {words.kind(r.kind)} · {words.day(r)} · {words.store(r)}
                  {scope === "all"
                    ? ` · ${t("console.visits.consultant")}：${r.consultant?.displayName ?? t("console.visits.noConsultant")}`
                    : ""}
                </p>
                {r.visitNote ? <p className="text-sm break-words whitespace-pre-line">{r.visitNote}</p> : null}
              </div>
              <Form method="post">
                <input type="hidden" name="appointmentId" value={r.id} />
                <input type="hidden" name="version" value={String(r.version)} />
                <Button
                  type="submit"
                  variant="secondary"
                  pending={navigation.state !== "idle" && navigation.formData?.get("appointmentId") === r.id}
                  aria-label={t("console.visits.markFollowUpDoneFor", { name: words.who(r) })}
                >
                  {t("console.visits.markFollowUpDone")}
                </Button>
              </Form>
            </li>
          ))}
        </ul>
      </ConsoleList>
    </ConsolePage>
  );
}
