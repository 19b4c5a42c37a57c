import { useState } from "react";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import type { PurchaseBooked } from "~/domain/counter/bookings.server";
import { type EarnRules, pointsForAmount } from "~/domain/loyalty/earn";
import { decideSpend, type SpendRules } from "~/domain/loyalty/spend";
import { formatNumber, useLocale } from "~/lib/i18n";
import { useFormState } from "~/lib/use-form-state";
import { useConsoleT } from "../use-console-t";
import { CounterField } from "./forms";
import { Facts, Money, StatTile, TierBadge, usePoints } from "./ui";

/** The purchase form's fields (ADR 022): the member's tier and balance, receipt and amount, the points it earns. */
export function PurchaseFields({
  tier,
  trade,
  balance,
  earn,
  spend,
  store,
  scan,
  codeSent,
}: {
  tier: "basic" | "silver" | "gold";
  /** A trade account (ADR 057): the preview multiplies as the engine does. */
  trade: boolean;
  balance: number;
  earn: EarnRules;
  spend: SpendRules;
  store: string;
  /** The card's scan pass (ADR 052): with it no code; without it a spend of points needs the member's code. */
  scan: string | null;
  codeSent: { points: number; netAmount: number } | null;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const points = usePoints();
  const form = useFormState();
  const [amountText, setAmountText] = useState(form.value("netAmount"));
  const digits = amountText.replace(/[\s,]/g, "");
  const typed = /^\d{1,12}$/.test(digits) ? Number(digits) : null;
  // Paying with points (issue 36): the engine's own decideSpend on the typed amount and points.
  const [pointsText, setPointsText] = useState(form.value("pointsToSpend"));
  const pointsDigits = pointsText.replace(/[\s,]/g, "");
  const typedPoints = pointsDigits === "" ? 0 : /^\d{1,9}$/.test(pointsDigits) ? Number(pointsDigits) : null;
  const decision = typed !== null && typed > 0 ? decideSpend(spend, balance, typed, typedPoints ?? 0) : null;
  const spendable = decision && !decision.problem ? decision : null;
  const preview =
    typed !== null && typed > 0 ? pointsForAmount(earn, tier, spendable ? spendable.toPay : typed, trade) : null;
  const pointValue = (spend.pointValueCents / 100).toString();
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <TierBadge tier={tier} />
        <span className="text-sm text-muted">
          {t("console.counter.member.balance")} {points(balance)}
        </span>
      </div>
      <CounterField
        kind="receipt"
        name="receiptNumber"
        label={t("console.counter.purchase.receipt")}
        errors={form.errors("receiptNumber")}
        input={{ defaultValue: form.value("receiptNumber") }}
      />
      <CounterField
        kind="amount"
        name="netAmount"
        label={t("console.counter.purchase.amount")}
        errors={form.errors("netAmount")}
        input={{ value: amountText, onChange: (e) => setAmountText(e.currentTarget.value) }}
      />
      {spend.maxSpendPercent > 0 ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <CounterField
            kind="amount"
            name="pointsToSpend"
            className="flex-1"
            label={t("console.counter.points.label")}
            description={
              decision
                ? t("console.counter.points.max", {
                    points: formatNumber(decision.maxPoints, locale),
                    value: pointValue,
                    percent: String(spend.maxSpendPercent),
                  })
                : t("console.counter.points.maxEmpty")
            }
            // A refusal stays beside the points it was about; edited since, the preview line speaks instead.
            errors={pointsText === form.value("pointsToSpend") ? form.errors("pointsToSpend") : null}
            input={{
              required: false,
              value: pointsText,
              onChange: (e) => setPointsText(e.currentTarget.value),
              "aria-describedby": "points-to-pay",
            }}
          />
          <Button
            type="button"
            variant="secondary"
            size="lg"
            className="sm:mt-7"
            disabled={!decision || decision.maxPoints === 0}
            onClick={() => setPointsText(decision ? String(decision.maxPoints) : "")}
          >
            {t("console.counter.points.useMax")}
          </Button>
        </div>
      ) : null}
      {scan ? <input type="hidden" name="scan" value={scan} /> : null}
      {spend.maxSpendPercent > 0 && (typedPoints ?? 0) > 0 ? (
        <SpendCodeFields scanned={scan !== null} codeSent={codeSent} />
      ) : null}
      <p id="points-to-pay" className="text-lg" aria-live="polite" data-testid="points-to-pay">
        {decision && typedPoints !== null && typedPoints > decision.maxPoints
          ? t("console.counter.points.overMax", { points: formatNumber(decision.maxPoints, locale) })
          : spendable
            ? t("console.counter.points.toPay", { amount: formatNumber(spendable.toPay, locale) })
            : null}
      </p>
      <p
        className="rounded-2xl bg-sand/70 px-4 py-3 text-lg font-medium"
        aria-live="polite"
        data-testid="points-preview"
      >
        {preview !== null
          ? t("console.counter.purchase.preview", { points: formatNumber(preview, locale) })
          : t("console.counter.purchase.previewEmpty")}
      </p>
      <Facts
        items={[
          { label: t("console.counter.purchase.store"), value: store, testId: "purchase-store" },
          { label: t("console.counter.purchase.time"), value: t("console.counter.purchase.now") },
        ]}
      />
    </>
  );
}

