import { data } from "react-router";
import { z } from "zod";
import { getApp } from "~/adapters/context.server";
import { requireMember } from "~/adapters/current-member.server";
import { quoteDocument } from "~/components/quotes/document-data";
import { PrintFrame } from "~/components/quotes/print-frame";
import { QuoteDocument } from "~/components/quotes/quote-document";
import { memberQuote } from "~/domain/quotes/quotes.server";
import { parseParam } from "~/lib/http.server";
import { useLocale, useT } from "~/lib/i18n";
import { getLocale, routeMessages } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/print";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta(matches, "member.center.quotes.doc.title"),
  { name: "robots", content: "noindex, nofollow" },
];

const quoteId = z.string().uuid();

/** The member's quote as a printable page (the print stylesheet leaves out the buttons): their own quote only. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const { member } = requireMember(context, request);
  const app = getApp(context);
  const locale = getLocale(request);
  const id = parseParam(quoteId, params.quoteId, request);
  const quote = await memberQuote(app.db, member.id, id);
  if (!quote) throw data(null, { status: 404 });
  return data(
    { messages: routeMessages(locale, "member.center.quotes."), id: quote.id, ...quoteDocument(quote, locale) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function MemberQuotePrint({ loaderData: d }: Route.ComponentProps) {
  const t = useT(d.messages);
  const locale = useLocale();
  return (
    <PrintFrame
      brand={t("brand.name")}
      title={`${t("member.center.quotes.doc.title")} ${d.document.reference}`}
      back={{ to: links.memberQuote(d.id), label: t("member.center.quotes.doc.back") }}
      printLabel={t("member.center.quotes.print")}
    >
      <QuoteDocument quote={d.document} dates={d.dates} t={t} locale={locale} />
    </PrintFrame>
  );
}
