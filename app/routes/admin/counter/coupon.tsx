import type { RewardKind } from "@platform/db/schema/loyalty";
import { data, Form, useNavigation, useSubmit } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { asRefusal, counterActor, requireStore } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { Done } from "~/components/console/counter-ui";
import { QrScan } from "~/components/console/qr-scan";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { buttonVariants } from "~/components/ui/button-variants";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { type CouponAtCounter, couponAtCounter, couponById } from "~/domain/counter/counter.server";
import { isFormKey, newFormKey, oncePerForm } from "~/domain/counter/idempotency.server";
import { couponState } from "~/domain/loyalty/coupon-state";
import { useCoupon } from "~/domain/loyalty/rewards.server";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { formatNumber, type MessageKey, useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatLastValidDay } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/coupon";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.coupon.title");

type ShownCoupon = {
  code: string;
  rewardName: string;
  kind: RewardKind;
  amountOff: number | null;
  expiresAt: string;
  memberId: string;
  memberNumber: string;
  maskedName: string;
  /** Why it cannot be used here now (null: it can). */
  blocked: MessageKey | null;
};

function shown(found: CouponAtCounter, storeId: string, now: Date): ShownCoupon {
  const state = couponState(found.coupon, now);
  const blocked: MessageKey | null =
    state === "used"
      ? "console.counter.error.couponUsed"
      : state === "cancelled"
        ? "console.counter.error.couponCancelled"
        : state === "expired"
          ? "console.counter.error.couponExpired"
          : found.storeIds && !found.storeIds.includes(storeId)
            ? "console.counter.error.couponWrongStore"
            : null;
  return {
    code: found.coupon.code,
    rewardName: found.rewardName,
    kind: found.kind,
    amountOff: found.amountOff,
    expiresAt: found.coupon.expiresAt.toISOString(),
    memberId: found.member.id,
    memberNumber: found.member.memberNumber,
    maskedName: found.member.maskedName,
    blocked,
  };
}

