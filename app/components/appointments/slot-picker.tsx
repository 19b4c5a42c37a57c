import { ErrorList } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/cn";
import type { Translate } from "~/lib/i18n";

export type PickerDay = { iso: string; weekday: string; day: string; href: string };
export type PickerTime = { time: string; left: number };

/**
 * The day and time steps of a booking (issue 37): the bookable days as links (a new day is a new page, no script)
 * and the day's free times (Taipei) as radio buttons of the surrounding form, with the places left.
 */
export function SlotPicker({
  t,
  days,
  date,
  times,
  selectedTime,
  dateErrors,
  timeErrors,
}: {
  t: Translate;
  days: PickerDay[];
  date: string;
  times: PickerTime[];
  selectedTime: string;
  dateErrors: string[] | null;
  timeErrors: string[] | null;
}) {
  return (
    <>
      {/* min-w-0: a fieldset is as wide as its content by default, and the days scroll inside it. */}
      <fieldset className="min-w-0 space-y-2">
        <legend className="text-sm font-medium text-ink">{t("appointments.step.day")}</legend>
        <ul
          className="-mx-4 flex snap-x scroll-px-4 gap-2 overflow-x-auto px-4 pb-2 sm:mx-0 sm:scroll-px-0 sm:px-0"
          data-testid="appointment-days"
        >
          {days.map((d) => (
            <li key={d.iso} className="snap-start">
              <Link
                to={d.href}
                preventScrollReset
                replace
                aria-current={d.iso === date ? "date" : undefined}
                className={cn(
                  "flex min-h-14 w-16 flex-col items-center justify-center rounded-2xl border text-sm",
                  d.iso === date ? "border-ink bg-ink text-paper" : "border-line bg-white hover:border-ink",
                )}
              >
                <span className="text-xs">{d.weekday}</span>
                <span className="font-semibold tabular-nums">{d.day}</span>
              </Link>
            </li>
          ))}
        </ul>
        <input type="hidden" name="date" value={date} />
        <ErrorList errors={dateErrors} />
      </fieldset>
      <fieldset className="min-w-0 space-y-2" aria-describedby={timeErrors?.length ? "time-error" : undefined}>
        <legend className="text-sm font-medium text-ink">{t("appointments.step.time")}</legend>
        {times.length === 0 ? (
          <p className="text-muted" data-testid="no-times">
            {t("appointments.noTimes")}
          </p>
        ) : (
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-4" data-testid="appointment-times">
            {times.map((slot) => (
              <label
                key={slot.time}
                className="flex min-h-12 cursor-pointer flex-col items-center justify-center rounded-xl border border-line bg-white text-center has-[:checked]:border-ink has-[:checked]:bg-sand has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-700"
              >
                <input
                  type="radio"
                  name="time"
                  value={slot.time}
                  defaultChecked={slot.time === selectedTime}
                  className="sr-only"
                  required
                />
                <span className="font-semibold tabular-nums">{slot.time}</span>
                <span className="text-xs text-muted">{t("appointments.placesLeft", { count: slot.left })}</span>
              </label>
            ))}
          </div>
        )}
        <ErrorList id="time-error" errors={timeErrors} />
      </fieldset>
    </>
  );
}
