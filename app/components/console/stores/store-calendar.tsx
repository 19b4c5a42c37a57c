import { cn } from "~/lib/cn";
import type { MessageKey } from "~/lib/i18n";
import { DetailSection } from "../detail-section";
import { TableScroll } from "../table-scroll";
import { useConsoleT } from "../use-console-t";

export type CalendarDay = {
  date: string;
  hours: string;
  exceptional: boolean;
  note: string | null;
  past: boolean;
  today: boolean;
};

/**
 * The store's next weeks as "open now" will compute them: a month-style grid (a week a row, a weekday a column),
 * each day with its hours, closed days and exceptions marked. Not a list of records, so not a `ConsoleTable`; on a
 * phone it scrolls sideways in its box, with the scroll cue at the edge.
 */
export function StoreCalendar({ weeks }: { weeks: CalendarDay[][] }) {
  const t = useConsoleT();
  return (
    <DetailSection
      id="store-calendar"
      title={t("console.stores.calendar.title")}
      lead={t("console.stores.calendar.lead")}
    >
      <TableScroll labelledBy="store-calendar">
        <table className="w-full min-w-[36rem] table-fixed border-collapse text-xs" data-testid="store-calendar">
          <thead>
            <tr>
              {[0, 1, 2, 3, 4, 5, 6].map((d) => (
                <th key={d} scope="col" className="pb-2 text-center font-medium text-muted">
                  {t(`console.stores.weekdayShort.${d}` as MessageKey)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week[0]?.date}>
                {week.map((day) => (
                  <Day key={day.date} day={day} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </DetailSection>
  );
}

function Day({ day }: { day: CalendarDay }) {
  const t = useConsoleT();
  const closed = day.hours === "";
  return (
    <td
      data-date={day.date}
      data-open={closed ? "false" : "true"}
      aria-current={day.today ? "date" : undefined}
      className={cn(
        "h-16 border border-line/70 p-1.5 align-top",
        day.past && "bg-sand/40 text-muted",
        !day.past && closed && "bg-danger-700/5",
        day.today && "outline-2 -outline-offset-2 outline-ink",
      )}
    >
      <span className="block font-medium tabular-nums">
        {Number(day.date.slice(5, 7))}/{Number(day.date.slice(8))}
        {day.today ? <span className="sr-only"> {t("console.stores.calendar.today")}</span> : null}
      </span>
      <span className={cn("block tabular-nums", closed && !day.past && "text-danger-800")}>
        {closed ? t("console.stores.calendar.closed") : day.hours}
      </span>
      {day.exceptional ? (
        <span className="mt-0.5 block truncate text-brand-800" title={day.note ?? undefined}>
          ★ {day.note ?? t("console.stores.calendar.exception")}
        </span>
      ) : null}
    </td>
  );
}
