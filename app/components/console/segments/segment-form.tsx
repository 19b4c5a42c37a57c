import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { type CampaignFormValues, campaignFormValues, countQuery } from "~/domain/member-messages/campaign-values";
import { formatNumber, useLocale } from "~/lib/i18n";
import { useFormState } from "~/lib/use-form-state";
import { AudienceFields, type ShowroomChoices } from "../messages/audience-fields";
import { useConsoleT } from "../use-console-t";

/** The segment count's answer (routes/admin/segments/count.ts): the members named, or the fields refused. */
export type SegmentCountAnswer = { count: number | null; problems: string[] };

/**
 * The segment builder (ADR 056): its name and the campaign's filters (the same `AudienceFields`), beside them the
 * live count, asked again 400 ms after the last change.
 */
export function SegmentForm({
  values: saved,
  version,
  count: savedCount,
  cities,
  showroom,
  lineOn,
}: {
  values: CampaignFormValues;
  version: number | null;
  count: number | null;
  cities: readonly string[];
  showroom: ShowroomChoices;
  lineOn: boolean;
}) {
  const t = useConsoleT();
  const form = useFormState();
  const navigation = useNavigation();
  const initial: CampaignFormValues = form.state?.values ?? saved;
  const [count, setCount] = useState<SegmentCountAnswer>({ count: savedCount, problems: [] });
  const fetcher = useFetcher<SegmentCountAnswer>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (fetcher.data) setCount(fetcher.data);
  }, [fetcher.data]);
  useEffect(() => () => (timer.current ? clearTimeout(timer.current) : undefined), []);

  const onChange = () => {
    if (!formRef.current) return;
    const next = campaignFormValues(new FormData(formRef.current));
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => fetcher.load(`/admin/segments/count?${countQuery(next)}`), 400);
  };

  return (
    <Form
      method="post"
      ref={formRef}
      onChange={onChange}
      noValidate
      className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]"
    >
      <div className="space-y-6">
        {version !== null ? (
          <input type="hidden" name="version" value={form.state?.values?.version ?? String(version)} />
        ) : null}
        <section className="rounded-2xl border border-line bg-white p-5">
          <Field
            label={t("console.segments.name")}
            description={t("console.segments.nameHint")}
            errors={form.errors("name")}
            inputProps={{ name: "name", required: true, maxLength: 80, defaultValue: initial.name }}
          />
        </section>
        <AudienceFields initial={initial} cities={cities} showroom={showroom} lineOn={lineOn} />
      </div>
      <aside className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <SegmentCount answer={count} busy={fetcher.state !== "idle"} />
      </aside>
      <div className="flex flex-wrap gap-3 lg:col-start-1 lg:row-start-2">
        <Button type="submit" name="intent" value="save" pending={navigation.state === "submitting"}>
          {t("console.segments.save")}
        </Button>
      </div>
    </Form>
  );
}

/** The live count (a polite live region). */
function SegmentCount({ answer, busy }: { answer: SegmentCountAnswer; busy: boolean }) {
  const t = useConsoleT();
  const locale = useLocale();
  const text =
    answer.problems.length > 0
      ? t("console.segments.count.invalid")
      : answer.count !== null
        ? t("console.segments.count.members", { count: formatNumber(answer.count, locale) })
        : busy
          ? t("console.segments.count.counting")
          : "—";
  return (
    <section
      aria-labelledby="segment-count-title"
      className="rounded-2xl border border-line bg-white p-5 lg:sticky lg:top-6"
    >
      <h2 id="segment-count-title" className="text-lg font-semibold">
        {t("console.segments.count.title")}
      </h2>
      <p
        className="mt-2 text-2xl font-semibold tabular-nums"
        aria-live="polite"
        aria-busy={busy}
        data-testid="segment-count"
      >
        {text}
      </p>
    </section>
  );
}
