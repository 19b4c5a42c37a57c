import { useEffect, useRef, useState } from "react";
import { Form, useFetcher, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import {
  type AudienceCount,
  type CampaignFormValues,
  type ComposerFrame,
  campaignFormValues,
  countQuery,
} from "~/domain/member-messages/campaign-values";
import { CAMPAIGN_NAME_MAX } from "~/domain/member-messages/limits";
import { useFormState } from "~/lib/use-form-state";
import { useConsoleT } from "../use-console-t";
import { AudienceFields, type ShowroomChoices } from "./audience-fields";
import { AudienceCountPanel, CampaignPreviews } from "./campaign-previews";
import { ContentFields } from "./content-fields";
import { ConfirmSend, ScheduleFields, type SendReview } from "./schedule-fields";
import { TrackingFields } from "./tracking-fields";

/**
 * The campaign composer (a draft): name, audience, the message per channel, the time; beside it the live count
 * (asked again 400 ms after the last change) and the previews as typed. Save, test to oneself, or 寄送… for the
 * confirmation step.
 */
export function Composer({
  values: saved,
  version,
  count: savedCount,
  cities,
  showroom,
  lineOn,
  frame: f,
  review,
  action,
}: {
  values: CampaignFormValues;
  /** The saved draft's version (none for a new campaign). */
  version: number | null;
  count: AudienceCount | null;
  cities: readonly string[];
  showroom: ShowroomChoices;
  lineOn: boolean;
  frame: ComposerFrame;
  review: SendReview | null;
  /**
   * Where the form posts: the draft's own page once the confirmation step of a new campaign saved it (its send
   * then updates that draft, instead of creating a second one). The current page otherwise.
   */
  action?: string;
}) {
  const t = useConsoleT();
  const form = useFormState();
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const initial: CampaignFormValues = form.state?.values ?? saved;
  const [values, setValues] = useState<CampaignFormValues>(initial);
  const [count, setCount] = useState<AudienceCount | null>(savedCount);
  const fetcher = useFetcher<{ count: AudienceCount | null }>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (fetcher.data?.count) setCount(fetcher.data.count);
  }, [fetcher.data]);

  const onChange = () => {
    if (!formRef.current) return;
    const next = campaignFormValues(new FormData(formRef.current));
    setValues(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => fetcher.load(`/admin/messages/audience?${countQuery(next)}`), 400);
  };

  const smsLength = Array.from(`${f.smsPrefix}${values.smsText ?? ""}${f.smsSuffix}`).length;
  const button = (intent: "save" | "test" | "review", label: Parameters<typeof t>[0]) => (
    <Button
      type="submit"
      name="intent"
      value={intent}
      variant={intent === "review" ? undefined : "secondary"}
      pending={pendingIntent === intent}
    >
      {t(label)}
    </Button>
  );
  return (
    <Form
      method="post"
      action={action}
      ref={formRef}
      onChange={onChange}
      noValidate
      className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
    >
      <div className="space-y-6">
        {version !== null ? (
          <input type="hidden" name="version" value={form.state?.values?.version ?? String(version)} />
        ) : null}
        <section className="rounded-2xl border border-line bg-white p-5">
          <Field
            label={t("console.messages.campaign.name")}
            description={t("console.messages.campaign.nameHint")}
            errors={form.errors("name")}
            inputProps={{ name: "name", required: true, maxLength: CAMPAIGN_NAME_MAX + 20, defaultValue: initial.name }}
          />
        </section>
        <AudienceFields initial={initial} cities={cities} showroom={showroom} lineOn={lineOn} />
        <ContentFields initial={initial} lineOn={lineOn} smsLength={smsLength} />
        <TrackingFields initial={initial} />
        <ScheduleFields when={initial.when ?? "now"} at={initial.at ?? ""} />
        {review ? <ConfirmSend review={review} pending={pendingIntent === "send"} /> : null}
      </div>

      <aside className="space-y-4 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <AudienceCountPanel count={count} busy={fetcher.state !== "idle"} />
        <CampaignPreviews values={values} frame={f} />
      </aside>

      {/* After the count and the previews on a phone (read before 寄送), under the form on a desktop. */}
      <div className="flex flex-wrap gap-3 lg:col-start-1 lg:row-start-2">
        {button("save", "console.messages.action.save")}
        {button("test", "console.messages.action.test")}
        {button("review", "console.messages.action.send")}
      </div>
    </Form>
  );
}
