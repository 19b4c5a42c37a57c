import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { formatNumber, useLocale } from "~/lib/i18n";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { DetailSection } from "../detail-section";
import { StepUpField } from "../step-up-field";
import { useConsoleT } from "../use-console-t";

/** The confirmation before sending: how many, when, and whether the step-up code is asked for. */
export type SendReview = {
  count: number;
  when: string | null;
  quiet: boolean;
  stepUp: boolean;
  /** The share held back as the control group (ADR 055), 0 for none. */
  control?: number;
};

/** When the campaign goes: now, or at a time on the Taipei clock (never in the quiet hours). */
export function ScheduleFields({ when, at }: { when: string; at: string }) {
  const t = useConsoleT();
  const form = useFormState();
  return (
    <DetailSection id="schedule-title" title={t("console.messages.schedule.title")}>
      <fieldset className="space-y-3">
        <legend className="sr-only">{t("console.messages.schedule.title")}</legend>
        {(["now", "later"] as const).map((w) => (
          <label key={w} className="flex items-center gap-3">
            <input
              type="radio"
              name="when"
              value={w}
              defaultChecked={(when || "now") === w}
              className="size-5 accent-ink"
            />
            <span>{t(`console.messages.schedule.${w}`)}</span>
          </label>
        ))}
      </fieldset>
      <Field
        className="sm:max-w-xs"
        label={t("console.messages.schedule.at")}
        errors={form.errors("at")}
        inputProps={{ name: "at", type: "datetime-local", defaultValue: at, step: 60 }}
      />
      <p className="text-sm text-muted">{t("console.messages.schedule.quietHint")}</p>
    </DetailSection>
  );
}

/** The confirmation step: focused when it appears, with the code field when the send will ask for it. */
export function ConfirmSend({ review, pending }: { review: SendReview; pending: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (review) ref.current?.focus();
  }, [review]);
  const count = formatNumber(review.count, locale);
  const text = review.when
    ? t("console.messages.confirm.later", { when: formatTaipei(review.when, locale, "dateTime"), count })
    : t(review.quiet ? "console.messages.confirm.nowQuiet" : "console.messages.confirm.now", { count });
  return (
    <section
      ref={ref}
      tabIndex={-1}
      aria-labelledby="confirm-title"
      className="rounded-2xl border-2 border-ink bg-white p-5 focus:outline-none"
      data-testid="confirm-send"
    >
      <h2 id="confirm-title" className="text-lg font-semibold">
        {t("console.messages.confirm.title")}
      </h2>
      <p className="mt-2">{text}</p>
      {review.control ? (
        <p className="mt-1 text-sm">{t("console.messages.confirm.control", { percent: review.control })}</p>
      ) : null}
      <div className="mt-4">
        <StepUpField show={review.stepUp} errors={form.errors("stepUpCode")} required={false} />
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button type="submit" name="intent" value="send" pending={pending}>
          {t("console.messages.confirm.go")}
        </Button>
      </div>
    </section>
  );
}
