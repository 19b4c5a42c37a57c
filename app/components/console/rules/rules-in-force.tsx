import { DetailSection } from "../detail-section";
import { useConsoleT } from "../use-console-t";

/** The version in force (and the one scheduled next), its values, and the rules no version changes. */
export function RulesInForce({
  line,
  values: v,
}: {
  /** "Version #n from …" (and the scheduled one). */
  line: string;
  values: Record<string, string>;
}) {
  const t = useConsoleT();
  const off = t("console.programme.rules.off");
  const shown = [
    ["amountPerPoint", v.amountPerPoint],
    ["silverSpend", Number(v.silverSpend).toLocaleString("en-US")],
    ["goldSpend", Number(v.goldSpend).toLocaleString("en-US")],
    ["basicMultiplier", `× ${v.basicMultiplier}`],
    ["silverMultiplier", `× ${v.silverMultiplier}`],
    ["goldMultiplier", `× ${v.goldMultiplier}`],
    ["welcomePoints", v.welcomeEnabled ? v.welcomePoints : off],
    ["birthdayPoints", v.birthdayEnabled ? v.birthdayPoints : off],
    ["keptVisitPoints", v.keptVisitEnabled ? v.keptVisitPoints : off],
    ["pointValue", `NT$${v.pointValue}`],
    ["maxSpendPercent", `${v.maxSpendPercent}%`],
    // The referral programme (issue 38, ADR 053).
    [
      "referralTitle",
      v.referralEnabled
        ? `NT$${Number(v.referralMinAmount).toLocaleString("en-US")} → ${
            v.referralRewardName ? `「${v.referralRewardName}」` : v.referralPoints
          } · ≤ ${v.referralMonthlyCap} · ${v.referralWindowDays}d`
        : off,
    ],
    // Trade accounts (issue 38 part 2, ADR 057).
    ["tradeMultiplier", Number(v.tradeMultiplier) > 1 ? `× ${v.tradeMultiplier}` : off],
  ] as const;
  return (
    <DetailSection id="current-title" title={t("console.programme.rules.current")} className="mt-6">
      <p className="mt-1 text-sm text-muted" data-testid="rules-in-force">
        {line}
      </p>
      <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {shown.map(([key, value]) => (
          <div key={key} className="flex justify-between gap-4 border-b border-line/60 py-1">
            <dt className="text-muted">{t(`console.programme.rules.${key}`)}</dt>
            <dd className="tabular-nums">{value}</dd>
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
    </DetailSection>
  );
}
