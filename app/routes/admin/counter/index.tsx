import { data, Form, redirect, useNavigation, useSubmit } from "react-router";
import { getApp } from "~/adapters/context.server";
import { asRefusal, counterActor } from "~/adapters/counter.server";
import { ConsolePage } from "~/components/console/console-page";
import { Money, StatTile } from "~/components/console/counter-ui";
import { QrScan } from "~/components/console/qr-scan";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { counterDay, storeName } from "~/domain/counter/counter.server";
import { findMemberAtCounter, type MemberQuery } from "~/domain/loyalty/member-lookup.server";
import { normalizeTaiwanMobile } from "~/domain/members/taiwan";
import { hasPermission } from "~/domain/staff/permissions";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { type Translate, useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.counter.title");

/** The counter's start: find the member (camera or typed), the other tasks, and this store's day. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const locale = getLocale(request);
  const [day, name] = storeId ? await Promise.all([counterDay(app.db, storeId, now), storeName(app.db, storeId)]) : [];
  return {
    store: storeId ? { id: storeId, name: pick(name ?? null, locale) || storeId } : null,
    today: now.toISOString(),
    day: day ?? null,
    can: {
      refund: hasPermission(actor, "counter.refund", { storeId }),
      coupon: hasPermission(actor, "counter.coupon", { storeId }),
    },
  };
}

const CARD_TOKEN = /^[A-Za-z0-9_-]{27}\.[A-Za-z0-9_-]{22}$/;

/** Looks the member up (card token, phone in any spelling sign-up accepts, or member number) and opens the summary. */
export async function action({ request, context }: Route.ActionArgs) {
  const { storeId } = counterActor(context, "member.view");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const cardToken = String(form.get("cardToken") ?? "").trim();
  const typed = String(form.get("query") ?? "").trim();
  const field = cardToken ? "cardToken" : "query";
  const values = { query: typed.slice(0, 60) };
  if (!storeId) return data({ errors: {}, values, formError: t("console.counter.store.none") }, { status: 409 });
  if (!cardToken && !typed) {
    return data({ errors: { query: [t("common.required")] }, values }, { status: 400 });
  }
  let query: MemberQuery;
  if (cardToken) query = { cardToken: cardToken.slice(0, 200) };
  else if (CARD_TOKEN.test(typed)) query = { cardToken: typed };
  else if (normalizeTaiwanMobile(typed)) query = { phone: typed };
  else query = { memberNumber: typed.slice(0, 40) };
  try {
    const found = await findMemberAtCounter(app.db, query, {
      cardSecret: app.config.secrets.session,
      now: requestNow(request, app.config),
    });
    return redirect(`/admin/counter/member/${found.id}`);
  } catch (error) {
    const refusal = asRefusal(error);
    const message = t(refusal.key);
    return data(
      field === "cardToken"
        ? { errors: {}, values, formError: message, code: refusal.code }
        : { errors: { query: [message] }, values, code: refusal.code },
      { status: refusal.status },
    );
  }
}

export default function Counter({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const submit = useSubmit();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod === "POST";
  const { store, day, can } = loaderData;
  return (
    <ConsolePage pace="counter" width="5xl" title={t("console.counter.title")} lead={t("console.counter.lead")}>
      {store ? null : (
        <Alert tone="info" className="mt-6">
          {t("console.counter.store.none")}
        </Alert>
      )}
      <div className="mt-6 grid gap-5 md:grid-cols-[3fr_2fr]">
        <section aria-labelledby="find-title" className="rounded-3xl border border-line bg-white p-5 sm:p-6">
          <h2 id="find-title" className="text-lg font-semibold">
            {t("console.counter.find.title")}
          </h2>
          {form.formError ? (
            <Alert tone="error" className="mt-4">
              {form.formError}
            </Alert>
          ) : null}
          <div className="mt-4">
            <QrScan
              label={t("console.counter.scan.open")}
              testId="member-scan"
              onResult={(text) => submit({ cardToken: text }, { method: "post" })}
            />
          </div>
          <p className="my-4 flex items-center gap-3 text-sm text-muted" aria-hidden>
            <span className="h-px flex-1 bg-line" />
            {t("console.counter.find.or")}
            <span className="h-px flex-1 bg-line" />
          </p>
          <Form method="post" className="flex flex-col gap-3 sm:flex-row sm:items-start">
            <Field
              className="flex-1"
              label={t("console.counter.find.query")}
              description={t("console.counter.find.queryHint")}
              errors={form.errors("query")}
              inputProps={{
                name: "query",
                type: "text",
                inputMode: "text",
                autoComplete: "off",
                required: true,
                maxLength: 60,
                defaultValue: form.value("query"),
                className: "min-h-12 text-lg",
              }}
            />
            <Button type="submit" size="lg" className="sm:mt-7" pending={pending}>
              {t("console.counter.find.submit")}
            </Button>
          </Form>
        </section>
        <section aria-labelledby="tasks-title" className="space-y-3">
          <h2 id="tasks-title" className="sr-only">
            {t("console.counter.actions")}
          </h2>
          {can.refund ? (
            <TaskLink to="/admin/counter/refund" title={t("console.counter.refund.link")}>
              {t("console.counter.refund.linkHint")}
            </TaskLink>
          ) : null}
          {can.coupon ? (
            <TaskLink to="/admin/counter/coupon" title={t("console.counter.coupon.link")}>
              {t("console.counter.coupon.linkHint")}
            </TaskLink>
          ) : null}
        </section>
      </div>
      {store && day ? <DayList store={store.name} today={loaderData.today} day={day} t={t} locale={locale} /> : null}
    </ConsolePage>
  );
}

function TaskLink({ to, title, children }: { to: string; title: string; children: React.ReactNode }) {
  return (
    <Link
      to={to}
      className="flex min-h-16 flex-col justify-center rounded-3xl border border-line bg-white px-5 py-4 hover:border-brand-700/40 hover:bg-sand/40"
    >
      <span className="text-lg font-semibold">{title}</span>
      <span className="text-sm text-muted">{children}</span>
    </Link>
  );
}

type Day = NonNullable<Route.ComponentProps["loaderData"]["day"]>;

function DayList({
  store,
  today,
  day,
  t,
  locale,
}: {
  store: string;
  today: string;
  day: Day;
  t: Translate;
  locale: string;
}) {
  const { totals } = day;
  const time = (iso: string) => formatTaipei(iso, locale, "time");
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
        <DaySection
          title={t("console.counter.day.purchases")}
          empty={t("console.counter.day.empty")}
          testId="day-purchases"
        >
          {day.purchases.map((p) => (
            <DayRow
              key={p.id}
              time={time(p.at)}
              main={p.receiptNumber}
              sub={p.memberNumber}
              amount={<Money amount={p.netAmount} />}
              extra={
                p.refundedAmount > 0
                  ? t("console.counter.day.refundedPart", { amount: p.refundedAmount.toLocaleString(locale) })
                  : `+${t("console.counter.points", { points: p.pointsEarned })}`
              }
            />
          ))}
        </DaySection>
        <DaySection
          title={t("console.counter.day.refunds")}
          empty={t("console.counter.day.empty")}
          testId="day-refunds"
        >
          {day.refunds.map((r) => (
            <DayRow
              key={r.id}
              time={time(r.at)}
              main={r.receiptNumber}
              amount={<Money amount={-r.amount} />}
              extra={`−${t("console.counter.points", { points: r.pointsReversed })}`}
            />
          ))}
        </DaySection>
        <DaySection
          title={t("console.counter.day.coupons")}
          empty={t("console.counter.day.empty")}
          testId="day-coupons"
        >
          {day.couponUses.map((c) => (
            <DayRow key={c.id} time={time(c.at)} main={c.rewardName} sub={c.memberNumber} />
          ))}
        </DaySection>
      </div>
    </section>
  );
}

function DaySection({
  title,
  empty,
  testId,
  children,
}: {
  title: string;
  empty: string;
  testId: string;
  children: React.ReactNode[];
}) {
  return (
    <section className="min-w-0 rounded-3xl border border-line bg-white p-4" data-testid={testId}>
      <h3 className="font-semibold">{title}</h3>
      {children.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{empty}</p>
      ) : (
        <ul className="mt-2 divide-y divide-line">{children}</ul>
      )}
    </section>
  );
}

function DayRow({
  time,
  main,
  sub,
  amount,
  extra,
}: {
  time: string;
  main: string;
  sub?: string;
  amount?: React.ReactNode;
  extra?: string;
}) {
  return (
    <li className="flex items-start justify-between gap-3 py-2.5 text-sm">
      <div className="min-w-0">
        <p className="truncate font-medium">{main}</p>
        <p className="text-muted">
          <span className="tabular-nums">{time}</span>
          {sub ? <span className="ml-2 break-words">{sub}</span> : null}
        </p>
      </div>
      <div className="shrink-0 text-right">
        {amount ? <p className="font-medium tabular-nums">{amount}</p> : null}
        {extra ? <p className="text-muted">{extra}</p> : null}
      </div>
    </li>
  );
}
