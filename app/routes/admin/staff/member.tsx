import { data, redirect } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { StaffCodeSection } from "~/components/console/clerk/staff-code-section";
import { ConsolePage } from "~/components/console/console-page";
import { PageNotices, StepUpConfirm } from "~/components/console/staff/post-forms";
import {
  AccessSection,
  AccountSection,
  RecentActions,
  STAFF_BUTTON_VARIANTS,
  StaffFacts,
  useBusy,
} from "~/components/console/staff/staff-member";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { changeStaffMember, STAFF_CHANGE_DONE, staffMemberPage } from "~/domain/staff/console.server";
import { staffChangeSchema, storesKept } from "~/domain/staff/forms";
import { requirePermission } from "~/domain/staff/guard.server";
import { storeChoicesFor } from "~/domain/staff/store-choices.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/member";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.staff.title");

const DONE_MESSAGES = {
  access: "console.staff.detail.accessSaved",
  disabled: "console.staff.detail.disabled",
  enabled: "console.staff.detail.enabled",
  reset: "console.staff.detail.resetDone",
  unlocked: "console.staff.detail.unlocked",
  code: "console.clerk.code.saved",
} as const;
const isDone = (value: string | null): value is keyof typeof DONE_MESSAGES =>
  value !== null && Object.hasOwn(DONE_MESSAGES, value);

/** One staff member (admins): sign-in, second factor (and its lock), role and stores, disable, reset, recent actions. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "staff.manage");
  const page = await staffMemberPage(app.db, actor, params.userId, requestNow(request, app.config));
  if (!page) throw data(null, { status: 404 });
  const done = new URL(request.url).searchParams.get("done");
  return {
    ...page,
    stores: await storeChoicesFor(app.db, actor, getLocale(request)),
    done: isDone(done) ? done : null,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "staff.manage");
  const form = await readForm(request);
  const t = serverT(request);
  const parsed = parseForm(staffChangeSchema(form, t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.staff.error.intent") });
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) {
    Object.assign(stepUp.answer.data.values, storesKept(form));
    return stepUp.answer;
  }
  const userId = params.userId;
  try {
    const now = requestNow(request, app.config);
    await changeStaffMember(app.db, stepUp.actor, userId, parsed.data, consoleAudit(context, request), now);
  } catch (error) {
    return consoleFailure(error, form, t, { values: storesKept(form) });
  }
  return redirect(`/admin/staff/${encodeURIComponent(userId)}?done=${STAFF_CHANGE_DONE[parsed.data.intent]}`);
}

export default function StaffMember({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const busy = useBusy();
  const { person, self } = loaderData;
  const stepUp = Boolean(form.state && "stepUp" in form.state);
  const intent = form.state?.values?.intent;
  const confirm =
    stepUp && intent && intent !== "access" && intent !== "code"
      ? (intent as keyof typeof STAFF_BUTTON_VARIANTS)
      : null;
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
        <PageNotices
          done={loaderData.done && !form.state ? t(DONE_MESSAGES[loaderData.done]) : null}
          error={form.formError}
        >
          {self ? <Alert>{t("console.staff.detail.self")}</Alert> : null}
          {confirm ? (
            <StepUpConfirm
              fields={{ intent: confirm }}
              label={t(`console.staff.detail.${confirm}`)}
              variant={STAFF_BUTTON_VARIANTS[confirm]}
              errors={form.errors("stepUpCode")}
              pending={busy(confirm)}
            />
          ) : null}
        </PageNotices>
      }
    >
      <StaffFacts person={person} />
      {self ? null : (
        <div className="mt-6 grid gap-6 lg:grid-cols-[3fr_2fr]">
          <AccessSection
            person={person}
            stores={loaderData.stores}
            typed={intent === "access" ? { role: form.value("role"), storeIds: form.value("storeIds") } : null}
            stepUp={stepUp && intent === "access"}
            errors={form.errors}
          />
          <AccountSection person={person} />
        </div>
      )}
      <div className="mt-6">
        <StaffCodeSection
          staffCode={person.staffCode}
          typed={intent === "code" ? form.value("staffCode") : null}
          stepUp={stepUp && intent === "code"}
          errors={form.errors}
        />
      </div>
      <RecentActions userId={person.userId} actions={loaderData.actions} />
    </ConsolePage>
  );
}
