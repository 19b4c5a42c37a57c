import { data, redirect, useActionData } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor, STEP_UP_FIELD } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleTable } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { RulesForm } from "~/components/console/rules/rules-form";
import { RulesInForce } from "~/components/console/rules/rules-in-force";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { currentRules } from "~/domain/loyalty/rules.server";
import {
  latestScheduled,
  newestVersionId,
  previewToken,
  rulesHistory,
  rulesImpact,
  rulesNoteIsDefaults,
  scheduleRules,
} from "~/domain/programme/rules.server";
import { formatCents, formatPermille, rulesSchema } from "~/domain/programme/rules-form";
import {
  referralImpact,
  referralRewardChoices,
  referralRewardTerms,
  referralValues,
} from "~/domain/referrals/rules.server";
import { isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei, taipeiIsoDate } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.programme.rules.title");

type Version = Awaited<ReturnType<typeof rulesHistory>>[number];

function versionValues(r: Version): Record<string, string> {
  return {
    amountPerPoint: String(r.amountPerPoint),
    silverSpend: String(r.silverSpend),
    goldSpend: String(r.goldSpend),
    basicMultiplier: formatPermille(r.basicMultiplierPermille),
    silverMultiplier: formatPermille(r.silverMultiplierPermille),
    goldMultiplier: formatPermille(r.goldMultiplierPermille),
    welcomeEnabled: r.welcomeEnabled ? "on" : "",
    welcomePoints: String(r.welcomePoints),
    birthdayEnabled: r.birthdayEnabled ? "on" : "",
    birthdayPoints: String(r.birthdayPoints),
    pointValue: formatCents(r.pointValueCents),
    maxSpendPercent: String(r.maxSpendPercent),
    keptVisitEnabled: r.keptVisitEnabled ? "on" : "",
    keptVisitPoints: String(r.keptVisitPoints),
    ...referralValues(r),
  };
}

