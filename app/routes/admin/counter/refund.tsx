import { data, useNavigation } from "react-router";
import {
  bookOnce,
  counterAction,
  counterFailure,
  counterForm,
  counterPage,
  counterRefusal,
  queryForm,
} from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { BookingForm, FindForm } from "~/components/console/counter/forms";
import { RefundDone, RefundPurchase, RefundReversal } from "~/components/console/counter/refund";
import { Done, panelClass } from "~/components/console/counter/ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { bookRefund, type Refundable, refundable, refundPreview } from "~/domain/counter/bookings.server";
import { purchaseById } from "~/domain/counter/counter.server";
import { amountQuerySchema, receiptQuerySchema, refundSchema } from "~/domain/counter/forms.server";
import { newFormKey } from "~/domain/counter/idempotency.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { cn } from "~/lib/cn";
import { parseForm } from "~/lib/forms.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/refund";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.refund.title");

/**
 * Refund in two steps (ADR 022): find the purchase by its receipt number at this store (GET), then,
 * with an amount, the points it reverses are shown (the engine's own refundReversal) beside the
 * confirm button; only the confirmation (POST) books.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { store, db, t } = counterPage(context, request, "counter.refund");
  const query = queryForm(request);
  const page = {
    receipt: String(query.get("receipt") ?? ""),
    amount: String(query.get("amount") ?? ""),
    formKey: newFormKey(),
    found: null as Refundable | null,
    preview: null as ReturnType<typeof refundPreview> | null,
  };
  const ok = { errors: {} as Record<string, string[] | undefined> };
  if (!query.has("receipt")) return { ...page, ...ok };
  const receipt = parseForm(receiptQuerySchema(t), query);
  if (!receipt.ok) return data({ ...page, errors: receipt.failure.errors }, { status: 400 });
  try {
    page.found = await refundable(db, store, receipt.data.receipt);
    if (!query.has("amount")) return { ...page, ...ok };
    const amount = parseForm(amountQuerySchema(t), query);
    if (!amount.ok) return data({ ...page, errors: amount.failure.errors }, { status: 400 });
    page.preview = refundPreview(page.found, amount.data.amount);
    return { ...page, ...ok };
  } catch (error) {
    const fields = { purchase_not_found: "receipt", refund_exceeds_purchase: "amount" };
    return counterFailure(error, { t }, { fields, answer: page });
  }
}

/** Books the refund through the engine, once per form key, only for a purchase of this store. */
export async function action({ request, context }: Route.ActionArgs) {
  const desk = await counterAction(context, request, "counter.refund");
  const parsed = counterForm(refundSchema(desk.t), desk.form);
  if (!parsed.ok) return parsed.answer;
  const { purchaseId, amount, formKey: key } = parsed.data;
  try {
    const found = await purchaseById(desk.db, purchaseId);
    // Another store's purchase: the permission at that store decides (403), and even an admin refunds
    // only at the store they are working at now.
    requirePermission(desk.actor, "counter.refund", { storeId: found.storeId });
    if (found.storeId !== desk.store) return counterRefusal(desk, "console.counter.refund.otherStore", 403);
    const idempotencyKey = `console:${desk.actor.userId}:${key}`;
    return await bookOnce(desk, {
      action: "counter.refund",
      key,
      fields: { purchaseId: found.id, amount },
      run: () => bookRefund(desk.db, desk.clerk, { purchaseId: found.id, amount, idempotencyKey }, desk.now),
      answer: (refunded) => ({ refunded }),
    });
  } catch (error) {
    return counterFailure(error, desk);
  }
}

export default function CounterRefund({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";
  const refunded = actionData && "refunded" in actionData ? actionData.refunded : null;
  const { found, preview } = loaderData;
  const errors = loaderData.errors as Record<string, string[] | undefined>;
  return (
    <ConsolePage
      pace="counter"
      width="3xl"
      back={{ to: "/admin/counter", label: t("console.counter.back") }}
      title={t("console.counter.refund.title")}
      lead={refunded ? undefined : t("console.counter.refund.lead")}
    >
      {refunded ? (
        <Done
          title={t("console.counter.refund.done")}
          testId="refund-done"
          next={[{ to: "/admin/counter", label: t("console.counter.back") }]}
        >
          <RefundDone refunded={refunded} />
        </Done>
      ) : (
        <>
          <FindForm
            method="get"
            className={cn("mt-6", panelClass())}
            submit={{ label: t("console.counter.refund.find"), variant: "secondary" }}
            field={{
              kind: "receipt",
              name: "receipt",
              label: t("console.counter.purchase.receipt"),
              errors: errors.receipt,
              input: { defaultValue: loaderData.receipt },
            }}
          />
          {found ? <RefundPurchase found={found} amount={loaderData.amount} errors={errors.amount} /> : null}
          {found && preview ? (
            <BookingForm
              strong
              testId="refund-preview"
              formKey={loaderData.formKey}
              formError={form.formError}
              hidden={{ purchaseId: found.id, amount: preview.amount }}
            >
              {form.errors("amount") ? <Alert tone="error">{form.errors("amount")?.join(" ")}</Alert> : null}
              <RefundReversal
                balance={found.balance}
                reverse={preview.reverse}
                give={preview.give}
                after={preview.balanceAfter}
              />
              <Button type="submit" variant="danger" size="lg" block pending={pending}>
                {t("console.counter.refund.confirm", { amount: formatNumber(preview.amount, locale) })}
              </Button>
            </BookingForm>
          ) : null}
        </>
      )}
    </ConsolePage>
  );
}
