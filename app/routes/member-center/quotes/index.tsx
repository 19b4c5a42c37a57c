import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { Page } from "~/components/layout/page";
import { QuoteStatusBadge } from "~/components/quotes/quote-status";
import { buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { memberQuotes } from "~/domain/quotes/quotes.server";
import { quoteState } from "~/domain/quotes/status";
import { requestNow } from "~/lib/clock.server";
import { formatNumber, useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "member.center.quotes.title");

/** The member's quotes, newest first, with their state (an answer past its validity reads as expired). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const now = requestNow(request, app.config);
  const quotes = await memberQuotes(app.db, member.id);
  return data(
    {
      messages: routeMessages(locale, "member.center.quotes."),
      quotes: quotes.map((q) => ({
        id: q.id,
        reference: q.reference,
        state: quoteState(q, now),
        store: pick(q.storeName, locale),
        createdAt: q.createdAt.toISOString(),
        total: q.total,
        lines: q.lines,
      })),
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function MemberQuotesPage({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  return (
    <Page title={t("member.center.quotes.title")} lead={t("member.center.quotes.lead")} width="narrow">
      <div className="-mt-4 mb-6 flex flex-wrap items-center justify-between gap-3">
        <Link
          to={links["member-center"]()}
          className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline"
        >
          {t("member.center.quotes.back")}
        </Link>
        <Link to={links.newQuote()} className={buttonVariants({ size: "sm" })}>
          {t("member.center.quotes.new")}
        </Link>
      </div>
      {d.quotes.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-line px-4 py-6 text-center text-muted">
          {t("member.center.quotes.empty")}
        </p>
      ) : (
        <ul className="space-y-3" data-testid="member-quotes">
          {d.quotes.map((q) => (
            <li key={q.id}>
              <Link
                to={links.memberQuote(q.id)}
                className="block rounded-2xl border border-line bg-white p-4 hover:border-brand-300 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
                data-testid="member-quote"
              >
                <span className="flex flex-wrap items-center justify-between gap-2">
                  <span className="font-semibold tracking-wider tabular-nums">{q.reference}</span>
                  <QuoteStatusBadge state={q.state} label={t(`member.center.quotes.status.${q.state}`)} />
                </span>
                <span className="mt-1 block text-sm text-muted">
                  {q.store} · {t("member.center.quotes.lines", { count: q.lines })} ·{" "}
                  {t("member.center.quotes.created", { date: formatTaipei(q.createdAt, locale, "date") })}
                </span>
                {q.total !== null ? (
                  <span className="mt-1 block font-semibold tabular-nums">
                    {t("member.center.quotes.total", {
                      total: formatNumber(q.total, locale === "en" ? "en-US" : "zh-TW"),
                    })}
                  </span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
