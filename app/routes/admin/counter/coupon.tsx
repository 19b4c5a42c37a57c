import { useNavigation } from "react-router";
import { bookOnce, counterAction, counterFailure, counterForm, counterPage } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { CouponDetails } from "~/components/console/counter/coupon";
import { BookingForm, FindForm, ScanOrFind } from "~/components/console/counter/forms";
import { Done, panelClass } from "~/components/console/counter/ui";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { bookCouponUse, couponToUse, shownCoupon } from "~/domain/counter/bookings.server";
import { couponById } from "~/domain/counter/counter.server";
import { couponSchema } from "~/domain/counter/forms.server";
import { newFormKey } from "~/domain/counter/idempotency.server";
import { cn } from "~/lib/cn";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/coupon";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.coupon.title");

/**
 * Use a coupon in two steps (ADR 022): find it (scanned or typed code: a POST, so the code stays out
 * of the address and the request log; or `?id=` from the member's list), see what it is and whether
 * it can be used here, then confirm (the engine's useCoupon decides, once per form key).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const page = counterPage(context, request, "counter.coupon");
  const id = new URL(request.url).searchParams.get("id");
  const found = id ? await couponById(page.db, id) : null;
  return { formKey: newFormKey(), coupon: found ? shownCoupon(found, page.store, page.now) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const desk = await counterAction(context, request, "counter.coupon");
  const parsed = counterForm(couponSchema(desk.t), desk.form);
  if (!parsed.ok) return parsed.answer;
  const { code, key } = parsed.data;
  try {
    const found = await couponToUse(desk.db, code);
    const coupon = shownCoupon(found, desk.store, desk.now);
    if (key === null) return { coupon };
    return await bookOnce(desk, {
      action: "counter.coupon",
      key,
      fields: { code: found.coupon.code, storeId: desk.store },
      run: () => bookCouponUse(desk.db, desk.clerk, found, desk.now),
      answer: (used) => ({ used }),
      failure: { answer: { coupon } },
    });
  } catch (error) {
    return counterFailure(error, desk, { fields: { coupon_not_found: "code" } });
  }
}

export default function CounterCoupon({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const used = actionData && "used" in actionData ? actionData.used : null;
  const coupon = (actionData && "coupon" in actionData ? actionData.coupon : null) ?? loaderData.coupon;
  const back = { to: "/admin/counter", label: t("console.counter.back") };
  return (
    <ConsolePage
      pace="counter"
      width="3xl"
      back={back}
      title={t("console.counter.coupon.title")}
      lead={used ? undefined : t("console.counter.coupon.lead")}
    >
      {used ? (
        <Done
          title={t("console.counter.coupon.done")}
          testId="coupon-done"
          next={[back, { to: "/admin/counter/coupon", label: t("console.counter.coupon.another") }]}
        >
          <p className="text-xl font-semibold">{used.rewardName}</p>
          <p className="mt-1 text-muted">{used.memberNumber}</p>
        </Done>
      ) : (
        <>
          {coupon ? (
            <BookingForm
              strong
              testId="coupon-details"
              formKey={loaderData.formKey}
              formError={form.formError}
              hidden={{ code: coupon.code }}
            >
              <CouponDetails coupon={coupon} />
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
            </BookingForm>
          ) : null}
          <section className={cn("mt-6", panelClass())}>
            <ScanOrFind
              scan={{
                label: t("console.counter.scan.openCoupon"),
                testId: "coupon-scan",
                fields: (text) => ({ code: text, intent: "find" }),
              }}
            >
              <FindForm
                method="post"
                hidden={{ intent: "find" }}
                submit={{ label: t("console.counter.coupon.find"), variant: "secondary" }}
                field={{
                  kind: "code",
                  name: "code",
                  label: t("console.counter.coupon.code"),
                  errors: form.errors("code"),
                  input: { defaultValue: form.value("code") },
                }}
              />
            </ScanOrFind>
          </section>
        </>
      )}
    </ConsolePage>
  );
}