/**
 * Programme rules (admins, `programme.edit`): the version in force, the history, and a form for a new
 * version from an effective date (today or later, Taipei). "Preview impact" runs the engine's arithmetic
 * over the data (rulesImpact); saving needs a preview of exactly the values saved, and the second factor.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const app = getApp(context);
  requirePermission(context, "programme.edit");
  const now = requestNow(request, app.config);
  const [inForce, history, scheduled, baseVersion] = await Promise.all([
    currentRules(app.db, now),
    rulesHistory(app.db),
    latestScheduled(app.db, now),
    newestVersionId(app.db),
  ]);
  const [choices, inForceReward] = await Promise.all([
    referralRewardChoices(app.db, now, (scheduled ?? inForce).referralRewardId),
    referralRewardTerms(app.db, inForce),
  ]);
  const saved = Number(new URL(request.url).searchParams.get("saved") ?? "");
  const savedVersion = Number.isSafeInteger(saved) ? history.find((h) => h.id === saved) : undefined;
  return {
    today: taipeiIsoDate(now),
    baseVersion,
    inForce: {
      id: inForce.id,
      effectiveFrom: inForce.effectiveFrom.toISOString(),
      values: {
        ...versionValues(inForce),
        referralRewardName: inForceReward.kind === "coupon" ? inForceReward.name : "",
      },
    },
    scheduled: scheduled ? { id: scheduled.id, effectiveFrom: scheduled.effectiveFrom.toISOString() } : null,
    // The form starts from the newest version (the scheduled one when there is one).
    defaults: versionValues(scheduled ?? inForce),
    // The catalogue rewards a referral coupon may be (ADR 053).
    rewardChoices: choices,
    saved: savedVersion ? { id: savedVersion.id, effectiveFrom: savedVersion.effectiveFrom.toISOString() } : null,
    history: history.map((h) => ({
      id: h.id,
      effectiveFrom: h.effectiveFrom.toISOString(),
      state: h.effectiveFrom > now ? "scheduled" : h.id === inForce.id ? "current" : "past",
      values: versionValues(h),
      // The seeded default version: 預設規則 in the page's language, not its stored (developers') note.
      defaults: rulesNoteIsDefaults(h),
      note: rulesNoteIsDefaults(h) ? null : h.note,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  requirePermission(context, "programme.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const values = formValues(form, [STEP_UP_FIELD]);
  const scheduled = await latestScheduled(app.db, now);
  const parsed = parseForm(rulesSchema(t, { now, latestScheduled: scheduled?.effectiveFrom ?? null }), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.programme.error.fix") });
  const { rules, effectiveDate } = parsed.data;
  // A referral coupon must be one the catalogue offers (or the one chosen now): told beside the field.
  if (rules.referralRewardKind === "coupon" && rules.referralRewardId) {
    const before = scheduled ?? (await currentRules(app.db, now));
    const choices = await referralRewardChoices(app.db, now, before.referralRewardId);
    if (!choices.some((c) => c.id === rules.referralRewardId)) {
      return formFailure({
        errors: { referralRewardId: [t("console.programme.error.invalidChoice")] },
        values,
        formError: t("console.programme.error.fix"),
      });
    }
  }
  const token = previewToken({ rules, date: effectiveDate });
  const preview = async () => ({
    ...(await rulesImpact(app.db, rules, now)),
    referrals: await referralImpact(app.db, rules, now),
    token,
  });
  if (form.get("intent") !== "save" || form.get("previewToken") !== token) {
    return data({ preview: await preview(), values: { ...values, previewToken: token } });
  }
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) {
    const { answer } = stepUp;
    return data({ ...answer.data, preview: await preview() }, { status: answer.init?.status ?? 401 });
  }
  try {
    const baseVersion = Number(form.get("baseVersion") ?? "");
    const saved = await scheduleRules(
      app.db,
      stepUp.actor,
      parsed.data,
      baseVersion,
      consoleAudit(context, request),
      now,
    );
    return redirect(`/admin/rules?saved=${saved.id}`);
  } catch (error) {
    // A newer version saved meanwhile: told, nothing lost (what was typed stays, with its preview, over that
    // version). A date taken (a save at the same moment took it): beside the date, everything typed kept.
    if (!isVersionConflict(error)) return consoleFailure(error, null, t, { values });
    const answer = { preview: await preview() };
    return consoleFailure(error, null, t, {
      values: { ...values, baseVersion: String(error.current), previewToken: token },
      answer,
    });
  }
}

const HISTORY_COLUMNS = ["version", "from", "earn", "tiers", "multipliers", "gifts", "value", "note"] as const;
const STATE_CLASS = { scheduled: "bg-brand-50 text-brand-800", current: "bg-success-50 text-success-700" } as const;

export default function Rules({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const answer = useActionData() as { formError?: string } | undefined;
  const when = (iso: string) => formatTaipei(iso, locale, "dateTime");
  const { inForce, scheduled, saved } = loaderData;
  const off = t("console.programme.rules.off");
  type Row = (typeof loaderData.history)[number];
  const cells: Record<(typeof HISTORY_COLUMNS)[number], (h: Row) => React.ReactNode> = {
    version: (h) => (
      <>
        #{h.id}
        <span
          className={cn(
            "mt-0.5 block w-fit rounded-full px-2 py-0.5 text-xs",
            STATE_CLASS[h.state as keyof typeof STATE_CLASS] ?? "text-muted",
          )}
        >
          {t(`console.programme.rules.state.${h.state}` as "console.programme.rules.state.current")}
        </span>
      </>
    ),
    from: (h) => when(h.effectiveFrom),
    earn: (h) => t("console.programme.rules.perPoint", { amount: h.values.amountPerPoint ?? "" }),
    tiers: (h) =>
      `${Number(h.values.silverSpend).toLocaleString("en-US")} / ${Number(h.values.goldSpend).toLocaleString("en-US")}`,
    multipliers: (h) =>
      `${h.values.basicMultiplier} / ${h.values.silverMultiplier} / ${h.values.goldMultiplier}${Number(h.values.tradeMultiplier) > 1 ? ` · ${t("console.programme.rules.tradeShort", { multiplier: h.values.tradeMultiplier ?? "" })}` : ""}`,
    gifts: (h) =>
      `${h.values.welcomeEnabled ? h.values.welcomePoints : off} / ${h.values.birthdayEnabled ? h.values.birthdayPoints : off} / ${h.values.keptVisitEnabled ? h.values.keptVisitPoints : off}`,
    value: (h) => `NT$${h.values.pointValue} · ≤ ${h.values.maxSpendPercent}%`,
    note: (h) => (h.defaults ? t("console.programme.rules.defaultsNote") : (h.note ?? "")),
  };
  return (
    <ConsolePage
      width="5xl"
      title={t("console.programme.rules.title")}
      lead={t("console.programme.rules.lead")}
      notices={
        <>
          {saved && !answer ? (
            <Alert tone="success">
              {t("console.programme.rules.saved", { id: saved.id, time: when(saved.effectiveFrom) })}
            </Alert>
          ) : null}
          {answer?.formError ? <Alert tone="error">{answer.formError}</Alert> : null}
        </>
      }
    >
      <RulesInForce
        values={inForce.values}
        line={`${t("console.programme.rules.versionLine", { id: inForce.id, time: when(inForce.effectiveFrom) })}${
          scheduled
            ? ` · ${t("console.programme.rules.scheduledLine", { id: scheduled.id, time: when(scheduled.effectiveFrom) })}`
            : ""
        }`}
      />
      <DetailSection id="new-title" title={t("console.programme.rules.newTitle")} className="mt-6">
        <RulesForm
          defaults={loaderData.defaults}
          today={loaderData.today}
          baseVersion={loaderData.baseVersion}
          rewardChoices={loaderData.rewardChoices}
        />
      </DetailSection>
      <DetailSection id="history-title" title={t("console.programme.rules.history")} className="mt-6">
        <ConsoleTable
          labelledBy="history-title"
          testId="rules-history"
          minWidth="48rem"
          rows={loaderData.history}
          rowKey={(h) => String(h.id)}
          rowTestId="rules-version"
          columns={HISTORY_COLUMNS.map((c) => ({
            key: c,
            header: t(`console.programme.rules.col.${c}`),
            className:
              c === "note"
                ? "max-w-[14rem] break-words"
                : c === "version"
                  ? "tabular-nums whitespace-nowrap"
                  : "tabular-nums",
            cell: cells[c],
          }))}
        />
      </DetailSection>
    </ConsolePage>
  );
}