/**
 * The member's confirmation of a spend (ADR 052): with the card scanned, a line saying none is needed; otherwise the
 * button that sends the member a code (to their member center) and the field the clerk types it in.
 */
function SpendCodeFields({
  scanned,
  codeSent,
}: {
  scanned: boolean;
  codeSent: { points: number; netAmount: number } | null;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  if (scanned) {
    return (
      <p className="text-sm text-muted" data-testid="spend-scanned">
        {t("console.counter.spendCode.scanned")}
      </p>
    );
  }
  return (
    <div className="space-y-3 rounded-2xl border border-line p-4" data-testid="spend-code">
      {codeSent ? (
        <Alert tone="success">
          <span data-testid="spend-code-sent">
            {t("console.counter.spendCode.sent", {
              points: formatNumber(codeSent.points, locale),
              amount: formatNumber(codeSent.netAmount, locale),
              minutes: "5",
            })}
          </span>
        </Alert>
      ) : (
        <p className="text-base">{t("console.counter.spendCode.needed")}</p>
      )}
      <Button type="submit" name="intent" value="send-code" variant="secondary" size="lg" formNoValidate>
        {t("console.counter.spendCode.send")}
      </Button>
      <CounterField
        kind="amount"
        name="spendCode"
        label={t("console.counter.spendCode.label")}
        errors={form.errors("spendCode")}
        input={{
          required: false,
          maxLength: 7,
          autoComplete: "one-time-code",
          defaultValue: form.value("spendCode"),
          // Enter here books the purchase (the form's first button would send another code).
          onKeyDown: (e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            e.currentTarget.form?.requestSubmit();
          },
        }}
      />
    </div>
  );
}

/** What a booked purchase shows: a tier reached, a retry answered, the points earned and the new balance. */
export function PurchaseDone({ booked }: { booked: PurchaseBooked }) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <>
      {booked.tierUp ? (
        <Alert tone="success" className="mb-4">
          <span data-testid="tier-up">
            {t("console.counter.purchase.tierUp", { tier: t(`console.counter.tier.${booked.tier}`) })}
          </span>
        </Alert>
      ) : null}
      {booked.replayed ? (
        <Alert tone="info" className="mb-4">
          {t("console.counter.purchase.replayed")}
        </Alert>
      ) : null}
      <dl className="grid grid-cols-2 gap-3">
        {booked.pointsSpent > 0 ? (
          <>
            <StatTile
              label={t("console.counter.points.spent")}
              value={
                <span className="flex flex-col">
                  <span className="text-3xl">−{formatNumber(booked.pointsSpent, locale)}</span>
                  <span className="text-sm text-muted">
                    {t("console.counter.points.spentValue", { amount: formatNumber(booked.pointsSpentValue, locale) })}
                  </span>
                </span>
              }
              testId="points-spent"
            />
            <StatTile
              label={t("console.counter.points.paid")}
              value={<Money amount={booked.amountPaid} />}
              testId="amount-paid"
            />
          </>
        ) : null}
        <StatTile
          label={t("console.counter.purchase.earned")}
          value={<span className="text-3xl">+{formatNumber(booked.pointsEarned, locale)}</span>}
          testId="points-earned"
        />
        <StatTile
          label={t("console.counter.purchase.newBalance")}
          value={<span className="text-3xl">{formatNumber(booked.balance, locale)}</span>}
          testId="new-balance"
        />
        <StatTile
          className="col-span-2"
          label={t("console.counter.purchase.receipt")}
          value={
            <span className="flex flex-wrap justify-between gap-2">
              <span className="break-all">{booked.receiptNumber}</span>
              <Money amount={booked.netAmount} />
            </span>
          }
        />
      </dl>
    </>
  );
}
