import type { CounterDay } from "~/domain/counter/counter.server";
import { useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useConsoleT } from "../use-console-t";
import { CounterRow, ListPanel, usePurchaseNote } from "./lists";
import { Money, StatTile } from "./ui";

/** This store's day at the counter: the totals, then today's purchases, refunds and coupon uses. */
export function DayList({ store, today, day }: { store: string; today: string; day: CounterDay }) {
  const t = useConsoleT();
  const locale = useLocale();
  const purchaseNote = usePurchaseNote();
  const { totals } = day;
  const time = (iso: string) => formatTaipei(iso, locale, "time");
  const empty = t("console.counter.day.empty");
  return (
    <section aria-labelledby="day-title" className="mt-8" data-testid="counter-day">
      <h2 id="day-title" className="font-serif text-2xl font-semibold">
        {t("console.counter.day.title")}
      </h2>
      <p className="mt-1 text-sm text-muted" data-testid="counter-day-store">
        {t("console.counter.day.lead", { store, date: formatTaipei(today, locale, "date") })}
      </p>
      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatTile
          label={t("console.counter.day.totalSales")}
          value={<Money amount={totals.sales} />}
          note={t("console.counter.day.count", { count: totals.purchases })}
          testId="total-sales"
        />
        <StatTile
          label={t("console.counter.day.totalPoints")}
          value={t("console.counter.points", { points: totals.pointsEarned })}
          note={
            totals.pointsReversed > 0
              ? t("console.counter.day.reversedNote", { points: totals.pointsReversed })
              : undefined
          }
          testId="total-points"
        />
        <StatTile
          label={t("console.counter.day.totalRefunded")}
          value={<Money amount={totals.refunded} />}
          note={t("console.counter.day.count", { count: totals.refunds })}
          testId="total-refunded"
        />
        <StatTile
          label={t("console.counter.day.totalCoupons")}
          value={String(totals.couponUses)}
          testId="total-coupons"
        />
      </dl>
      <div className="mt-5 grid gap-4 xl:grid-cols-3">
        <ListPanel small title={t("console.counter.day.purchases")} empty={empty} testId="day-purchases">
          {day.purchases.map((p) => (
            <CounterRow
              key={p.id}
              time={time(p.at)}
              main={p.receiptNumber}
              sub={p.memberNumber}
              amount={<Money amount={p.netAmount} />}
              extra={purchaseNote(p)}
            />
          ))}
        </ListPanel>
        <ListPanel small title={t("console.counter.day.refunds")} empty={empty} testId="day-refunds">
          {day.refunds.map((r) => (
            <CounterRow
              key={r.id}
              time={time(r.at)}
              main={r.receiptNumber}
              amount={<Money amount={-r.amount} />}
              extra={`−${t("console.counter.points", { points: r.pointsReversed })}`}
            />
          ))}
        </ListPanel>
        <ListPanel small title={t("console.counter.day.coupons")} empty={empty} testId="day-coupons">
          {day.couponUses.map((c) => (
            <CounterRow key={c.id} time={time(c.at)} main={c.rewardName} sub={c.memberNumber} />
          ))}
        </ListPanel>
      </div>
    </section>
  );
}
