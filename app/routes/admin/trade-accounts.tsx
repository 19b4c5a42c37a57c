import { data, redirect, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { PageNumbers } from "~/components/console/pager";
import {
  TradeApplicationCard,
  type TradeAsking,
  TradeDecisionStepUp,
} from "~/components/console/referrals/trade-application-card";
import { PageNotices } from "~/components/console/staff/post-forms";
import { useConsoleT } from "~/components/console/use-console-t";
import { Link } from "~/components/ui/link";
import { currentRules } from "~/domain/loyalty/rules.server";
import { formatPermille } from "~/domain/programme/rules-form";
import {
  decideTradeApplication,
  TRADE_LIST_PAGE,
  tradeApplications,
  tradeDecisionRefusal,
} from "~/domain/referrals/trade.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/trade-accounts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.trade.title");

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const query = z.object({
  page: z.union([z.null(), z.string().regex(/^[1-9]\d{0,3}$/)]),
  done: z.union([z.null(), z.enum(["approved", "rejected"])]).catch(null),
});

/**
 * Trade accounts' applications (issue 38 part 2, ADR 057): pending first (the longest waiting on top), then the
 * decided ones; approve, or reject with a reason. Admins only (`programme.edit`, as the referral programme whose
 * setting trade accounts are); each decision is audited in its transaction. A malformed page (a NUL byte) is a 400.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "programme.edit");
  const app = getApp(context);
  const params = new URL(request.url).searchParams;
  const parsed = query.safeParse({ page: params.get("page"), done: params.get("done") });
  if (!parsed.success) throw data(null, { status: 400, statusText: "Bad Request" });
  const page = parsed.data.page ? Number(parsed.data.page) : 1;
  const [list, rules] = await Promise.all([
    tradeApplications(app.db, page),
    currentRules(app.db, requestNow(request, app.config)),
  ]);
  return {
    page,
    pages: Math.max(1, Math.ceil(list.total / TRADE_LIST_PAGE)),
    pending: list.pending,
    done: parsed.data.done,
    multiplier: formatPermille(rules.tradeMultiplierPermille),
    rows: list.rows.map((r) => ({
      ...r,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
    })),
  };
}

const decisionSchema = z.object({
  intent: z.enum(["approve", "reject"]),
  applicationId: z.string().regex(UUID),
  reason: z.string().default(""),
});

/**
 * A decision asks for the second factor when the last code is old, as the other decisions on money and standing do
 * (requireRecentSecondFactorFor, ADR 023; ADR 057 "Later"): after the form's own refusals (a rejection without a
 * reason is told beside its field, no code spent), before the decision. The code is asked in the application's card.
 */
export async function action({ request, context }: Route.ActionArgs) {
  requirePermission(context, "programme.edit");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const parsed = parseForm(decisionSchema, form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("trade.error.not_found") });
  const { intent, applicationId, reason } = parsed.data;
  const refused = tradeDecisionRefusal({ decision: intent, reason });
  if (refused) return consoleFailure(refused, form, t);
  const stepUp = await requireRecentSecondFactorFor(context, request, form);
  if (!stepUp.ok) return stepUp.answer;
  try {
    await decideTradeApplication(
      app.db,
      stepUp.actor,
      { decision: intent, applicationId, reason },
      consoleAudit(context, request),
      requestNow(request, app.config),
    );
  } catch (error) {
    return consoleFailure(error, form, t);
  }
  return redirect(`/admin/trade-accounts?done=${intent === "approve" ? "approved" : "rejected"}`);
}

export default function TradeAccounts({ loaderData: d }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const busy = useNavigation().state !== "idle";
  const posted = form.value("applicationId");
  // The step-up answer: the code is asked in the card of the application it decides (above the list if it is gone).
  const asking: TradeAsking | null =
    form.state && "stepUp" in form.state
      ? {
          applicationId: posted,
          intent: form.value("intent") === "reject" ? "reject" : "approve",
          reason: form.value("reason"),
          errors: form.errors("stepUpCode"),
        }
      : null;
  const askingRow = d.rows.find((row) => row.id === asking?.applicationId && row.state === "pending") ?? null;
  const href = (p: number) => (p > 1 ? `/admin/trade-accounts?page=${p}` : "/admin/trade-accounts");
  return (
    <ConsolePage
      width="5xl"
      title={t("console.trade.title")}
      lead={t("console.trade.lead", { pending: d.pending })}
      notices={
        <PageNotices
          done={d.done && !form.state ? t(`console.trade.done.${d.done}`) : null}
          error={form.formError && !form.errors("reason") ? form.formError : null}
        >
          {asking && !askingRow ? <TradeDecisionStepUp asking={asking} row={null} /> : null}
        </PageNotices>
      }
    >
      <p className="mt-2 text-sm" data-testid="trade-multiplier">
        {d.multiplier === "1"
          ? t("console.trade.multiplierOff")
          : t("console.trade.multiplierOn", { multiplier: d.multiplier })}{" "}
        <Link to="/admin/rules">{t("console.referrals.toRules")}</Link>
      </p>
      {d.rows.length === 0 ? (
        <p className="mt-6 text-sm text-muted" data-testid="trade-empty">
          {t("console.trade.empty")}
        </p>
      ) : (
        <ul className="mt-6 space-y-4" aria-label={t("console.trade.title")} data-testid="trade-applications">
          {d.rows.map((row) => (
            <TradeApplicationCard
              key={row.id}
              row={row}
              locale={locale}
              errors={posted === row.id ? form.errors("reason") : null}
              reasonTyped={posted === row.id ? form.value("reason") : ""}
              busy={busy}
              asking={askingRow?.id === row.id ? asking : null}
            />
          ))}
        </ul>
      )}
      {d.pages > 1 ? (
        <PageNumbers
          label={t("console.trade.title")}
          status={t("console.trade.pageStatus", { page: d.page, pages: d.pages })}
          prevHref={d.page > 1 ? href(d.page - 1) : null}
          nextHref={d.page < d.pages ? href(d.page + 1) : null}
          prevLabel={t("console.trade.prev")}
          nextLabel={t("console.trade.next")}
        />
      ) : null}
    </ConsolePage>
  );
}
