import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { actionLabel, fieldLabel, targetLabel } from "../audit/change-words";
import { DetailSection, FieldRow } from "../detail-section";
import { StaffAccessFields } from "../staff-access-fields";
import { StepUpField } from "../step-up-field";
import { useConsoleT } from "../use-console-t";
import { HiddenForm } from "./post-forms";

/** The pieces of one staff member's page: the facts, the access form, the account's buttons, the recent actions. */

type Person = {
  userId: string;
  role: string;
  contact: string;
  storeIds: string[];
  disabled: boolean;
  enrolled: boolean;
  secondFactorLocked: boolean;
  recoveryCodesLeft: number;
  sessions: number;
  lastSeenAt: string | null;
  createdAt: string;
};

/** Whether the button posting this intent is the one being submitted. */
export function useBusy() {
  const navigation = useNavigation();
  return (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
}

export function StaffFacts({ person }: { person: Person }) {
  const t = useConsoleT();
  const locale = useLocale();
  const time = (iso: string) => formatTaipei(iso, locale, "dateTime");
  return (
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
        {person.lastSeenAt ? time(person.lastSeenAt) : t("console.staff.never")}
      </FieldRow>
      <FieldRow label={t("console.staff.detail.since")} className="tabular-nums">
        {time(person.createdAt)}
      </FieldRow>
    </dl>
  );
}

/** The role and stores: the values as typed after a refused save, else the person's. */
export function AccessSection({
  person,
  stores,
  typed,
  stepUp,
  errors,
}: {
  person: Person;
  stores: { id: string; name: string }[];
  typed: { role: string; storeIds: string } | null;
  stepUp: boolean;
  errors: (field: string) => string[] | null;
}) {
  const t = useConsoleT();
  const busy = useBusy();
  return (
    <DetailSection id="access-title" title={t("console.staff.detail.access")}>
      <Form method="post" className="space-y-5">
        <input type="hidden" name="intent" value="access" />
        <StaffAccessFields
          stores={stores}
          role={typed ? typed.role || person.role : person.role}
          storeIds={typed ? typed.storeIds.split(",").filter(Boolean) : person.storeIds}
          errors={errors}
        />
        <StepUpField show={stepUp} errors={errors("stepUpCode")} />
        <Button type="submit" pending={busy("access")}>
          {t("console.staff.detail.saveAccess")}
        </Button>
      </Form>
    </DetailSection>
  );
}

/** Disable or enable, lift the second factor's lock, reset the second factor. */
export function AccountSection({ person }: { person: Person }) {
  const t = useConsoleT();
  const busy = useBusy();
  const button = (intent: "enable" | "disable" | "unlock" | "reset", hint: string | null, border = true) => (
    <HiddenForm fields={{ intent }} className={border ? "space-y-2 border-t border-line pt-5" : "space-y-2"}>
      {hint ? <p className="text-sm text-muted">{hint}</p> : null}
      <Button type="submit" variant={STAFF_BUTTON_VARIANTS[intent]} pending={busy(intent)}>
        {t(`console.staff.detail.${intent}`)}
      </Button>
    </HiddenForm>
  );
  return (
    <DetailSection id="account-title" title={t("console.staff.detail.account")}>
      {person.disabled
        ? button("enable", null, false)
        : button("disable", t("console.staff.detail.disableHint"), false)}
      {person.secondFactorLocked ? button("unlock", t("console.staff.detail.unlockHint")) : null}
      {button("reset", t("console.staff.detail.resetHint"))}
    </DetailSection>
  );
}

/** The button of each of the account's changes (also when the code is asked again). */
export const STAFF_BUTTON_VARIANTS = {
  enable: "primary",
  unlock: "primary",
  disable: "danger",
  reset: "secondary",
} as const;

export function RecentActions({
  userId,
  actions,
}: {
  userId: string;
  actions: {
    seq: number;
    occurredAt: string;
    action: string;
    targetType: string;
    targetId: string | null;
    fields: string[];
  }[];
}) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <section className="mt-8" aria-labelledby="actions-title">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="actions-title" className="text-xl font-semibold">
          {t("console.staff.detail.actions")}
        </h2>
        <Link to={`/admin/audit?who=${encodeURIComponent(userId)}`} className="text-sm underline underline-offset-4">
          {t("console.staff.detail.auditLink")}
        </Link>
      </div>
      {actions.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{t("console.staff.detail.actionsEmpty")}</p>
      ) : (
        <ol className="mt-3 divide-y divide-line rounded-2xl border border-line bg-white" data-testid="staff-actions">
          {actions.map((a) => (
            <li key={a.seq} className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 px-4 py-3 text-sm">
              <span>
                <span className="font-medium" data-action={a.action}>
                  {actionLabel(a.action, t)}
                </span>
                <span className="ml-2 break-all text-muted" data-target-type={a.targetType}>
                  {targetLabel(a.targetType, t)}
                  {a.targetId ? ` ${a.targetId}` : ""}
                </span>
                {a.fields.length ? (
                  <span className="ml-2 text-muted">（{a.fields.map((f) => fieldLabel(f, t)).join("、")}）</span>
                ) : null}
              </span>
              <span className="tabular-nums text-muted">{formatTaipei(a.occurredAt, locale, "dateTime")}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
