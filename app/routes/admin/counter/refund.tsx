import { data, Form, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { asRefusal, counterActor, parseAmount, parseReceipt, requireStore } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { Done, Money, StatTile } from "~/components/console/counter-ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { purchaseById, purchaseForRefund } from "~/domain/counter/counter.server";
import { isFormKey, newFormKey, oncePerForm } from "~/domain/counter/idempotency.server";
import { refundReversal } from "~/domain/loyalty/earn";
import { refundPurchase } from "~/domain/loyalty/purchases.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/refund";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.refund.title");

/**
 * Refund in two steps (ADR 022): find the purchase by its receipt number at this store (GET), then,
 * with an amount, the points it reverses are shown (the engine's own refundReversal) beside the
 * confirm button; only the confirmation (POST) books.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { storeId } = counterActor(context, "counter.refund");
  const store = requireStore(storeId);
  const app = getApp(context);
  const t = serverT(request);
  const url = new URL(request.url);
  const receiptText = url.searchParams.get("receipt");
  const amountText = url.searchParams.get("amount");
  const base = { receipt: receiptText ?? "", amount: amountText ?? "", formKey: newFormKey() };
  if (receiptText === null) return { ...base, found: null, preview: null, errors: {} };
  const receipt = parseReceipt(receiptText);
  if (!receipt.ok)
    return data({ ...base, found: null, preview: null, errors: { receipt: [t(receipt.key)] } }, { status: 400 });
  let lookup: Awaited<ReturnType<typeof purchaseForRefund>>;
  try {
    lookup = await purchaseForRefund(app.db, store, receipt.value);
  } catch (error) {
    const refusal = asRefusal(error);
    return data(
      { ...base, found: null, preview: null, errors: { receipt: [t(refusal.key)] } },
      { status: refusal.status },
    );
  }
  const found = lookup.purchase;
  const shown = {
    id: found.id,
    receiptNumber: found.receiptNumber,
    purchasedAt: found.purchasedAt.toISOString(),
    memberNumber: lookup.memberNumber,
    netAmount: found.netAmount,
    refundedAmount: found.refundedAmount,
    pointsEarned: found.pointsEarned,
    refundable: found.netAmount - found.refundedAmount,
    balance: lookup.balance,
  };
  if (amountText === null) return { ...base, found: shown, preview: null, errors: {} };
  const amount = parseAmount(amountText);
  if (!amount.ok)
    return data({ ...base, found: shown, preview: null, errors: { amount: [t(amount.key)] } }, { status: 400 });
  if (amount.value > shown.refundable) {
    return data(
      { ...base, found: shown, preview: null, errors: { amount: [t("console.counter.error.refundExceeds")] } },
      { status: 422 },
    );
  }
  const { reverse } = refundReversal(found, amount.value);
  return {
    ...base,
    found: shown,
    preview: { amount: amount.value, reverse, balanceAfter: lookup.balance - reverse },
    errors: {},
  };
}

export type RefundBooked = {
  receiptNumber: string;
  amount: number;
  pointsReversed: number;
  balance: number;
  refundedAmount: number;
  replayed: boolean;
};

/** Books the refund through the engine, once per form key, only for a purchase of this store. */
export async function action({ request, context }: Route.ActionArgs) {
  const { actor, storeId } = counterActor(context, "counter.refund");
  const store = requireStore(storeId);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form, ["formKey"]);
  const amount = parseAmount(form.get("amount"));
  if (!amount.ok) return data({ errors: { amount: [t(amount.key)] }, values }, { status: 400 });
  const key = form.get("formKey");
  if (!isFormKey(key))
    return data({ errors: {}, values, formError: t("console.counter.form.expired") }, { status: 400 });
  let found: Awaited<ReturnType<typeof purchaseById>>;
  try {
    found = await purchaseById(app.db, String(form.get("purchaseId") ?? ""));
  } catch (error) {
    const refusal = asRefusal(error);
    return data({ errors: {}, values, formError: t(refusal.key) }, { status: refusal.status });
  }
  // Another store's purchase: the permission at that store decides (403), and even an admin refunds
  // only at the store they are working at now.
  requirePermission(actor, "counter.refund", { storeId: found.storeId });
  if (found.storeId !== store) {
    return data({ errors: {}, values, formError: t("console.counter.refund.otherStore") }, { status: 403 });
  }
  const now = requestNow(request, app.config);
  try {
    const outcome = await oncePerForm(
      app.db,
      { userId: actor.userId, key, action: "counter.refund", fields: { purchaseId: found.id, amount: amount.value } },
      async (): Promise<RefundBooked> => {
        const result = await refundPurchase(
          app.db,
          {
            purchaseId: found.id,
            amount: amount.value,
            idempotencyKey: `console:${actor.userId}:${key}`,
            staffUserId: actor.userId,
            audit: consoleAudit(context, request),
          },
          now,
        );
        return {
          receiptNumber: result.purchase.receiptNumber,
          amount: result.refund.amount,
          pointsReversed: result.pointsReversed,
          balance: result.balance,
          refundedAmount: result.purchase.refundedAmount,
          replayed: result.replayed,
        };
      },
    );
    if (outcome.kind === "reused") {
      return data({ errors: {}, values, formError: t("console.counter.form.stale") }, { status: 409 });
    }
    if (outcome.kind === "in_progress") {
      return data({ errors: {}, values, formError: t("console.counter.form.inProgress") }, { status: 409 });
    }
    return { refunded: outcome.value };
  } catch (error) {
    const refusal = asRefusal(error);
    return data({ errors: {}, values, formError: t(refusal.key), code: refusal.code }, { status: refusal.status });
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
  const points = (n: number) => t("console.counter.points", { points: formatNumber(n, locale) });

  if (refunded) {
    return (
      <ConsolePage
        pace="counter"
        width="3xl"
        back={{ to: "/admin/counter", label: t("console.counter.back") }}
        title={t("console.counter.refund.title")}
      >
        <div className="mt-6 space-y-4">
          <Done title={t("console.counter.refund.done")} testId="refund-done">
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
              <StatTile
                className="col-span-2"
                label={t("console.counter.purchase.newBalance")}
                value={points(refunded.balance)}
                testId="refund-balance"
              />
            </dl>
          </Done>
          <Link to="/admin/counter" className={buttonVariants({ variant: "primary", size: "lg" })}>
            {t("console.counter.back")}
          </Link>
        </div>
      </ConsolePage>
    );
  }

  return (
    <ConsolePage
      pace="counter"
      width="3xl"
      back={{ to: "/admin/counter", label: t("console.counter.back") }}
      title={t("console.counter.refund.title")}
      lead={t("console.counter.refund.lead")}
    >
      <Form
        method="get"
        className="mt-6 flex flex-col gap-3 rounded-3xl border border-line bg-white p-5 sm:flex-row sm:items-start sm:p-6"
      >
        <Field
          className="flex-1"
          label={t("console.counter.purchase.receipt")}
          errors={errors.receipt}
          inputProps={{
            name: "receipt",
            type: "text",
            autoComplete: "off",
            required: true,
            maxLength: 40,
            defaultValue: loaderData.receipt,
            className: "min-h-12 text-lg",
          }}
        />
        <Button type="submit" size="lg" variant="secondary" className="sm:mt-7">
          {t("console.counter.refund.find")}
        </Button>
      </Form>

      {found ? (
        <section
          aria-labelledby="purchase-title"
          className="mt-5 rounded-3xl border border-line bg-white p-5 sm:p-6"
          data-testid="refund-purchase"
        >
          <h2 id="purchase-title" className="text-lg font-semibold">
            {t("console.counter.refund.purchase")}
          </h2>
          <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
            <Pair label={t("console.counter.purchase.receipt")} value={found.receiptNumber} />
            <Pair
              label={t("console.counter.refund.purchasedAt")}
              value={formatTaipei(found.purchasedAt, locale, "dateTime")}
            />
            <Pair label={t("console.counter.refund.member")} value={found.memberNumber} />
            <Pair label={t("console.counter.refund.net")} value={<Money amount={found.netAmount} />} />
            <Pair label={t("console.counter.refund.already")} value={<Money amount={found.refundedAmount} />} />
            <Pair label={t("console.counter.refund.earned")} value={points(found.pointsEarned)} />
          </dl>
          {found.refundable <= 0 ? (
            <Alert className="mt-4">{t("console.counter.refund.nothingLeft")}</Alert>
          ) : (
            <Form method="get" className="mt-5 space-y-3">
              <input type="hidden" name="receipt" value={found.receiptNumber} />
              <Field
                label={t("console.counter.refund.amount")}
                description={`${t("console.counter.refund.refundable")} NT$${formatNumber(found.refundable, locale)}`}
                errors={errors.amount}
                inputProps={{
                  name: "amount",
                  type: "text",
                  inputMode: "numeric",
                  autoComplete: "off",
                  required: true,
                  maxLength: 16,
                  defaultValue: loaderData.amount,
                  className: "min-h-12 text-2xl tabular-nums",
                }}
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
      ) : null}

      {found && preview ? (
        <Form
          method="post"
          className="mt-5 space-y-4 rounded-3xl border-2 border-ink/80 bg-white p-5 sm:p-6"
          data-testid="refund-preview"
        >
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {form.errors("amount") ? <Alert tone="error">{form.errors("amount")?.join(" ")}</Alert> : null}
          <input type="hidden" name="formKey" value={loaderData.formKey} />
          <input type="hidden" name="purchaseId" value={found.id} />
          <input type="hidden" name="amount" value={preview.amount} />
          <p className="text-2xl font-semibold" data-testid="reversal">
            {t("console.counter.refund.reversal", { points: formatNumber(preview.reverse, locale) })}
          </p>
          <p className="text-muted">
            {t("console.counter.refund.balanceAfter", {
              before: formatNumber(found.balance, locale),
              after: formatNumber(preview.balanceAfter, locale),
            })}
          </p>
          <Button type="submit" variant="danger" size="lg" block pending={pending}>
            {t("console.counter.refund.confirm", { amount: formatNumber(preview.amount, locale) })}
          </Button>
        </Form>
      ) : null}
    </ConsolePage>
  );
}

function Pair({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted">{label}</dt>
      <dd className="font-medium break-words">{value}</dd>
    </div>
  );
}
