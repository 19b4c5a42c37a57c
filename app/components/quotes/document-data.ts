import type { QuoteView } from "~/domain/quotes/quotes.server";
import type { Locale } from "~/lib/i18n";
import { pick } from "~/lib/localized";
import { formatTaipei, fromTaipeiWallClock, parseIsoDate } from "~/lib/time";
import type { QuoteDocumentData } from "./quote-document";

/** A quote as the document shows it (member center and console; issue 37 part 4, ADR 047). */

/** A Taipei calendar day (YYYY-MM-DD) in the page's language. */
export function formatDay(day: string, locale: Locale): string {
  const date = parseIsoDate(day);
  return date ? formatTaipei(fromTaipeiWallClock(date, 12), locale, "date") : day;
}

/** A quote as the document component shows it, with its dates written for the page's language. */
export function quoteDocument(quote: QuoteView, locale: Locale, memberName?: string) {
  const document: QuoteDocumentData = {
    reference: quote.reference,
    status: quote.status,
    storeName: pick(quote.storeName, locale),
    createdAt: quote.createdAt.toISOString(),
    answeredAt: quote.answeredAt?.toISOString() ?? null,
    validUntil: quote.validUntil,
    message: quote.message,
    staffMessage: quote.staffMessage,
    total: quote.total,
    lines: quote.lines.map((l) => ({
      position: l.position,
      materialName: pick(l.materialName, locale),
      quantity: l.quantity,
      unit: l.unit,
      note: l.note,
      unitPrice: l.unitPrice,
      lineTotal: l.lineTotal,
    })),
    ...(memberName !== undefined ? { memberName } : {}),
  };
  const dates = {
    createdAt: formatTaipei(quote.createdAt, locale, "dateTime"),
    answeredAt: quote.answeredAt ? formatTaipei(quote.answeredAt, locale, "dateTime") : null,
    validUntil: quote.validUntil ? formatDay(quote.validUntil, locale) : null,
  };
  return { document, dates };
}
