import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FieldRow } from "~/components/console/detail-section";
import { StaffAccessFields } from "~/components/console/staff-access-fields";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { setStaffDisabled, updateStaffAccess } from "~/domain/staff/accounts.server";
import {
  liftSecondFactorLock,
  resetSecondFactor,
  staffDetail,
  staffRecentActions,
} from "~/domain/staff/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { staffFormValues } from "../form-answers.server";
import type { Route } from "./+types/member";
import { accessFromForm } from "./staff.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.staff.title");

const DONE = ["access", "disabled", "enabled", "reset", "unlocked"] as const;
type Done = (typeof DONE)[number];
const INTENTS = ["access", "disable", "enable", "reset", "unlock"] as const;

/** One staff member (admins): sign-in, second factor (and its lock), role and stores, disable, reset, recent actions. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "staff.manage");
  const person = await staffDetail(app.db, actor, params.userId, requestNow(request, app.config));
  if (!person) throw data(null, { status: 404 });
  const [stores, actions] = await Promise.all([
    storeChoicesFor(app.db, actor, getLocale(request)),
    staffRecentActions(app.db, actor, params.userId),
  ]);
  const done = new URL(request.url).searchParams.get("done");
  return {
    person: {
      userId: person.userId,
      displayName: person.displayName,
      role: person.role,
      contact: [person.email, person.phoneNumber].filter(Boolean).join(" · "),
      storeIds: person.storeIds,
      disabled: person.disabled,
      enrolled: person.enrolled,
      secondFactorLocked: person.secondFactorLocked,
      recoveryCodesLeft: person.recoveryCodesLeft,
      sessions: person.sessions,
      lastSeenAt: person.lastSeenAt?.toISOString() ?? null,
      createdAt: person.createdAt.toISOString(),
    },
    self: person.userId === actor.userId,
    stores,
    actions: actions.map((a) => ({
      seq: a.seq,
      occurredAt: a.occurredAt.toISOString(),
      action: a.action,
      target: a.targetId ? `${a.targetType} ${a.targetId}` : a.targetType,
      fields: Object.keys(a.changes ?? {}).sort(),
    })),
    done: DONE.find((d) => d === done) ?? null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "staff.manage");
  const form = await readForm(request);
  const t = serverT(request);
  const intent = INTENTS.find((i) => i === form.get("intent"));
  if (!intent) return data({ formError: t("console.staff.error.intent") }, { status: 400 });
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) {
    stepUp.answer.data.values.storeIds = form.getAll("storeIds").map(String).join(",");
    return stepUp.answer;
  }
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const userId = params.userId;
  try {
    if (intent === "access") {
      await updateStaffAccess(app.db, stepUp.actor, userId, accessFromForm(form), audit, now);
    } else if (intent === "reset") {
      await resetSecondFactor(app.db, stepUp.actor, userId, audit, now);
    } else if (intent === "unlock") {
      await liftSecondFactorLock(app.db, stepUp.actor, userId, audit, now);
    } else {
      await setStaffDisabled(app.db, stepUp.actor, userId, intent === "disable", audit, now);
    }
  } catch (error) {
    return consoleFailure(error, null, t, { values: staffFormValues(form) });
  }
  const done: Done =
    intent === "disable" ? "disabled" : intent === "enable" ? "enabled" : intent === "unlock" ? "unlocked" : intent;
  return redirect(`/admin/staff/${encodeURIComponent(userId)}?done=${done}`);
}

const DONE_MESSAGES = {
  access: "console.staff.detail.accessSaved",
  disabled: "console.staff.detail.disabled",
  enabled: "console.staff.detail.enabled",
  reset: "console.staff.detail.resetDone",
  unlocked: "console.staff.detail.unlocked",
} as const;

export default function StaffMember({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const { person, self } = loaderData;
  const state = form.state as { stepUp?: boolean; values?: Record<string, string> } | undefined;
  const lastIntent = state?.values?.intent;
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/staff", label: t("console.staff.detail.back") }}
      title={person.displayName}
      badges={
        <>
          <span className="rounded-full bg-sand px-3 py-1 text-sm" data-testid="staff-role">
            {t(`console.role.${person.role}`)}
          </span>
          {person.disabled ? (
            <span
              className="rounded-full bg-danger-700/10 px-3 py-1 text-sm text-danger-800"
              data-testid="staff-disabled"
            >
              {t("console.staff.disabledBadge")}
            </span>
          ) : null}
        </>
      }
      notices={
        <>
          {loaderData.done && !form.state ? <Alert tone="success">{t(DONE_MESSAGES[loaderData.done])}</Alert> : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {self ? <Alert>{t("console.staff.detail.self")}</Alert> : null}
          {state?.stepUp && lastIntent && lastIntent !== "access" ? (
            <Form method="post" className="space-y-4 rounded-2xl border border-line bg-white p-5">
              <input type="hidden" name="intent" value={lastIntent} />
              <StepUpField show errors={form.errors("stepUpCode")} />
              <Button
                type="submit"
                variant={lastIntent === "enable" || lastIntent === "unlock" ? "primary" : "danger"}
                pending={busy(lastIntent)}
              >
                {lastIntent === "disable"
                  ? t("console.staff.detail.disable")
                  : lastIntent === "enable"
                    ? t("console.staff.detail.enable")
                    : lastIntent === "unlock"
                      ? t("console.staff.detail.unlock")
                      : t("console.staff.detail.reset")}
              </Button>
            </Form>
          ) : null}
        </>
      }
    >
      <dl className="mt-6 grid gap-4 rounded-2xl border border-line bg-white p-5 text-sm sm:grid-cols-2 lg:grid-cols-3">
        <FieldRow label={t("console.staff.detail.contact")} className="break-all">
          {person.contact}
        </FieldRow>
        <FieldRow
          label={t("console.staff.col.secondFactor")}
          testId="staff-enrolled"
          extra={
            person.secondFactorLocked ? (
              <dd
                className="mt-1.5 inline-block rounded-full bg-danger-700/10 px-2.5 py-0.5 text-xs font-medium text-danger-800"
                data-testid="staff-locked"
              >
                {t("console.staff.detail.locked")}
              </dd>
            ) : null
          }
        >
          {person.enrolled ? t("console.staff.enrolled") : t("console.staff.notEnrolled")}
        </FieldRow>
        <FieldRow label={t("console.staff.detail.recoveryCodes")} className="tabular-nums">
          {person.recoveryCodesLeft}
        </FieldRow>
        <FieldRow label={t("console.staff.detail.sessions")} className="tabular-nums" testId="staff-sessions">
          {person.sessions}
        </FieldRow>
        <FieldRow label={t("console.staff.col.lastSeen")} className="tabular-nums">
          {person.lastSeenAt ? formatTaipei(person.lastSeenAt, locale, "dateTime") : t("console.staff.never")}
        </FieldRow>
        <FieldRow label={t("console.staff.detail.since")} className="tabular-nums">
          {formatTaipei(person.createdAt, locale, "dateTime")}
        </FieldRow>
      </dl>

      {self ? null : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[3fr_2fr]">
          <section className="rounded-2xl border border-line bg-white p-5" aria-labelledby="access-title">
            <h2 id="access-title" className="text-lg font-semibold">
              {t("console.staff.detail.access")}
            </h2>
            <Form method="post" className="mt-4 space-y-5">
              <input type="hidden" name="intent" value="access" />
              <StaffAccessFields
                stores={loaderData.stores}
                role={lastIntent === "access" ? form.value("role", person.role) : person.role}
                storeIds={lastIntent === "access" ? form.value("storeIds").split(",").filter(Boolean) : person.storeIds}
                errors={form.errors}
              />
              <StepUpField
                show={Boolean(state?.stepUp && lastIntent === "access")}
                errors={form.errors("stepUpCode")}
              />
              <Button type="submit" pending={busy("access")}>
                {t("console.staff.detail.saveAccess")}
              </Button>
            </Form>
          </section>
          <section className="space-y-5 rounded-2xl border border-line bg-white p-5" aria-labelledby="account-title">
            <h2 id="account-title" className="text-lg font-semibold">
              {t("console.staff.detail.account")}
            </h2>
            <Form method="post" className="space-y-2">
              {person.disabled ? (
                <Button type="submit" name="intent" value="enable" pending={busy("enable")}>
                  {t("console.staff.detail.enable")}
                </Button>
              ) : (
                <>
                  <p className="text-sm text-muted">{t("console.staff.detail.disableHint")}</p>
                  <Button type="submit" name="intent" value="disable" variant="danger" pending={busy("disable")}>
                    {t("console.staff.detail.disable")}
                  </Button>
                </>
              )}
            </Form>
            {person.secondFactorLocked ? (
              <Form method="post" className="space-y-2 border-t border-line pt-5">
                <p className="text-sm text-muted">{t("console.staff.detail.unlockHint")}</p>
                <Button type="submit" name="intent" value="unlock" pending={busy("unlock")}>
                  {t("console.staff.detail.unlock")}
                </Button>
              </Form>
            ) : null}
            <Form method="post" className="space-y-2 border-t border-line pt-5">
              <p className="text-sm text-muted">{t("console.staff.detail.resetHint")}</p>
              <Button type="submit" name="intent" value="reset" variant="secondary" pending={busy("reset")}>
                {t("console.staff.detail.reset")}
              </Button>
            </Form>
          </section>
        </div>
      )}

      <section className="mt-8" aria-labelledby="actions-title">
        <div className="flex flex-wrap items-baseline justify-between gap-3">
          <h2 id="actions-title" className="text-xl font-semibold">
            {t("console.staff.detail.actions")}
          </h2>
          <Link
            to={`/admin/audit?who=${encodeURIComponent(person.userId)}`}
            className="text-sm underline underline-offset-4"
          >
            {t("console.staff.detail.auditLink")}
          </Link>
        </div>
        {loaderData.actions.length === 0 ? (
          <p className="mt-3 text-sm text-muted">{t("console.staff.detail.actionsEmpty")}</p>
        ) : (
          <ol className="mt-3 divide-y divide-line rounded-2xl border border-line bg-white" data-testid="staff-actions">
            {loaderData.actions.map((a) => (
              <li
                key={a.seq}
                className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 px-4 py-3 text-sm"
              >
                <span>
                  <span className="font-mono font-medium">{a.action}</span>
                  <span className="ml-2 break-all text-muted">{a.target}</span>
                  {a.fields.length ? <span className="ml-2 text-muted">({a.fields.join(", ")})</span> : null}
                </span>
                <span className="tabular-nums text-muted">{formatTaipei(a.occurredAt, locale, "dateTime")}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </ConsolePage>
  );
}
