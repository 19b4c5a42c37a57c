import { TRADE_KINDS } from "@platform/db/schema/referrals";
import { data, Form, useNavigation } from "react-router";
import { z } from "zod";
import { getApp, toastSettings } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { Page } from "~/components/layout/page";
import { TradeClients } from "~/components/member-center/trade-clients";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { NativeSelectField } from "~/components/ui/native-select";
import { currentRules } from "~/domain/loyalty/rules.server";
import { formatPermille } from "~/domain/programme/rules-form";
import { COMPANY_MAX, maskClientAmount, maskClientName } from "~/domain/referrals/trade";
import { applyForTrade, tradeClientPurchases, tradeStatusOf } from "~/domain/referrals/trade.server";
import { isRefusal } from "~/domain/refusals";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { type MessageKey, useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { redirectWithToast } from "~/lib/toast.server";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/trade";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "trade.title");

/** `?page=N`: a page of the clients' purchases; anything else (text, a NUL byte, a huge number) is a bad request. */
const pageParam = z.union([z.null(), z.string().regex(/^[1-9]\d{0,3}$/)]);

/**
 * Trade accounts (issue 38 part 2, ADR 057): apply with a 統編, a company and a trade kind; the application's state
 * (審核中 / 已核准 / 未核准 with the reason); once approved, the multiplier in force and the clients' purchases (the
 * members this member referred), a page at a time, with the points each earned and the referral reward.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const raw = pageParam.safeParse(new URL(request.url).searchParams.get("page"));
  if (!raw.success) throw data(null, { status: 400, statusText: "Bad Request" });
  const page = raw.data ? Number(raw.data) : 1;
  const now = requestNow(request, app.config);
  const [status, rules] = await Promise.all([tradeStatusOf(app.db, member.id), currentRules(app.db, now)]);
  const clients = status.trade ? await tradeClientPurchases(app.db, member.id, page) : { rows: [], hasMore: false };
  const latest = status.latest;
  return data(
    {
      messages: routeMessages(locale, "trade."),
      trade: status.trade,
      multiplier: formatPermille(rules.tradeMultiplierPermille),
      referralEnabled: rules.referralEnabled,
      latest: latest
        ? {
            state: latest.state,
            reason: latest.reason,
            companyName: latest.companyName,
            taxIdNumber: latest.taxIdNumber,
            kind: latest.kind,
            createdAt: latest.createdAt.toISOString(),
          }
        : null,
      page,
      hasMore: clients.hasMore,
      clients: clients.rows.map((r) => ({
        id: r.id,
        client: maskClientName(r.clientName),
        store: r.storeName ? pick(r.storeName, locale) : "",
        amount: maskClientAmount(r.netAmount),
        refunded: r.refundedAmount > 0,
        at: r.purchasedAt.toISOString(),
        clientPoints: r.clientPoints,
        referrerPoints: r.referrerPoints,
        reversed: r.reversed,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

function applicationSchema(t: ReturnType<typeof serverT>) {
  return z.object({
    taxIdNumber: z
      .string()
      .default("")
      .pipe(z.string().trim().min(1, t("trade.error.tax_id_required"))),
    companyName: z
      .string()
      .default("")
      .pipe(
        z.string().trim().min(1, t("trade.error.company_required")).max(COMPANY_MAX, t("trade.error.invalid_company")),
      ),
    kind: z.enum(TRADE_KINDS, { error: t("trade.error.invalid_kind") }),
  });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(applicationSchema(t), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("trade.error.form") });
  try {
    await applyForTrade(app.db, { memberId: member.id, ...parsed.data }, requestNow(request, app.config));
  } catch (error) {
    if (!isRefusal(error, "trade")) throw error;
    const message = t(error.messageKey);
    return formFailure(
      error.field
        ? { errors: { [error.field]: [message] }, values: formValues(form), formError: t("trade.error.form") }
        : { errors: {}, values: formValues(form), formError: message },
      error.status,
    );
  }
  return redirectWithToast(toastSettings(context), "/member-center/trade", {
    type: "success",
    message: "notice.tradeApplied",
  });
}

export default function TradePage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const canApply = !d.trade && d.latest?.state !== "pending";
  return (
    <Page title={t("trade.title")} lead={t("trade.lead")} width="narrow">
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <Link to="/member-center" className="text-sm font-semibold text-brand-700 underline underline-offset-4">
          {t("trade.toCenter")}
        </Link>
        <Link to="/member-center/invite" className="text-sm font-semibold text-brand-700 underline underline-offset-4">
          {t("trade.toInvite")}
        </Link>
      </div>

      {d.latest ? (
        <section
          aria-labelledby="trade-status"
          className="mt-6 rounded-2xl border border-line bg-white px-4 py-4"
          data-testid="trade-status"
          data-state={d.latest.state}
        >
          <h2 id="trade-status" className="text-lg font-semibold">
            {t(`trade.state.${d.latest.state}` as MessageKey)}
          </h2>
          <p className="mt-1 text-sm text-muted">
            {d.latest.companyName} · {d.latest.taxIdNumber} · {t(`trade.kind.${d.latest.kind}` as MessageKey)} ·{" "}
            {t("trade.appliedOn", { date: formatTaipei(d.latest.createdAt, locale) })}
          </p>
          {d.latest.state === "pending" ? <p className="mt-2">{t("trade.pendingLead")}</p> : null}
          {d.latest.state === "rejected" ? (
            <p className="mt-2" data-testid="trade-reason">
              {t("trade.rejectedReason", { reason: d.latest.reason ?? "" })}
            </p>
          ) : null}
          {d.trade ? (
            <p className="mt-2" data-testid="trade-multiplier">
              {d.multiplier === "1" ? t("trade.multiplierOff") : t("trade.multiplierOn", { multiplier: d.multiplier })}
            </p>
          ) : null}
        </section>
      ) : null}

      {canApply ? (
        <Form method="post" className="mt-6 space-y-4" noValidate aria-labelledby="trade-apply">
          <h2 id="trade-apply" className="text-lg font-semibold">
            {d.latest?.state === "rejected" ? t("trade.applyAgain") : t("trade.apply")}
          </h2>
          <p className="text-sm text-muted">{t("trade.applyLead")}</p>
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          <Field
            label={t("trade.field.taxIdNumber")}
            description={t("trade.field.taxIdHint")}
            errors={form.errors("taxIdNumber")}
            inputProps={{
              name: "taxIdNumber",
              inputMode: "numeric",
              autoComplete: "off",
              maxLength: 12,
              required: true,
              defaultValue: form.value("taxIdNumber"),
            }}
          />
          <Field
            label={t("trade.field.companyName")}
            errors={form.errors("companyName")}
            inputProps={{
              name: "companyName",
              autoComplete: "organization",
              maxLength: COMPANY_MAX,
              required: true,
              defaultValue: form.value("companyName"),
            }}
          />
          <NativeSelectField
            label={t("trade.field.kind")}
            errors={form.errors("kind")}
            selectProps={{ name: "kind", required: true, defaultValue: form.value("kind", "designer") }}
          >
            {TRADE_KINDS.map((k) => (
              <option key={k} value={k}>
                {t(`trade.kind.${k}` as MessageKey)}
              </option>
            ))}
          </NativeSelectField>
          <Button type="submit" className="w-full" disabled={pending}>
            {t("trade.submit")}
          </Button>
        </Form>
      ) : null}

      {d.trade ? <TradeClients t={t} locale={locale} page={d.page} hasMore={d.hasMore} clients={d.clients} /> : null}
    </Page>
  );
}
