import { quoteRequest } from "@platform/db/schema";
import type { QuoteStatus } from "@platform/db/schema/quotes";
import { and, eq, gte, lt, or, type SQL } from "drizzle-orm";
import { taipeiIsoDate } from "~/lib/time";

/**
 * A quote's status as every surface shows and counts it (ADR 051): the stored status, except that an answer past
 * its validity (`valid_until` before today in Taipei) is `expired` even before the job `quotes.expire` has
 * marked it. The member center, the console list and page, the member's decision, the job and the open-quote
 * limit all call these (`quoteState` for a row read, `pastValidity` / `quoteStateIs` for the same rule in SQL),
 * so a quote never reads as answered on one page and expired on another.
 */
export function quoteState(quote: { status: QuoteStatus; validUntil: string | null }, now: Date): QuoteStatus {
  if (quote.status === "answered" && quote.validUntil !== null && quote.validUntil < taipeiIsoDate(now)) {
    return "expired";
  }
  return quote.status;
}

/** In SQL: an answered quote whose last valid day is before today (Taipei). */
export function pastValidity(now: Date): SQL {
  return and(eq(quoteRequest.status, "answered"), lt(quoteRequest.validUntil, taipeiIsoDate(now))) as SQL;
}

/** In SQL: the quotes `quoteState` shows in `state` (the console list's status filter). */
export function quoteStateIs(state: QuoteStatus, now: Date): SQL {
  if (state === "expired") return or(eq(quoteRequest.status, "expired"), pastValidity(now)) as SQL;
  if (state === "answered") {
    return and(eq(quoteRequest.status, "answered"), gte(quoteRequest.validUntil, taipeiIsoDate(now))) as SQL;
  }
  return eq(quoteRequest.status, state);
}

/**
 * In SQL: the quotes still open as `quoteState` shows them — asked, or answered and still valid — for the campaign
 * filter "quote open" (ADR 048): an answer past its validity is not open there either, before the job marks it.
 */
export function quoteOpenAt(now: Date): SQL {
  return or(quoteStateIs("requested", now), quoteStateIs("answered", now)) as SQL;
}
