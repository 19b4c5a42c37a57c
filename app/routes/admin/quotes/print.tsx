import { data } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { quoteDocument } from "~/components/quotes/document-data";
import { PrintFrame } from "~/components/quotes/print-frame";
import { QuoteDocument } from "~/components/quotes/quote-document";
import { staffQuote } from "~/domain/quotes/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { parseParam } from "~/lib/http.server";
import { useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/print";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "member.center.quotes.doc.title");

const quoteId = z.string().uuid();

/** A quote as a printable page for staff of its store (outside the console's frame; the console's headers). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requirePermission(context, "quotes.view");
  const id = parseParam(quoteId, params.quoteId, request);
  const quote = await staffQuote(getApp(context).db, id);
  if (!quote) throw data(null, { status: 404 });
  requirePermission(context, "quotes.view", { storeId: quote.storeId });
  const locale = getLocale(request);
  return {
    messages: routeMessages(locale, "console.quotes.", "member.center.quotes.doc.", "member.center.quotes.unit."),
    id: quote.id,
    ...quoteDocument(quote, locale, `${quote.memberName} · ${quote.memberNumber}`),
  };
}

export default function ConsoleQuotePrint({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  return (
    <PrintFrame
      brand={t("brand.name")}
      title={`${t("member.center.quotes.doc.title")} ${d.document.reference}`}
      back={{ to: `/admin/quotes/${d.id}`, label: t("console.quotes.back") }}
      printLabel={t("console.quotes.printButton")}
    >
      <QuoteDocument quote={d.document} dates={d.dates} t={t} locale={locale} />
    </PrintFrame>
  );
}
