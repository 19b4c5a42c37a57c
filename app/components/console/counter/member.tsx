import { Form } from "react-router";
import { buttonVariants } from "~/components/ui/button-variants";
import { Link } from "~/components/ui/link";
import type { CounterSummary, CounterVisit } from "~/domain/counter/counter.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { formatLastValidDay, formatTaipei } from "~/lib/time";
import { useConsoleT } from "../use-console-t";
import { useCouponReward } from "./coupon";
import { CounterRow, ListPanel, usePurchaseNote } from "./lists";
import { StatTile, usePoints } from "./ui";

/** The member at the counter (ADR 022): points, the phone (masked until revealed), visits and coupons. */

/** A visit with its store's name in the reader's language. */
type Visit = Omit<CounterVisit, "storeName"> & { storeName: string };

export function MemberFigures({ summary }: { summary: Pick<CounterSummary, "balance" | "expiring"> }) {
  const t = useConsoleT();
  const locale = useLocale();
  const points = usePoints();
  const { expiring } = summary;
  return (
    <dl className="grid grid-cols-2 gap-3">
      <StatTile
        className="col-span-2 sm:col-span-1"
        label={t("console.counter.member.balance")}
        value={<span className="text-3xl">{points(summary.balance)}</span>}
        testId="member-balance"
      />
      <StatTile
        className="col-span-2 sm:col-span-1"
        label={t("console.counter.member.expiring")}
        value={
          expiring ? (
            t("console.counter.member.expiringValue", {
              points: formatNumber(expiring.points, locale),
              date: formatLastValidDay(expiring.expiresAt, locale),
            })
          ) : (
            <span className="text-base font-normal text-muted">{t("console.counter.member.noExpiring")}</span>
          )
        }
        testId="member-expiring"
      />
    </dl>
  );
}

/** The phone number, masked; a staff member allowed to reveal it has a button that does (and is audited). */
export function PhoneLine({
  masked,
  revealed,
  canReveal,
  pending,
}: {
  masked: string;
  revealed: string | null;
  canReveal: boolean;
  pending: boolean;
}) {
  const t = useConsoleT();
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-2xl border border-line bg-white px-4 py-3">
      <p className="text-sm text-muted">{t("console.counter.member.phone")}</p>
      <p className="font-mono text-lg tracking-wider" data-testid="member-phone">
        {revealed ?? masked}
      </p>
      {revealed ? <p className="text-sm text-muted">{t("console.counter.member.revealed")}</p> : null}
      {canReveal && !revealed ? (
        <Form method="post" className="ml-auto">
          <button
            type="submit"
            name="intent"
            value="reveal"
            disabled={pending}
            className="min-h-11 rounded-full border border-line px-4 text-sm hover:bg-sand"
          >
            {t("console.counter.member.reveal")}
          </button>
        </Form>
      ) : null}
    </div>
  );
}

export function MemberVisits({ visits }: { visits: Visit[] }) {
  const t = useConsoleT();
  const locale = useLocale();
  const purchaseNote = usePurchaseNote();
  return (
    <ListPanel
      title={t("console.counter.member.visits")}
      empty={t("console.counter.member.noVisits")}
      listTestId="member-visits"
    >
      {visits.map((v) => (
        <CounterRow
          key={v.purchaseId}
          main={v.storeName}
          time={formatTaipei(v.purchasedAt, locale, "dateTime")}
          sub={v.receiptNumber}
          amount={t("console.counter.money", { amount: formatNumber(v.netAmount, locale) })}
          extra={purchaseNote(v)}
        />
      ))}
    </ListPanel>
  );
}

/** The member's coupons, each with a link to use it here (or why it cannot be used here). */
export function MemberCoupons({ coupons, canUse }: { coupons: CounterSummary["coupons"]; canUse: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  const reward = useCouponReward();
  return (
    <ListPanel
      className="h-fit"
      title={t("console.counter.member.coupons")}
      empty={t("console.counter.member.noCoupons")}
      listTestId="member-coupons"
      listClassName="mt-3 space-y-3"
    >
      {coupons.map((c) => (
        <li key={c.id} className="rounded-2xl bg-sand/60 p-3">
          <p className="font-medium">{c.rewardName}</p>
          <p className="text-sm text-muted">
            {reward(c)}
            {" · "}
            {t("console.counter.member.couponExpires", { date: formatLastValidDay(c.expiresAt, locale) })}
          </p>
          {!c.usableHere ? (
            <p className="mt-1 text-sm text-danger-700">{t("console.counter.member.otherStore")}</p>
          ) : canUse ? (
            <Link
              to={`/admin/counter/coupon?id=${c.id}`}
              aria-label={t("console.counter.member.useCouponLabel", { name: c.rewardName })}
              className={`${buttonVariants({ variant: "secondary", size: "sm" })} mt-2 min-h-11`}
            >
              {t("console.counter.member.useCoupon")}
            </Link>
          ) : null}
        </li>
      ))}
    </ListPanel>
  );
}
