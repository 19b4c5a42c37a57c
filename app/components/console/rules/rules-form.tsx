import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { useFormState } from "~/lib/use-form-state";
import { StepUpField } from "../step-up-field";
import { useConsoleT } from "../use-console-t";
import { RulesImpact, type RulesPreview } from "./rules-impact";

/**
 * The form of a new version of the rules: earning, tiers, gifts, point value, the effective day and a note. It
 * starts from `defaults` (the newest version) and, after a refused or previewed submission, shows what was typed.
 * "Preview impact" first; saving is offered with a preview of exactly these values (and asks the second factor).
 */
export function RulesForm({
  defaults,
  today,
  baseVersion,
  rewardChoices,
}: {
  defaults: Record<string, string>;
  today: string;
  baseVersion: number;
  /** The catalogue rewards a referral coupon may be (ADR 053). */
  rewardChoices: { id: string; name: string }[];
}) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const state = form.state as { preview?: RulesPreview; stepUp?: boolean } | undefined;
  const typed = Boolean(form.state?.values);
  const value = (f: string) => (typed ? form.value(f) : (defaults[f] ?? ""));
  const num = (name: string, description?: string) => (
    <Field
      label={t(`console.programme.rules.${name}` as "console.programme.rules.note")}
      description={description}
      errors={form.errors(name)}
      inputProps={{ name, required: true, inputMode: "decimal", defaultValue: value(name) }}
    />
  );
  const gift = (kind: "welcome" | "birthday" | "keptVisit") => (
    <div className="space-y-2">
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name={`${kind}Enabled`}
          defaultChecked={typed ? form.value(`${kind}Enabled`) === "on" : defaults[`${kind}Enabled`] === "on"}
          className="size-4 accent-brand-700"
        />
        {t(`console.programme.rules.${kind}Enabled`)}
      </label>
      {num(`${kind}Points`)}
    </div>
  );
  const multiplierHint = t("console.programme.rules.multiplierHint");
  return (
    <Form method="post" className="mt-4 space-y-6" noValidate>
      <input type="hidden" name="baseVersion" value={form.value("baseVersion", String(baseVersion))} />
      {state?.preview ? <input type="hidden" name="previewToken" value={state.preview.token} /> : null}
      <Group legend={t("console.programme.rules.earnTitle")}>{num("amountPerPoint")}</Group>
      <Group legend={t("console.programme.rules.tiersTitle")}>
        {num("silverSpend")}
        {num("goldSpend")}
        <div className="hidden sm:block" />
        {num("basicMultiplier", multiplierHint)}
        {num("silverMultiplier", multiplierHint)}
        {num("goldMultiplier", multiplierHint)}
      </Group>
      <Group legend={t("console.programme.rules.giftsTitle")} columns="sm:grid-cols-2">
        {gift("welcome")}
        {gift("birthday")}
        {/* Points for a kept showroom visit (issue 37, ADR 045), default off. */}
        <div className="sm:col-span-2">
          {gift("keptVisit")}
          <p className="mt-1 text-sm text-muted">{t("console.programme.rules.keptVisitHint")}</p>
        </div>
      </Group>
      {/* The referral programme (issue 38, ADR 053). */}
      <Group legend={t("console.programme.rules.referralTitle")}>
        <label className="flex items-center gap-2 text-sm sm:col-span-3">
          <input
            type="checkbox"
            name="referralEnabled"
            defaultChecked={typed ? form.value("referralEnabled") === "on" : defaults.referralEnabled === "on"}
            className="size-4 accent-brand-700"
          />
          {t("console.programme.rules.referralEnabled")}
        </label>
        {num("referralMinAmount")}
        {num("referralMonthlyCap")}
        {num("referralWindowDays", t("console.programme.rules.referralWindowHint"))}
        {/* Trade accounts (issue 38 part 2, ADR 057): a setting of the referral programme. */}
        {num("tradeMultiplier", t("console.programme.rules.tradeMultiplierHint"))}
        {/* The reward: points to each, or a points-free coupon of a catalogue reward to each (ADR 053). */}
        <NativeSelectField
          label={t("console.programme.rules.referralRewardKind")}
          errors={form.errors("referralRewardKind")}
          selectProps={{ name: "referralRewardKind", defaultValue: value("referralRewardKind") || "points" }}
        >
          <option value="points">{t("console.programme.rules.referralRewardKind.points")}</option>
          <option value="coupon">{t("console.programme.rules.referralRewardKind.coupon")}</option>
        </NativeSelectField>
        {num("referralPoints", t("console.programme.rules.referralPointsHint"))}
        <NativeSelectField
          label={t("console.programme.rules.referralRewardId")}
          description={t("console.programme.rules.referralRewardIdHint")}
          errors={form.errors("referralRewardId")}
          selectProps={{ name: "referralRewardId", defaultValue: value("referralRewardId") }}
        >
          <option value="">{t("console.programme.rules.referralRewardNone")}</option>
          {rewardChoices.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
        </NativeSelectField>
      </Group>
      <Group legend={t("console.programme.rules.valueTitle")}>
        {num("pointValue", t("console.programme.rules.pointValueHint"))}
        {num("maxSpendPercent", t("console.programme.rules.maxSpendPercentHint"))}
      </Group>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label={t("console.programme.rules.effectiveDate")}
          description={t("console.programme.rules.effectiveHint")}
          errors={form.errors("effectiveDate")}
          inputProps={{
            name: "effectiveDate",
            type: "date",
            required: true,
            min: today,
            defaultValue: value("effectiveDate") || today,
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
      {state?.preview ? <RulesImpact preview={state.preview} /> : null}
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
  );
}

function Group({
  legend,
  columns = "sm:grid-cols-3",
  children,
}: {
  legend: string;
  columns?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={`grid gap-4 ${columns}`}>
      <legend className="mb-2 font-medium">{legend}</legend>
      {children}
    </fieldset>
  );
}
