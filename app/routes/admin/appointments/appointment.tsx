import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection, FieldRow, TextArea } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { NeedsCallBadge, useVisitWords, VisitStatusBadge } from "~/components/console/visits/visit-parts";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, FieldShell, inputClass } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { VISIT_NOTE_MAX } from "~/domain/appointments/limits";
import { visitActionSchema } from "~/domain/appointments/visit-forms";
import {
  appointmentFor,
  assignConsultant,
  cancelByStaff,
  consultantsOf,
  markCallDone,
  markFollowUpDone,
  saveVisitNote,
} from "~/domain/appointments/visits.server";
import { isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { parseForm, readForm } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import type { MessageKey } from "~/lib/i18n";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatIsoDate, formatTaipei, taipeiIsoDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/appointment";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.visits.detailTitle");

const DONE: Record<string, MessageKey> = {
  consultant: "console.visits.done.consultant",
  cancel: "console.visits.done.cancel",
  call: "console.visits.done.call",
  note: "console.visits.done.note",
  followUpDone: "console.visits.done.followUpDone",
};

/** One appointment (issue 37, ADR 045): who, when, what; the consultant, a staff cancel, the call, the visit note. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const actor = requirePermission(context, "counter.appointments");
  const app = getApp(context);
  const visit = await appointmentFor(app.db, actor, params.appointmentId);
  if (!visit) notFound(request);
  const done = new URL(request.url).searchParams.get("done") ?? "";
  return {
    visit,
    consultants: await consultantsOf(app.db, actor, visit.storeId),
    today: taipeiIsoDate(requestNow(request, app.config)),
    done: done in DONE ? done : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requirePermission(context, "counter.appointments");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(visitActionSchema(t), form);
  if (!parsed.ok) {
    // A forged intent or version is not something a person typed: a plain 400.
    const fields = Object.keys(parsed.failure.errors);
    if (fields.some((f) => f === "intent" || f === "version"))
      throw data(null, { status: 400, statusText: "Bad Request" });
    return data({ ...parsed.failure, formError: t("console.visits.error.fix") }, { status: 400 });
  }
  const input = parsed.data;
  const id = params.appointmentId;
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  try {
    switch (input.intent) {
      case "consultant":
        await assignConsultant(app.db, actor, id, input.version, input.consultant, audit, now);
        break;
      case "cancel":
        await cancelByStaff(app.db, actor, id, input.version, audit, now);
        break;
      case "call":
        await markCallDone(app.db, actor, id, input.version, audit, now);
        break;
      case "note":
        await saveVisitNote(app.db, actor, id, input.version, input, audit, now);
        break;
      case "followUpDone":
        await markFollowUpDone(app.db, actor, id, input.version, audit, now);
        break;
    }
  } catch (error) {
    // Told, nothing lost: what was typed stays, over the version now saved.
    const current = isVersionConflict(error) ? (error.current as { version: number }) : null;
    return consoleFailure(error, form, t, {
      values: current ? { version: String(current.version) } : undefined,
      answer: { intent: input.intent },
    });
  }
  return redirect(`/admin/appointments/${encodeURIComponent(id)}?done=${input.intent}`);
}

export default function Appointment({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const words = useVisitWords();
  const form = useFormState();
  const navigation = useNavigation();
  const pending = (intent: string) => navigation.state !== "idle" && navigation.formData?.get("intent") === intent;
  const { visit, consultants } = loaderData;
  const answered = (form.state as { intent?: string } | undefined)?.intent;
  const typed = (intent: string, field: string, fallback: string) =>
    answered === intent ? form.value(field, fallback) : fallback;
  const version = (intent: string) => typed(intent, "version", String(visit.version));
  const hidden = (intent: string) => (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="version" value={version(intent)} />
    </>
  );
  const errors = (intent: string, field: string) => (answered === intent ? form.errors(field) : null);
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/appointments", label: t("console.visits.back") }}
      title={`${words.kind(visit.kind)} · ${visit.reference}`}
      titleTestId="visit-title"
      badges={
        <>
          <VisitStatusBadge status={visit.status} />
          {visit.needsCall ? <NeedsCallBadge /> : null}
        </>
      }
      lead={`${words.store(visit)} · ${words.day(visit)} ${words.time(visit)}`}
      notices={
        <>
          {loaderData.done && !form.state ? (
            <Alert tone="success">{t(DONE[loaderData.done] as MessageKey)}</Alert>
          ) : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </>
      }
    >
      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <DetailSection title={t("console.visits.section.booking")} testId="visit-booking">
          <dl>
            <FieldRow label={t("console.visits.col.who")}>
              {visit.memberId ? (
                <Link to={`/admin/members/${visit.memberId}`}>
                  {words.who(visit)}
                  {visit.memberNumber ? ` (${visit.memberNumber})` : ""}
                </Link>
              ) : (
                words.who(visit)
              )}
            </FieldRow>
            <FieldRow label={t("console.visits.materials")}>{words.materials(visit) || "—"}</FieldRow>
            <FieldRow label={t("console.visits.note")}>
              <span className="break-words whitespace-pre-line">{visit.note || "—"}</span>
            </FieldRow>
            {visit.checkedInAt ? (
              <FieldRow label={t("console.visits.checkedInAt")}>
                {formatTaipei(visit.checkedInAt, locale, "dateTime")}
              </FieldRow>
            ) : null}
          </dl>
          <div className="mt-4 flex flex-wrap gap-3">
            {visit.needsCall ? (
              <Form method="post">
                {hidden("call")}
                <Button type="submit" variant="secondary" pending={pending("call")} data-testid="visit-call-done">
                  {t("console.visits.callDone")}
                </Button>
              </Form>
            ) : null}
            {visit.status === "booked" ? (
              <Form method="post">
                {hidden("cancel")}
                <Button type="submit" variant="secondary" pending={pending("cancel")} data-testid="visit-cancel">
                  {t("console.visits.cancel")}
                </Button>
              </Form>
            ) : null}
          </div>
        </DetailSection>

        <DetailSection title={t("console.visits.consultant")} testId="visit-consultant">
          <Form method="post" className="space-y-4">
            {hidden("consultant")}
            <FieldShell label={t("console.visits.consultantPick")} errors={errors("consultant", "consultant")}>
              {({ inputId, describedBy, invalid }) => (
                <select
                  id={inputId}
                  name="consultant"
                  aria-describedby={describedBy}
                  aria-invalid={invalid || undefined}
                  defaultValue={typed("consultant", "consultant", visit.consultant?.userId ?? "")}
                  className={`${inputClass} select-chevron`}
                >
                  <option value="">{t("console.visits.noConsultant")}</option>
                  {consultants.map((c) => (
                    <option key={c.userId} value={c.userId}>
                      {c.displayName}
                    </option>
                  ))}
                </select>
              )}
            </FieldShell>
            <Button type="submit" pending={pending("consultant")} data-testid="visit-consultant-save">
              {t("console.visits.consultantSave")}
            </Button>
          </Form>
        </DetailSection>
      </div>

      <DetailSection title={t("console.visits.section.after")} className="mt-6" testId="visit-after">
        {visit.status === "checked_in" ? (
          <Form method="post" className="space-y-4">
            {hidden("note")}
            <TextArea
              label={t("console.visits.visitNote")}
              name="visitNote"
              value={typed("note", "visitNote", visit.visitNote ?? "")}
              errors={errors("note", "visitNote")}
              max={VISIT_NOTE_MAX}
              rows={4}
              required={false}
            />
            <Field
              label={t("console.visits.followUpOn")}
              description={t("console.visits.followUpHint")}
              errors={errors("note", "followUpOn")}
              inputProps={{
                name: "followUpOn",
                type: "date",
                min: loaderData.today,
                defaultValue: typed("note", "followUpOn", visit.followUpOn ?? ""),
              }}
            />
            <Button type="submit" pending={pending("note")} data-testid="visit-note-save">
              {t("console.visits.noteSave")}
            </Button>
          </Form>
        ) : (
          <p className="text-sm text-muted">{t("console.visits.afterCheckIn")}</p>
        )}
        {visit.followUpOn ? (
          <div
            className="mt-5 flex flex-wrap items-center gap-3 border-t border-line pt-4"
            data-testid="visit-follow-up"
          >
            <span>
              {t("console.visits.followUpOn")}：{formatIsoDate(visit.followUpOn, locale)}
              {visit.followUpDoneAt ? ` · ${t("console.visits.followUpDone")}` : ""}
            </span>
            {visit.followUpDoneAt ? null : (
              <Form method="post">
                {hidden("followUpDone")}
                <Button
                  type="submit"
                  variant="secondary"
                  pending={pending("followUpDone")}
                  data-testid="visit-follow-up-done"
                >
                  {t("console.visits.markFollowUpDone")}
                </Button>
              </Form>
            )}
          </div>
        ) : null}
      </DetailSection>
    </ConsolePage>
  );
}
