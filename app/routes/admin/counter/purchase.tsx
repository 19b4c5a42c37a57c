import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { asRefusal, counterActor, parseAmount, parseReceipt, requireStore } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { Done, Money, StatTile, TierBadge } from "~/components/console/counter-ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { counterSummary, storeName } from "~/domain/counter/counter.server";
import { isFormKey, newFormKey, oncePerForm } from "~/domain/counter/idempotency.server";
import { pointsForAmount } from "~/domain/loyalty/earn";
import { recordPurchase } from "~/domain/loyalty/purchases.server";
import { TIER_ORDER } from "~/domain/loyalty/rules.server";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { notFound } from "~/lib/http.server";
import { formatNumber, useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/purchase";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.purchase.title");

/** The purchase form: a fresh form key on every render (ADR 022), the member's tier and the earn rules. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { storeId } = counterActor(context, "counter.purchase");
  const app = getApp(context);
  const store = requireStore(storeId);
  const [summary, name] = await Promise.all([
    counterSummary(app.db, params.memberId, store, requestNow(request, app.config)),
    storeName(app.db, store),
  ]);
  if (!summary) notFound(request);
  return {
    member: {
      id: summary.member.id,
      name: summary.member.name,
      memberNumber: summary.member.memberNumber,
      disabled: summary.member.disabled,
    },
    tier: summary.tier,
    balance: summary.balance,
    earn: summary.earn,
    store: pick(name, getLocale(request)) || store,
    formKey: newFormKey(),
  };
}

export type PurchaseBooked = {
  receiptNumber: string;
  netAmount: number;
  pointsEarned: number;
  balance: number;
  tier: "basic" | "silver" | "gold";
  tierUp: boolean;
  replayed: boolean;
};

/** Books the purchase through the engine, once per form key; the audit row is written in its transaction. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const { actor, storeId } = counterActor(context, "counter.purchase");
  const store = requireStore(storeId);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form, ["formKey"]);
  const amount = parseAmount(form.get("netAmount"));
  const receipt = parseReceipt(form.get("receiptNumber"));
  if (!amount.ok || !receipt.ok) {
    const errors: Record<string, string[]> = {};
    if (!receipt.ok) errors.receiptNumber = [t(receipt.key)];
    if (!amount.ok) errors.netAmount = [t(amount.key)];
    return data({ errors, values }, { status: 400 });
  }
  const key = form.get("formKey");
  if (!isFormKey(key))
    return data({ errors: {}, values, formError: t("console.counter.form.expired") }, { status: 400 });
  const now = requestNow(request, app.config);
  const before = await counterSummary(app.db, params.memberId, store, now);
  if (!before) notFound(request);
  try {
    const outcome = await oncePerForm(
      app.db,
      {
        userId: actor.userId,
        key,
        action: "counter.purchase",
        fields: { memberId: params.memberId, storeId: store, receipt: receipt.value, amount: amount.value },
      },
      async (): Promise<PurchaseBooked> => {
        const result = await recordPurchase(
          app.db,
          {
            memberId: params.memberId,
            storeId: store,
            receiptNumber: receipt.value,
            netAmount: amount.value,
            purchasedAt: now,
            staffUserId: actor.userId,
            audit: consoleAudit(context, request),
          },
          now,
          { windowDays: app.config.pos.purchaseWindowDays },
        );
        return {
          receiptNumber: result.purchase.receiptNumber,
          netAmount: result.purchase.netAmount,
          pointsEarned: result.pointsEarned,
          balance: result.balance,
          tier: result.tier,
          tierUp: TIER_ORDER[result.tier] > TIER_ORDER[before.tier],
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
    return { booked: outcome.value };
  } catch (error) {
    const refusal = asRefusal(error);
    const field =
      refusal.code === "invalid_amount" ? "netAmount" : refusal.code === "receipt_conflict" ? "receiptNumber" : null;
    const message = t(refusal.key);
    return data(
      field
        ? { errors: { [field]: [message] }, values, code: refusal.code }
        : { errors: {}, values, formError: message, code: refusal.code },
      { status: refusal.status },
    );
  }
}

export default function CounterPurchase({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { member, earn, tier } = loaderData;
  const [amountText, setAmountText] = useState(form.value("netAmount"));
  const booked = actionData && "booked" in actionData ? actionData.booked : null;
  const typed = /^\d{1,12}$/.test(amountText.replace(/[\s,]/g, "")) ? Number(amountText.replace(/[\s,]/g, "")) : null;
  const preview = typed !== null && typed > 0 ? pointsForAmount(earn, tier, typed) : null;
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
        <div className="mt-6 space-y-4">
          <Done title={t("console.counter.purchase.done")} testId="purchase-done">
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
          </Done>
          <div className="flex flex-wrap gap-3">
            <Link to={memberPath} className={buttonVariants({ variant: "primary", size: "lg" })}>
              {t("console.counter.purchase.toMember")}
            </Link>
            <Link to="/admin/counter" className={buttonVariants({ variant: "secondary", size: "lg" })}>
              {t("console.counter.back")}
            </Link>
          </div>
        </div>
      ) : (
        <Form method="post" className="mt-6 space-y-5 rounded-3xl border border-line bg-white p-5 sm:p-6">
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <input type="hidden" name="formKey" value={loaderData.formKey} />
          <div className="flex flex-wrap items-center gap-3">
            <TierBadge tier={tier} />
            <span className="text-sm text-muted">
              {t("console.counter.member.balance")}{" "}
              {t("console.counter.points", { points: formatNumber(loaderData.balance, locale) })}
            </span>
          </div>
          <Field
            label={t("console.counter.purchase.receipt")}
            errors={form.errors("receiptNumber")}
            inputProps={{
              name: "receiptNumber",
              type: "text",
              autoComplete: "off",
              autoCapitalize: "characters",
              required: true,
              maxLength: 40,
              defaultValue: form.value("receiptNumber"),
              className: "min-h-12 text-lg",
            }}
          />
          <Field
            label={t("console.counter.purchase.amount")}
            errors={form.errors("netAmount")}
            inputProps={{
              name: "netAmount",
              type: "text",
              inputMode: "numeric",
              autoComplete: "off",
              required: true,
              maxLength: 16,
              value: amountText,
              onChange: (e) => setAmountText(e.currentTarget.value),
              className: "min-h-12 text-2xl tabular-nums",
            }}
          />
          <p
            className="rounded-2xl bg-sand/70 px-4 py-3 text-lg font-medium"
            aria-live="polite"
            data-testid="points-preview"
          >
            {preview !== null
              ? t("console.counter.purchase.preview", { points: formatNumber(preview, locale) })
              : t("console.counter.purchase.previewEmpty")}
          </p>
          <dl className="grid grid-cols-2 gap-3 text-sm">
            <div>
              <dt className="text-muted">{t("console.counter.purchase.store")}</dt>
              <dd className="font-medium" data-testid="purchase-store">
                {loaderData.store}
              </dd>
            </div>
            <div>
              <dt className="text-muted">{t("console.counter.purchase.time")}</dt>
              <dd className="font-medium">{t("console.counter.purchase.now")}</dd>
            </div>
          </dl>
          <Button type="submit" size="lg" block pending={pending} disabled={member.disabled}>
            {t("console.counter.purchase.submit")}
          </Button>
        </Form>
      )}
    </ConsolePage>
  );
}
