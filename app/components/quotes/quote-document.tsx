import type { ReactNode } from "react";
import { cn } from "~/lib/cn";
import { formatNumber, type MessageKey, type Translate } from "~/lib/i18n";

/**
 * A quote as a document (issue 37 part 4, ADR 047): who asked at which store, the lines (material, quantity and
 * unit, the member's note, and once answered the unit price and line total), the total, the validity and the
 * messages. The member center, the console and both printable pages show this one component; on a phone each
 * line is a card, from a 28rem-wide container up a table; printed, always the table.
 */

export type QuoteDocumentLine = {
  position: number;
  materialName: string;
  quantity: string;
  unit: "m2" | "piece";
  note: string;
  unitPrice: number | null;
  lineTotal: number | null;
};

export type QuoteDocumentData = {
  reference: string;
  status: string;
  storeName: string;
  createdAt: string;
  answeredAt: string | null;
  validUntil: string | null;
  message: string;
  staffMessage: string | null;
  total: number | null;
  lines: QuoteDocumentLine[];
  /** Staff see whose quote it is. */
  memberName?: string;
};

const money = (n: number | null, numberLocale: string) => (n === null ? "—" : `NT$${formatNumber(n, numberLocale)}`);

/** "12.5 m²", "3 片". */
export function quantityText(quantity: string, unit: "m2" | "piece", t: Translate): string {
  const shown = quantity.includes(".") ? quantity.replace(/\.?0+$/, "") : quantity;
  return `${shown} ${t(`member.center.quotes.unit.${unit}` as MessageKey)}`;
}

export function QuoteDocument({
  quote,
  t,
  locale,
  dates,
  className,
}: {
  quote: QuoteDocumentData;
  t: Translate;
  locale: string;
  /** Dates already written for the page's language (Taipei). */
  dates: { createdAt: string; answeredAt: string | null; validUntil: string | null };
  className?: string;
}) {
  const numberLocale = locale === "en" ? "en-US" : "zh-TW";
  const answered = quote.total !== null;
  return (
    // A container: the console shows the document in half a page, the member center in most of it.
    <div className={cn("@container space-y-5", className)} data-testid="quote-document">
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 rounded-2xl border border-line bg-white p-4 text-sm @2xl:grid-cols-4 print:grid-cols-4 print:border-0 print:p-0">
        <Item label={t("member.center.quotes.doc.reference")}>
          <span className="font-semibold tracking-wider tabular-nums" data-testid="quote-reference">
            {quote.reference}
          </span>
        </Item>
        <Item label={t("member.center.quotes.doc.store")}>{quote.storeName}</Item>
        <Item label={t("member.center.quotes.doc.asked")}>{dates.createdAt}</Item>
        {quote.memberName ? <Item label={t("member.center.quotes.doc.member")}>{quote.memberName}</Item> : null}
        {dates.answeredAt ? <Item label={t("member.center.quotes.doc.answered")}>{dates.answeredAt}</Item> : null}
        {dates.validUntil ? (
          <Item label={t("member.center.quotes.doc.validUntil")}>
            <span data-testid="quote-valid-until">{dates.validUntil}</span>
          </Item>
        ) : null}
      </dl>

      {/* A phone: one card per line. */}
      <ol className="space-y-3 @md:hidden print:hidden">
        {quote.lines.map((line) => (
          <li key={line.position} className="rounded-2xl border border-line bg-white p-4" data-testid="quote-line">
            <p className="font-medium text-ink">{line.materialName}</p>
            <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
              <Item label={t("member.center.quotes.doc.quantity")}>{quantityText(line.quantity, line.unit, t)}</Item>
              {answered ? (
                <Item label={t("member.center.quotes.doc.unitPrice")}>{money(line.unitPrice, numberLocale)}</Item>
              ) : null}
              {answered ? (
                <Item label={t("member.center.quotes.doc.lineTotal")}>
                  <span className="font-semibold">{money(line.lineTotal, numberLocale)}</span>
                </Item>
              ) : null}
            </dl>
            {line.note ? <p className="mt-2 text-sm text-muted">{line.note}</p> : null}
          </li>
        ))}
      </ol>

      {/* From sm up, and on paper: a table. */}
      <div className="hidden overflow-x-auto rounded-2xl border border-line bg-white @md:block print:block print:border-0">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{t("member.center.quotes.doc.lines")}</caption>
          <thead className="border-b border-line bg-sand/60 text-xs text-muted print:bg-transparent">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                #
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                {t("member.center.quotes.doc.material")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                {t("member.center.quotes.doc.quantity")}
              </th>
              {answered ? (
                <>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t("member.center.quotes.doc.unitPrice")}
                  </th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">
                    {t("member.center.quotes.doc.lineTotal")}
                  </th>
                </>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {quote.lines.map((line) => (
              <tr key={line.position} className="border-b border-line/60 align-top last:border-0">
                <td className="px-3 py-2 text-muted tabular-nums">{line.position}</td>
                <td className="px-3 py-2">
                  <span className="font-medium text-ink">{line.materialName}</span>
                  {line.note ? <span className="mt-0.5 block text-xs text-muted">{line.note}</span> : null}
                </td>
                <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                  {quantityText(line.quantity, line.unit, t)}
                </td>
                {answered ? (
                  <>
                    <td className="px-3 py-2 text-right whitespace-nowrap tabular-nums">
                      {money(line.unitPrice, numberLocale)}
                    </td>
                    <td className="px-3 py-2 text-right font-semibold whitespace-nowrap tabular-nums">
                      {money(line.lineTotal, numberLocale)}
                    </td>
                  </>
                ) : null}
              </tr>
            ))}
          </tbody>
          {answered ? (
            <tfoot>
              <tr className="border-t border-line">
                <th scope="row" colSpan={4} className="px-3 py-2 text-right font-semibold">
                  {t("member.center.quotes.doc.total")}
                </th>
                <td className="px-3 py-2 text-right text-base font-semibold whitespace-nowrap tabular-nums">
                  {money(quote.total, numberLocale)}
                </td>
              </tr>
            </tfoot>
          ) : null}
        </table>
      </div>

      {answered ? (
        <p
          className="flex items-baseline justify-between rounded-2xl bg-brand-50 px-4 py-3 @md:hidden print:hidden"
          data-testid="quote-total"
        >
          <span className="font-medium">{t("member.center.quotes.doc.total")}</span>
          <span className="text-lg font-semibold tabular-nums">{money(quote.total, numberLocale)}</span>
        </p>
      ) : null}

      {quote.message ? <Note title={t("member.center.quotes.doc.message")}>{quote.message}</Note> : null}
      {quote.staffMessage ? (
        <Note title={t("member.center.quotes.doc.staffMessage")} testId="quote-staff-message">
          {quote.staffMessage}
        </Note>
      ) : null}
    </div>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 break-words text-ink">{children}</dd>
    </div>
  );
}

function Note({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-2xl border border-line bg-white p-4 print:border-0 print:p-0" data-testid={testId}>
      <h2 className="text-sm font-semibold text-ink">{title}</h2>
      <p className="mt-1 text-sm whitespace-pre-line text-ink">{children}</p>
    </section>
  );
}
