import { DetailSection } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { ErrorList, Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import type { ConsoleMemberView } from "~/domain/members/console.server";
import { useLocale } from "~/lib/i18n";
import { formatLastValidDay } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { IntentForm } from "./intent-form";

/** The balance and the soonest expiry; the adjustment link; disable / enable (with a reason, confirmed), end sessions. */
export function MemberPoints({ member: m }: { member: ConsoleMemberView }) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const n = (v: number) => v.toLocaleString("en-US");
  const intent = m.disabled ? "enable" : "disable";
  return (
    <DetailSection id="points-title" title={t("console.members.points")}>
      <p className="font-serif text-4xl font-semibold tabular-nums" data-testid="member-balance">
        {n(m.balance)}
      </p>
      <p className="text-sm" data-testid="member-expiring">
        <span className="text-muted">{t("console.counter.member.expiring")}</span>{" "}
        {m.expiring
          ? t("console.counter.member.expiringValue", {
              points: n(m.expiring.points),
              date: formatLastValidDay(m.expiring.expiresAt, locale),
            })
          : t("console.counter.member.noExpiring")}
      </p>
      {m.canAdjust && !m.deleted ? (
        <Link to={`/admin/members/${m.id}/adjust`} className="inline-block text-sm underline underline-offset-4">
          {t("console.adjust.title")}
        </Link>
      ) : null}
      {m.canManage && !m.deleted ? (
        <>
          <IntentForm
            key={intent}
            intent={intent}
            className="space-y-3 border-t border-line pt-4"
            variant={m.disabled ? "primary" : "danger"}
            label={t(`console.members.${intent}`)}
            fields={
              <>
                <Field
                  label={t(`console.members.${intent}Reason`)}
                  errors={form.errors("reason")}
                  inputProps={{ name: "reason", required: true, maxLength: 200, defaultValue: form.value("reason") }}
                />
                <div>
                  <label className="flex items-start gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="confirmed"
                      value="1"
                      required
                      aria-invalid={form.errors("confirmed")?.length ? true : undefined}
                      aria-describedby={form.errors("confirmed")?.length ? "member-confirm-error" : undefined}
                      className="mt-1 size-4 shrink-0 accent-brand-700"
                    />
                    <span>
                      {m.disabled
                        ? t("console.members.confirmEnable", { name: m.name })
                        : t("console.members.confirmDisable", { name: m.name })}
                    </span>
                  </label>
                  <ErrorList id="member-confirm-error" errors={form.errors("confirmed")} />
                </div>
              </>
            }
          />
          <IntentForm
            intent="end-sessions"
            className="border-t border-line pt-4"
            label={t("console.members.endSessions")}
          />
        </>
      ) : null}
    </DetailSection>
  );
}
