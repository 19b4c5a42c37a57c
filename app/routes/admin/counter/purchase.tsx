import { useNavigation } from "react-router";
import {
  bookOnce,
  counterAction,
  counterFailure,
  counterForm,
  counterPage,
  SPEND_FIELDS,
  scanPassOf,
  spendAsker,
} from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { BookingForm } from "~/components/console/counter/forms";
import { PurchaseDone, PurchaseFields } from "~/components/console/counter/purchase";
import { Done } from "~/components/console/counter/ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { Button } from "~/components/ui/button";
import { bookPurchase } from "~/domain/counter/bookings.server";
import { counterSummary, storeName } from "~/domain/counter/counter.server";
import { purchaseSchema } from "~/domain/counter/forms.server";
import { newFormKey } from "~/domain/counter/idempotency.server";
import { confirmSpend, requestSpendCode } from "~/domain/loyalty/spend-codes.server";
import { formValues } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import { getLocale } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/purchase";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.purchase.title");

/** The purchase form: a fresh form key on every render (ADR 022), the member's tier and the earn rules. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const page = counterPage(context, request, "counter.purchase");
  const { store, db, now } = page;
  const [summary, name] = await Promise.all([counterSummary(db, params.memberId, store, now), storeName(db, store)]);
  if (!summary) notFound(request);
  const { id, name: memberName, memberNumber, disabled } = summary.member;
  const scan = new URL(request.url).searchParams.get("scan");
  return {
    // The card's scan pass (ADR 052): with it, points are spent without the member's code.
    scan: scanPassOf(page, id, scan),
    member: { id, name: memberName, memberNumber, disabled },
    tier: summary.tier,
    trade: summary.trade,
    balance: summary.balance,
    earn: summary.earn,
    spend: summary.spend,
    store: pick(name, getLocale(request)) || store,
    formKey: newFormKey(),
  };
}

/** Books the purchase through the engine, once per form key; the audit row is written in its transaction. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const desk = await counterAction(context, request, "counter.purchase");
  const parsed = counterForm(purchaseSchema(desk.t), desk.form);
  if (!parsed.ok) return parsed.answer;
  const { receiptNumber, netAmount, pointsToSpend, spendCode, formKey } = parsed.data;
  const before = await counterSummary(desk.db, params.memberId, desk.store, desk.now);
  if (!before) notFound(request);
  const { memberId } = params;
  const secret = desk.app.config.secrets.session;
  const asker = spendAsker(desk);
  // The member's code for a spend without a card scan (ADR 052): sent to their member center.
  if (desk.form.get("intent") === "send-code") {
    try {
      const sent = await requestSpendCode(
        desk.db,
        secret,
        asker,
        { memberId, points: pointsToSpend, netAmount },
        desk.now,
      );
      return {
        codeSent: { points: sent.points, netAmount: sent.netAmount },
        values: formValues(desk.form, ["formKey"]),
      };
    } catch (error) {
      return counterFailure(error, desk, { fields: SPEND_FIELDS });
    }
  }
  const identifiedBy = scanPassOf(desk, memberId, desk.form.get("scan")) ? "card" : "typed";
  return bookOnce(desk, {
    action: "counter.purchase",
    key: formKey,
    fields: { memberId, storeId: desk.store, receipt: receiptNumber, amount: netAmount, points: pointsToSpend },
    run: async () => {
      const spend = { memberId, points: pointsToSpend, netAmount, identifiedBy, code: spendCode || undefined } as const;
      const spendTicket = await confirmSpend(desk.db, secret, asker, spend, desk.now);
      return bookPurchase(
        desk.db,
        desk.clerk,
        { memberId, receiptNumber, netAmount, pointsToSpend, spendTicket, tierBefore: before.tier },
        desk.now,
        desk.app.config.pos.purchaseWindowDays,
      );
    },
    answer: (booked) => ({ booked }),
    failure: { fields: { invalid_amount: "netAmount", receipt_conflict: "receiptNumber", ...SPEND_FIELDS } },
  });
}

export default function CounterPurchase({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { member } = loaderData;
  const booked = actionData && "booked" in actionData ? actionData.booked : null;
  const codeSent = actionData && "codeSent" in actionData ? actionData.codeSent : null;
  const memberPath = `/admin/counter/member/${member.id}`;
  return (
    <ConsolePage
      pace="counter"
      width="3xl"
      back={{ to: memberPath, label: t("console.counter.purchase.toMember") }}
      title={t("console.counter.purchase.title")}
      lead={t("console.counter.purchase.for", { name: member.name, number: member.memberNumber })}
    >
      {booked ? (
        <Done
          title={t("console.counter.purchase.done")}
          testId="purchase-done"
          next={[
            { to: memberPath, label: t("console.counter.purchase.toMember") },
            { to: "/admin/counter", label: t("console.counter.back") },
          ]}
        >
          <PurchaseDone booked={booked} />
        </Done>
      ) : (
        <BookingForm formKey={loaderData.formKey} formError={form.formError}>
          <PurchaseFields {...loaderData} codeSent={codeSent} />
          <Button type="submit" size="lg" block pending={pending} disabled={member.disabled}>
            {t("console.counter.purchase.submit")}
          </Button>
        </BookingForm>
      )}
    </ConsolePage>
  );
}
