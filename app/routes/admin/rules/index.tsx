import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit, requireRecentSecondFactorFor, STEP_UP_FIELD } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StepUpField } from "~/components/console/step-up-field";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { currentRules } from "~/domain/loyalty/rules.server";
import { formatCents, formatPermille, parseRulesForm } from "~/domain/programme/input";
import {
  latestScheduled,
  newestVersionId,
  previewToken,
  rulesHistory,
  rulesImpact,
  rulesNoteIsDefaults,
  scheduleRules,
} from "~/domain/programme/rules.server";
import { isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { formValues, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei, taipeiIsoDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { problemMessages } from "../form-answers.server";
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
  const saved = Number(new URL(request.url).searchParams.get("saved") ?? "");
  const savedVersion = Number.isSafeInteger(saved) ? history.find((h) => h.id === saved) : undefined;
  return {
    today: taipeiIsoDate(now),
    baseVersion,
    inForce: { id: inForce.id, effectiveFrom: inForce.effectiveFrom.toISOString(), values: versionValues(inForce) },
    scheduled: scheduled ? { id: scheduled.id, effectiveFrom: scheduled.effectiveFrom.toISOString() } : null,
    // The form starts from the newest version (the scheduled one when there is one).
    defaults: versionValues(scheduled ?? inForce),
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
  const parsed = parseRulesForm(form, { now, latestScheduled: scheduled?.effectiveFrom ?? null });
  if (!parsed.ok) {
    return data(
      { errors: problemMessages(parsed.problems, t), values, formError: t("console.programme.error.fix") },
      { status: 400 },
    );
  }
  const token = previewToken({ rules: parsed.value.rules, date: parsed.value.effectiveDate });
  const withPreview = async (status: number, extra: Record<string, unknown> = {}) => {
    const impact = await rulesImpact(app.db, parsed.value.rules, now);
    return data({ preview: { ...impact, token }, values: { ...values, previewToken: token }, ...extra }, { status });
  };
  if (form.get("intent") !== "save" || form.get("previewToken") !== token) return withPreview(200);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) {
    const impact = await rulesImpact(app.db, parsed.value.rules, now);
    const answer = stepUp.answer;
    return data({ ...answer.data, preview: { ...impact, token } }, { status: answer.init?.status ?? 401 });
  }
  try {
    const saved = await scheduleRules(
      app.db,
      stepUp.actor,
      parsed.value,
      Number(form.get("baseVersion") ?? ""),
      consoleAudit(context, request),
      now,
    );
    return redirect(`/admin/rules?saved=${saved.id}`);
  } catch (error) {
    if (isVersionConflict(error)) {
      // Told, nothing lost: what was typed stays, with its preview, over the version saved now.
      values.baseVersion = String(error.current);
      const impact = await rulesImpact(app.db, parsed.value.rules, now);
      return consoleFailure(error, null, t, {
        values: { ...values, previewToken: token },
        answer: { preview: { ...impact, token } },
      });
    }
    // A date taken (a save at the same moment took it): beside the date, everything typed kept.
    return consoleFailure(error, null, t, { values });
  }
}

type Preview = {
  proposed: { from: string; to: string; members: number }[];
  current: { from: string; to: string; members: number }[];
  purchases: number;
  pointsCurrent: number;
  pointsProposed: number;
  token: string;
};

const TIER_RANK: Record<string, number> = { basic: 0, silver: 1, gold: 2 };

function Moves({ title, moves, testId }: { title: string; moves: Preview["proposed"]; testId: string }) {
  const t = useConsoleT();
  const tier = (x: string) => t(`console.counter.tier.${x}` as "console.counter.tier.basic");
  const up = moves.filter((m) => (TIER_RANK[m.to] ?? 0) > (TIER_RANK[m.from] ?? 0)).reduce((s, m) => s + m.members, 0);
  const down = moves.reduce((s, m) => s + m.members, 0) - up;
  return (
    <div data-testid={testId}>
      <h4 className="text-sm font-medium">{title}</h4>
      {moves.length === 0 ? (
        <p className="mt-1 text-sm text-muted">{t("console.programme.rules.impactNone")}</p>
      ) : (
        <>
          <p className="mt-1 text-sm">
            {t("console.programme.rules.impactUp", { count: up })} ·{" "}
            {t("console.programme.rules.impactDown", { count: down })}
          </p>
          <ul className="mt-1 space-y-0.5 text-sm text-muted">
            {moves.map((m) => (
              <li key={`${m.from}-${m.to}`}>
                {t("console.programme.rules.impactMove", { from: tier(m.from), to: tier(m.to), count: m.members })}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function ImpactPreview({ preview }: { preview: Preview }) {
  const t = useConsoleT();
  const delta = preview.pointsProposed - preview.pointsCurrent;
  return (
    <section
      className="rounded-2xl border border-brand-700/30 bg-brand-50/60 p-5"
      aria-labelledby="impact-title"
      data-testid="impact"
    >
      <h3 id="impact-title" className="text-lg font-semibold">
        {t("console.programme.rules.impactTitle")}
      </h3>
      <p className="mt-1 text-sm text-muted">{t("console.programme.rules.impactLead")}</p>
      <h4 className="mt-4 font-medium">{t("console.programme.rules.impactTiers")}</h4>
      <div className="mt-2 grid gap-4 sm:grid-cols-2">
        <Moves title={t("console.programme.rules.impactWith")} moves={preview.proposed} testId="impact-proposed" />
        <Moves title={t("console.programme.rules.impactWithout")} moves={preview.current} testId="impact-current" />
      </div>
      <h4 className="mt-4 font-medium">
        {t("console.programme.rules.impactPoints", { purchases: preview.purchases.toLocaleString("en-US") })}
      </h4>
      <p className="mt-1 text-sm tabular-nums" data-testid="impact-points">
        {t("console.programme.rules.impactPointsLine", {
          current: preview.pointsCurrent.toLocaleString("en-US"),
          proposed: preview.pointsProposed.toLocaleString("en-US"),
          delta: `${delta >= 0 ? "+" : "−"}${Math.abs(delta).toLocaleString("en-US")}`,
        })}
      </p>
      <p className="mt-1 text-xs text-muted">{t("console.programme.rules.impactPointsHint")}</p>
    </section>
  );
}

export default function Rules({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const state = form.state as { preview?: Preview; stepUp?: boolean; conflict?: boolean } | undefined;
  const typed = Boolean(form.state?.values);
  const value = (f: string) => (typed ? form.value(f) : (loaderData.defaults[f] ?? ""));
  const checked = (f: string) => (typed ? form.value(f) === "on" : loaderData.defaults[f] === "on");
  const num = (name: string, label: string, description?: string) => (
    <Field
      label={label}
      description={description}
      errors={form.errors(name)}
      inputProps={{ name, required: true, inputMode: "decimal", defaultValue: value(name) }}
    />
  );
  const v = loaderData.inForce.values;
  const when = (iso: string) => formatTaipei(iso, locale, "dateTime");
  return (
    <ConsolePage
      width="5xl"
      title={t("console.programme.rules.title")}
      lead={t("console.programme.rules.lead")}
      notices={
        <>
          {loaderData.saved && !form.state ? (
            <Alert tone="success">
              {t("console.programme.rules.saved", {
                id: loaderData.saved.id,
                time: when(loaderData.saved.effectiveFrom),
              })}
            </Alert>
          ) : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </>
      }
    >
      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="current-title">
        <h2 id="current-title" className="text-lg font-semibold">
          {t("console.programme.rules.current")}
        </h2>
        <p className="mt-1 text-sm text-muted" data-testid="rules-in-force">
          {t("console.programme.rules.versionLine", {
            id: loaderData.inForce.id,
            time: when(loaderData.inForce.effectiveFrom),
          })}
          {loaderData.scheduled
            ? ` · ${t("console.programme.rules.scheduledLine", { id: loaderData.scheduled.id, time: when(loaderData.scheduled.effectiveFrom) })}`
            : ""}
        </p>
        <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          {(
            [
              ["amountPerPoint", v.amountPerPoint],
              ["silverSpend", Number(v.silverSpend).toLocaleString("en-US")],
              ["goldSpend", Number(v.goldSpend).toLocaleString("en-US")],
              ["basicMultiplier", `× ${v.basicMultiplier}`],
              ["silverMultiplier", `× ${v.silverMultiplier}`],
              ["goldMultiplier", `× ${v.goldMultiplier}`],
              ["welcomePoints", v.welcomeEnabled ? v.welcomePoints : t("console.programme.rules.off")],
              ["birthdayPoints", v.birthdayEnabled ? v.birthdayPoints : t("console.programme.rules.off")],
              ["pointValue", `NT$${v.pointValue}`],
            ] as const
          ).map(([key, shown]) => (
            <div key={key} className="flex justify-between gap-4 border-b border-line/60 py-1">
              <dt className="text-muted">{t(`console.programme.rules.${key}`)}</dt>
              <dd className="tabular-nums">{shown}</dd>
            </div>
          ))}
        </dl>
        <h3 className="mt-6 font-semibold">{t("console.programme.rules.fixedTitle")}</h3>
        <p className="mt-1 text-sm text-muted">{t("console.programme.rules.fixedLead")}</p>
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm" data-testid="rules-fixed">
          <li>{t("console.programme.rules.fixed.window")}</li>
          <li>{t("console.programme.rules.fixed.downgrade")}</li>
          <li>{t("console.programme.rules.fixed.expiry")}</li>
        </ul>
      </section>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="new-title">
        <h2 id="new-title" className="text-lg font-semibold">
          {t("console.programme.rules.newTitle")}
        </h2>
        <Form method="post" className="mt-4 space-y-6" noValidate>
          <input type="hidden" name="baseVersion" value={form.value("baseVersion", String(loaderData.baseVersion))} />
          {state?.preview ? <input type="hidden" name="previewToken" value={state.preview.token} /> : null}
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 font-medium">{t("console.programme.rules.earnTitle")}</legend>
            {num("amountPerPoint", t("console.programme.rules.amountPerPoint"))}
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 font-medium">{t("console.programme.rules.tiersTitle")}</legend>
            {num("silverSpend", t("console.programme.rules.silverSpend"))}
            {num("goldSpend", t("console.programme.rules.goldSpend"))}
            <div className="hidden sm:block" />
            {num(
              "basicMultiplier",
              t("console.programme.rules.basicMultiplier"),
              t("console.programme.rules.multiplierHint"),
            )}
            {num(
              "silverMultiplier",
              t("console.programme.rules.silverMultiplier"),
              t("console.programme.rules.multiplierHint"),
            )}
            {num(
              "goldMultiplier",
              t("console.programme.rules.goldMultiplier"),
              t("console.programme.rules.multiplierHint"),
            )}
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 font-medium">{t("console.programme.rules.giftsTitle")}</legend>
            <div className="space-y-2">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="welcomeEnabled"
                  defaultChecked={checked("welcomeEnabled")}
                  className="size-4 accent-brand-700"
                />
                {t("console.programme.rules.welcomeEnabled")}
              </label>
              {num("welcomePoints", t("console.programme.rules.welcomePoints"))}
            </div>
            <div className="space-y-2">
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  name="birthdayEnabled"
                  defaultChecked={checked("birthdayEnabled")}
                  className="size-4 accent-brand-700"
                />
                {t("console.programme.rules.birthdayEnabled")}
              </label>
              {num("birthdayPoints", t("console.programme.rules.birthdayPoints"))}
            </div>
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-2 font-medium">{t("console.programme.rules.valueTitle")}</legend>
            {num("pointValue", t("console.programme.rules.pointValue"), t("console.programme.rules.pointValueHint"))}
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-3">
            <Field
              label={t("console.programme.rules.effectiveDate")}
              description={t("console.programme.rules.effectiveHint")}
              errors={form.errors("effectiveDate")}
              inputProps={{
                name: "effectiveDate",
                type: "date",
                required: true,
                min: loaderData.today,
                defaultValue: value("effectiveDate") || loaderData.today,
              }}
            />
            <Field
              className="sm:col-span-2"
              label={t("console.programme.rules.note")}
              description={t("console.programme.rules.noteHint")}
              errors={form.errors("note")}
              inputProps={{ name: "note", maxLength: 200, defaultValue: value("note") }}
            />
          </div>
          {state?.preview ? <ImpactPreview preview={state.preview} /> : null}
          <StepUpField show={Boolean(state?.stepUp)} errors={form.errors("stepUpCode")} />
          <div className="flex flex-wrap gap-3">
            <Button
              type="submit"
              name="intent"
              value="preview"
              variant={state?.preview ? "secondary" : "primary"}
              pending={pending}
            >
              {t("console.programme.rules.preview")}
            </Button>
            {state?.preview ? (
              <Button type="submit" name="intent" value="save">
                {t("console.programme.rules.save")}
              </Button>
            ) : null}
          </div>
        </Form>
      </section>

      <section className="mt-6 rounded-2xl border border-line bg-white p-5" aria-labelledby="history-title">
        <h2 id="history-title" className="text-lg font-semibold">
          {t("console.programme.rules.history")}
        </h2>
        <TableScroll labelledBy="history-title" className="mt-3">
          <table className="w-full min-w-[48rem] text-left text-sm" data-testid="rules-history">
            <thead className="border-b border-line text-muted">
              <tr>
                {(["version", "from", "earn", "tiers", "multipliers", "gifts", "value", "note"] as const).map((c) => (
                  <th key={c} scope="col" className="py-2 pr-4 font-medium">
                    {t(`console.programme.rules.col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {loaderData.history.map((h) => (
                <tr key={h.id} data-testid="rules-version">
                  <td className="py-2 pr-4 tabular-nums whitespace-nowrap">
                    #{h.id}
                    <span
                      className={cn(
                        "mt-0.5 block w-fit rounded-full px-2 py-0.5 text-xs",
                        h.state === "scheduled"
                          ? "bg-brand-50 text-brand-800"
                          : h.state === "current"
                            ? "bg-success-50 text-success-700"
                            : "text-muted",
                      )}
                    >
                      {t(`console.programme.rules.state.${h.state}` as "console.programme.rules.state.current")}
                    </span>
                  </td>
                  <td className="py-2 pr-4 tabular-nums">{when(h.effectiveFrom)}</td>
                  <td className="py-2 pr-4 tabular-nums">
                    {t("console.programme.rules.perPoint", { amount: h.values.amountPerPoint ?? "" })}
                  </td>
                  <td className="py-2 pr-4 tabular-nums">
                    {Number(h.values.silverSpend).toLocaleString("en-US")} /{" "}
                    {Number(h.values.goldSpend).toLocaleString("en-US")}
                  </td>
                  <td className="py-2 pr-4 tabular-nums">
                    {h.values.basicMultiplier} / {h.values.silverMultiplier} / {h.values.goldMultiplier}
                  </td>
                  <td className="py-2 pr-4 tabular-nums">
                    {h.values.welcomeEnabled ? h.values.welcomePoints : t("console.programme.rules.off")} /{" "}
                    {h.values.birthdayEnabled ? h.values.birthdayPoints : t("console.programme.rules.off")}
                  </td>
                  <td className="py-2 pr-4 tabular-nums">NT${h.values.pointValue}</td>
                  <td className="max-w-[14rem] py-2 pr-4 break-words">
                    {h.defaults ? t("console.programme.rules.defaultsNote") : (h.note ?? "")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
    </ConsolePage>
  );
}