/**
 * Use a coupon in two steps (ADR 022): find it (scanned or typed code: a POST, so the code stays out
 * of the address and the request log; or `?id=` from the member's list), see what it is and whether
 * it can be used here, then confirm (the engine's useCoupon decides, once per form key).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { storeId } = counterActor(context, "counter.coupon");
  const store = requireStore(storeId);
  const app = getApp(context);
  const id = new URL(request.url).searchParams.get("id");
  const found = id ? await couponById(app.db, id) : null;
  return {
    formKey: newFormKey(),
    coupon: found ? shown(found, store, requestNow(request, app.config)) : null,
  };
}

export type CouponUsed = { code: string; rewardName: string; memberNumber: string; replayed: boolean };

export async function action({ request, context }: Route.ActionArgs) {
  const { actor, storeId } = counterActor(context, "counter.coupon");
  const store = requireStore(storeId);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form, ["formKey"]);
  const code = String(form.get("code") ?? "")
    .trim()
    .slice(0, 64);
  if (!code) return data({ errors: { code: [t("console.counter.code.required")] }, values }, { status: 400 });
  const now = requestNow(request, app.config);
  const found = await couponAtCounter(app.db, code);
  if (!found) {
    return data(
      { errors: { code: [t("console.counter.error.couponNotFound")] }, values, code: "coupon_not_found" },
      { status: 404 },
    );
  }
  if (form.get("intent") !== "use") return { coupon: shown(found, store, now) };

  const key = form.get("formKey");
  if (!isFormKey(key))
    return data({ errors: {}, values, formError: t("console.counter.form.expired") }, { status: 400 });
  try {
    const outcome = await oncePerForm(
      app.db,
      { userId: actor.userId, key, action: "counter.coupon", fields: { code: found.coupon.code, storeId: store } },
      async (): Promise<CouponUsed> => {
        await useCoupon(
          app.db,
          { code: found.coupon.code, storeId: store, staffUserId: actor.userId, audit: consoleAudit(context, request) },
          now,
        );
        return {
          code: found.coupon.code,
          rewardName: found.rewardName,
          memberNumber: found.member.memberNumber,
          replayed: false,
        };
      },
    );
    if (outcome.kind === "reused") {
      return data({ errors: {}, values, formError: t("console.counter.form.stale") }, { status: 409 });
    }
    if (outcome.kind === "in_progress") {
      return data({ errors: {}, values, formError: t("console.counter.form.inProgress") }, { status: 409 });
    }
    return { used: outcome.value };
  } catch (error) {
    const refusal = asRefusal(error);
    return data(
      { errors: {}, values, formError: t(refusal.key), code: refusal.code, coupon: shown(found, store, now) },
      { status: refusal.status },
    );
  }
}

export default function CounterCoupon({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const submit = useSubmit();
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const used = actionData && "used" in actionData ? actionData.used : null;
  const coupon = (actionData && "coupon" in actionData ? actionData.coupon : null) ?? loaderData.coupon;

  if (used) {
    return (
      <ConsolePage
        pace="counter"
        width="3xl"
        back={{ to: "/admin/counter", label: t("console.counter.back") }}
        title={t("console.counter.coupon.title")}
      >
        <div className="mt-6 space-y-4">
          <Done title={t("console.counter.coupon.done")} testId="coupon-done">
            <p className="text-xl font-semibold">{used.rewardName}</p>
            <p className="mt-1 text-muted">{used.memberNumber}</p>
          </Done>
          <div className="flex flex-wrap gap-3">
            <Link to="/admin/counter" className={buttonVariants({ variant: "primary", size: "lg" })}>
              {t("console.counter.back")}
            </Link>
            <Link to="/admin/counter/coupon" className={buttonVariants({ variant: "secondary", size: "lg" })}>
              {t("console.counter.coupon.another")}
            </Link>
          </div>
        </div>
      </ConsolePage>
    );
  }

  return (
    <ConsolePage
      pace="counter"
      width="3xl"
      back={{ to: "/admin/counter", label: t("console.counter.back") }}
      title={t("console.counter.coupon.title")}
      lead={t("console.counter.coupon.lead")}
    >
      {coupon ? (
        <Form
          method="post"
          className="mt-6 space-y-4 rounded-3xl border-2 border-ink/80 bg-white p-5 sm:p-6"
          data-testid="coupon-details"
        >
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <input type="hidden" name="formKey" value={loaderData.formKey} />
          <input type="hidden" name="code" value={coupon.code} />
          <p className="text-2xl font-semibold">{coupon.rewardName}</p>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 text-sm sm:grid-cols-3">
            <div>
              <dt className="text-muted">{t("console.counter.coupon.reward")}</dt>
              <dd className="font-medium">
                {coupon.kind === "amount-off" && coupon.amountOff !== null
                  ? t("console.counter.coupon.amountOff", { amount: formatNumber(coupon.amountOff, locale) })
                  : t("console.counter.coupon.gift")}
              </dd>
            </div>
            <div>
              <dt className="text-muted">{t("console.counter.coupon.member")}</dt>
              <dd className="font-medium">
                {coupon.maskedName} · {coupon.memberNumber}
              </dd>
            </div>
            <div>
              <dt className="text-muted">{t("console.counter.coupon.expires")}</dt>
              <dd className="font-medium">{formatLastValidDay(coupon.expiresAt, locale)}</dd>
            </div>
          </dl>
          {coupon.blocked && !form.formError ? (
            <Alert tone="error">
              <span data-testid="coupon-blocked">{t(coupon.blocked)}</span>
            </Alert>
          ) : null}
          {coupon.blocked ? null : (
            <Button type="submit" name="intent" value="use" size="lg" block pending={pending}>
              {t("console.counter.coupon.confirm")}
            </Button>
          )}
        </Form>
      ) : null}
      <section className="mt-6 space-y-4 rounded-3xl border border-line bg-white p-5 sm:p-6">
        <QrScan
          label={t("console.counter.scan.openCoupon")}
          testId="coupon-scan"
          onResult={(text) => submit({ code: text, intent: "find" }, { method: "post" })}
        />
        <p className="flex items-center gap-3 text-sm text-muted" aria-hidden>
          <span className="h-px flex-1 bg-line" />
          {t("console.counter.find.or")}
          <span className="h-px flex-1 bg-line" />
        </p>
        <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="find" />
          <Field
            className="flex-1"
            label={t("console.counter.coupon.code")}
            errors={form.errors("code")}
            inputProps={{
              name: "code",
              type: "text",
              autoComplete: "off",
              autoCapitalize: "characters",
              spellCheck: false,
              required: true,
              maxLength: 64,
              defaultValue: form.value("code"),
              className: "min-h-12 font-mono text-lg",
            }}
          />
          <Button type="submit" size="lg" variant="secondary" className="sm:mt-7">
            {t("console.counter.coupon.find")}
          </Button>
        </Form>
      </section>
    </ConsolePage>
  );
}
