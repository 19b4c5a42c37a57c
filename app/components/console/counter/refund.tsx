import { Form } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import type { Refundable, RefundBooked } from "~/domain/counter/bookings.server";
import { cn } from "~/lib/cn";
import { formatNumber, useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useConsoleT } from "../use-console-t";
import { CounterField } from "./forms";
import { Facts, Money, panelClass, StatTile, usePoints } from "./ui";

/** The purchase found for a refund (ADR 022): its details, and the amount to refund (a look, not yet a booking). */
export function RefundPurchase({
  found,
  amount,
  errors,
}: {
  found: Refundable;
  amount: string;
  errors?: readonly string[] | null;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  const points = usePoints();
  return (
    <section aria-labelledby="purchase-title" className={cn("mt-5", panelClass())} data-testid="refund-purchase">
      <h2 id="purchase-title" className="text-lg font-semibold">
        {t("console.counter.refund.purchase")}
      </h2>
      <Facts
        className="mt-3 sm:grid-cols-3"
        items={[
          { label: t("console.counter.purchase.receipt"), value: found.receiptNumber },
          {
            label: t("console.counter.refund.purchasedAt"),
            value: formatTaipei(found.purchasedAt, locale, "dateTime"),
          },
          { label: t("console.counter.refund.member"), value: found.memberNumber },
          { label: t("console.counter.refund.net"), value: <Money amount={found.netAmount} /> },
          { label: t("console.counter.refund.already"), value: <Money amount={found.refundedAmount} /> },
          { label: t("console.counter.refund.earned"), value: points(found.pointsEarned) },
          ...(found.pointsSpent > 0
            ? [{ label: t("console.counter.points.spent"), value: points(found.pointsSpent) }]
            : []),
        ]}
      />
      {found.refundable <= 0 ? (
        <Alert className="mt-4">{t("console.counter.refund.nothingLeft")}</Alert>
      ) : (
        <Form method="get" className="mt-5 space-y-3">
          <input type="hidden" name="receipt" value={found.receiptNumber} />
          <CounterField
            kind="amount"
            name="amount"
            label={t("console.counter.refund.amount")}
            description={`${t("console.counter.refund.refundable")} NT$${formatNumber(found.refundable, locale)}`}
            errors={errors}
            input={{ defaultValue: amount }}
          />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" variant="secondary" size="lg">
              {t("console.counter.refund.preview")}
            </Button>
            <Link
              to={`?${new URLSearchParams({ receipt: found.receiptNumber, amount: String(found.refundable) })}`}
              className={buttonVariants({ variant: "ghost", size: "lg" })}
            >
              {t("console.counter.refund.full")}
            </Link>
          </div>
        </Form>
      )}
    </section>
  );
}

/** The points a refund reverses and the balance after it, above the button that books it. */
export function RefundReversal({
  balance,
  reverse,
  give = 0,
  after,
}: {
  balance: number;
  reverse: number;
  /** Spent points given back (issue 36). */
  give?: number;
  after: number;
}) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <>
      <p className="text-2xl font-semibold" data-testid="reversal">
        {t("console.counter.refund.reversal", { points: formatNumber(reverse, locale) })}
      </p>
      {give > 0 ? (
        <p className="text-2xl font-semibold" data-testid="points-return">
          {t("console.counter.points.willReturn", { points: formatNumber(give, locale) })}
        </p>
      ) : null}
      <p className="text-muted">
        {t("console.counter.refund.balanceAfter", {
          before: formatNumber(balance, locale),
          after: formatNumber(after, locale),
        })}
      </p>
    </>
  );
}

/** A booked refund: the amount refunded, the points reversed, the member's balance now. */
export function RefundDone({ refunded }: { refunded: RefundBooked }) {
  const t = useConsoleT();
  const points = usePoints();
  return (
    <dl className="grid grid-cols-2 gap-3">
      <StatTile
        label={t("console.counter.refund.refundedNow")}
        value={<Money amount={refunded.amount} />}
        testId="refund-amount"
      />
      <StatTile
        label={t("console.counter.refund.reversed")}
        value={`−${points(refunded.pointsReversed)}`}
        testId="points-reversed"
      />
      {refunded.pointsReturned > 0 ? (
        <StatTile
          className="col-span-2"
          label={t("console.counter.points.returned")}
          value={`+${points(refunded.pointsReturned)}`}
          testId="points-returned"
        />
      ) : null}
      <StatTile
        className="col-span-2"
        label={t("console.counter.purchase.newBalance")}
        value={points(refunded.balance)}
        testId="refund-balance"
      />
    </dl>
  );
}
