import { ChevronLeft, ChevronRight } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { formatNumber, type Translate } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";

export type TradeClientRow = {
  id: string;
  client: string;
  store: string;
  amount: string;
  refunded: boolean;
  at: string;
  clientPoints: number;
  referrerPoints: number;
  reversed: boolean;
};

/**
 * A trade member's clients' purchases (ADR 057): date (Asia/Taipei), store, the client's name and amount masked, the
 * points the client earned and the referral reward the trade member earned for it; newer and older pages.
 */
export function TradeClients({
  t,
  locale,
  page,
  hasMore,
  clients,
}: {
  t: Translate;
  locale: string;
  page: number;
  hasMore: boolean;
  clients: readonly TradeClientRow[];
}) {
  const pager = "inline-flex min-h-11 items-center gap-1 rounded-full border border-line px-4 text-sm hover:bg-sand";
  return (
    <section aria-labelledby="trade-clients" className="mt-8">
      <h2 id="trade-clients" className="text-lg font-semibold">
        {t("trade.clients.title")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("trade.clients.lead")}</p>
      {clients.length === 0 ? (
        <p className="mt-3 text-muted" data-testid="trade-clients-empty">
          {t("trade.clients.empty")}
        </p>
      ) : (
        <ul className="mt-3 divide-y divide-line rounded-2xl border border-line bg-white" data-testid="trade-clients">
          {clients.map((c) => (
            <li key={c.id} className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1 px-4 py-3">
              <span className="min-w-0">
                <span className="font-medium">{c.client}</span>
                <span className="block text-sm text-muted">
                  <time dateTime={c.at}>{formatTaipei(c.at, locale)}</time>
                  {c.store ? ` · ${c.store}` : ""} · NT$ {c.amount}
                  {c.refunded ? ` · ${t("trade.clients.refunded")}` : ""}
                </span>
              </span>
              <span className="text-right text-sm tabular-nums" data-testid="trade-client-points">
                <span className="block">
                  {t("trade.clients.clientPoints", { points: formatNumber(c.clientPoints, locale) })}
                </span>
                <span className="block font-semibold">
                  {c.referrerPoints > 0
                    ? c.reversed
                      ? t("trade.clients.reversed", { points: formatNumber(c.referrerPoints, locale) })
                      : t("trade.clients.yourPoints", { points: formatNumber(c.referrerPoints, locale) })
                    : t("trade.clients.noReward")}
                </span>
              </span>
            </li>
          ))}
        </ul>
      )}
      {page > 1 || hasMore ? (
        <nav aria-label={t("trade.clients.title")} className="mt-4 flex justify-between gap-3">
          {page > 1 ? (
            <Link to={`/member-center/trade?page=${page - 1}`} className={pager} rel="prev">
              <ChevronLeft className="size-4" />
              {t("trade.clients.newer")}
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link to={`/member-center/trade?page=${page + 1}`} className={pager} rel="next">
              {t("trade.clients.older")}
              <ChevronRight className="size-4" />
            </Link>
          ) : null}
        </nav>
      ) : null}
    </section>
  );
}
