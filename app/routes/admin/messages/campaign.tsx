import { BRAND_NAME } from "@platform/constants";
import type { CampaignAudience, CampaignStatus } from "@platform/db/schema/member-message-kinds";
import { useEffect, useRef, useState } from "react";
import { data, Form, redirect, useFetcher, useNavigation } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { CampaignStatusBadge } from "~/components/console/campaign-status";
import { ConsolePage } from "~/components/console/console-page";
import { EmailPreview, LinePreview, SmsPreview } from "~/components/console/message-previews";
import { StepUpField } from "~/components/console/step-up-field";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CheckboxField } from "~/components/ui/checkbox";
import { Field, TextareaField } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import { TIER_ORDER as TIERS } from "~/domain/loyalty/tier-names";
import { audienceParams, LAST_PURCHASE_CHOICES } from "~/domain/member-messages/audience";
import {
  type AudienceCount,
  type CampaignProblem,
  type CampaignRow,
  campaignById,
  campaignResults,
  cancelCampaign,
  countAudience,
  createCampaign,
  parseCampaignForm,
  scheduleCampaign,
  scheduleRefusal,
  updateCampaign,
} from "~/domain/member-messages/campaigns.server";
import { inQuietHours } from "~/domain/member-messages/channels";
import { CAMPAIGN_NAME_MAX, EMAIL_BODY_MAX, EMAIL_SUBJECT_MAX, LINE_TEXT_MAX } from "~/domain/member-messages/limits";
import { testSendCampaign } from "~/domain/member-messages/test-send.server";
import { TAIWAN_CITIES } from "~/domain/members/address";
import { SMS_MAX_LENGTH } from "~/domain/messaging/sms";
import { isVersionConflict } from "~/domain/refusals";
import { hasRecentSecondFactor, requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { parseParam } from "~/lib/http.server";
import { formatNumber, type MessageKey, type Translate, useLocale } from "~/lib/i18n";
import { catalogT, getLocale, serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { formatTaipei, fromTaipeiWallClock } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/campaign";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.campaign ? "console.messages.campaigns.title" : "console.messages.campaign.newTitle");

const idParam = z.string().uuid();

type FormValues = Record<string, string>;

/** The saved campaign as the form's values. */
function valuesOf(c: {
  name: string;
  audience: CampaignAudience;
  lineText: string | null;
  smsText: string | null;
  emailSubject: string | null;
  emailBody: string | null;
}): FormValues {
  const p = audienceParams(c.audience);
  return {
    name: c.name,
    tiers: p.getAll("tiers").join(","),
    city: p.get("city") ?? "",
    lastPurchaseDays: p.get("lastPurchaseDays") ?? "",
    balanceMin: p.get("balanceMin") ?? "",
    balanceMax: p.get("balanceMax") ?? "",
    birthdayMonth: p.get("birthdayMonth") ?? "",
    reachable: p.get("reachable") ?? "",
    lineText: c.lineText ?? "",
    smsText: c.smsText ?? "",
    emailSubject: c.emailSubject ?? "",
    emailBody: c.emailBody ?? "",
    when: "now",
    at: "",
  };
}

/** What was typed, kept after a refused submission. */
function typedValues(form: FormData): FormValues {
  const values: FormValues = {};
  for (const name of [
    "name",
    "city",
    "lastPurchaseDays",
    "balanceMin",
    "balanceMax",
    "birthdayMonth",
    "reachable",
    "lineText",
    "smsText",
    "emailSubject",
    "emailBody",
    "when",
    "at",
    "version",
  ]) {
    values[name] = String(form.get(name) ?? "");
  }
  values.tiers = form.getAll("tiers").map(String).join(",");
  return values;
}

function problemMessages(problems: CampaignProblem[], t: Translate): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const p of problems) {
    const text =
      p.code === "tooLong"
        ? t("console.messages.error.tooLong", { max: "max" in p ? (p.max ?? 0) : 0 })
        : p.code === "noChannel"
          ? t("console.messages.error.noMessage")
          : t(`console.messages.error.${p.code}` as MessageKey);
    errors[p.field] = [...(errors[p.field] ?? []), text];
  }
  return errors;
}

/** The texts the previews and the SMS counter need around what the admin writes (server-only catalog). */
function frame(publicBaseUrl: string) {
  const zh = catalogT("zh-TW");
  return {
    smsPrefix: `【${BRAND_NAME}】`,
    smsSuffix: ` ${zh("notify.sms.refuse")}`,
    lineSuffix: `\n\n${zh("notify.line.refuse", { url: new URL("/member-center/privacy#marketing", publicBaseUrl).toString() })}`,
    emailFooter: zh("notify.email.footerMarketing"),
    emailUnsubscribe: zh("notify.email.unsubscribe"),
  };
}

/** The composer (a draft), or a sent / scheduled campaign's results (admins, ADR 034). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const lineOn = app.config.lineMessaging.mode !== "disabled";
  const url = new URL(request.url);
  const common = {
    cities: TAIWAN_CITIES.map((c) => c.name),
    frame: frame(app.config.publicBaseUrl),
    lineOn,
    quietNow: inQuietHours(now),
    notice: ["created", "saved", "sent", "scheduled", "cancelled"].find((n) => url.searchParams.has(n)) ?? null,
    tested: url.searchParams.get("tested"),
  };
  if (!params.campaignId) {
    const empty = valuesOf({
      name: "",
      audience: {},
      lineText: null,
      smsText: null,
      emailSubject: null,
      emailBody: null,
    });
    return { ...common, campaign: null, values: empty, count: null, results: null };
  }
  const id = parseParam(idParam, params.campaignId, request);
  const c = await campaignById(app.db, id);
  if (!c) throw data({ path: url.pathname }, { status: 404, statusText: "Not Found" });
  const summary = {
    id: c.id,
    status: c.status as CampaignStatus,
    version: c.version,
    scheduledAt: c.scheduledAt?.toISOString() ?? null,
    startedAt: c.startedAt?.toISOString() ?? null,
    queuedCount: c.queuedCount,
  };
  if (c.status === "draft") {
    return {
      ...common,
      campaign: summary,
      values: valuesOf(c),
      count: await countAudience(app.db, c.audience, c, lineOn, now),
      results: null,
    };
  }
  return {
    ...common,
    campaign: summary,
    values: valuesOf(c),
    count: null,
    results: await campaignResults(app.db, c.id),
  };
}

function parseWhen(values: FormValues): { when: Date | null; error: "when" | null } {
  if (values.when !== "later") return { when: null, error: null };
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(values.at ?? "");
  if (!m) return { when: null, error: "when" };
  const when = fromTaipeiWallClock(
    { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) },
    Number(m[4]),
    Number(m[5]),
  );
  return Number.isNaN(when.getTime()) ? { when: null, error: "when" } : { when, error: null };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requirePermission(context, "messages.manage");
  const app = getApp(context);
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const audit = consoleAudit(context, request);
  const lineOn = app.config.lineMessaging.mode !== "disabled";
  const intent = String(form.get("intent") ?? "save");
  const values = typedValues(form);
  const refused = (errors: Record<string, string[]>, formError: string, status = 400) =>
    data({ errors, values, formError }, { status });

  const id = params.campaignId ? parseParam(idParam, params.campaignId, request) : null;
  if (intent === "cancel" && id) {
    try {
      await cancelCampaign(app.db, actor, id, audit, now);
    } catch (error) {
      return consoleFailure(error, null, t, {
        values,
        wording: { not_found: "console.messages.error.notDraft" },
        status: 409,
      });
    }
    return redirect(`/admin/messages/campaigns/${id}?cancelled=1`);
  }

  // Sending (now or later) is as sensitive as the settings (issue 33 item 8): the second factor must be recent. When
  // it is not, or the code is wrong, the confirmation comes back with the code field (nothing is sent).
  let stepUpRefusal: { errors: Record<string, string[]>; status: number } | null = null;
  if (intent === "send") {
    const stepUp = await requireRecentSecondFactorFor(context, request, form);
    if (!stepUp.ok) stepUpRefusal = { errors: stepUp.answer.data.errors, status: stepUp.answer.init?.status ?? 401 };
  }

  const parsed = parseCampaignForm(form);
  const errors = problemMessages(parsed.problems, t);
  const schedule = parseWhen(values);
  if (intent === "review" || intent === "send") {
    // The send time's rules are the domain's (scheduleCampaign refuses the same): asked before the confirmation.
    const refusal = schedule.error ? null : scheduleRefusal(schedule.when, now);
    if (schedule.error) errors.at = [t("console.messages.error.when")];
    else if (refusal) errors.at = [t(refusal.messageKey)];
  }
  if (Object.keys(errors).length > 0) return refused(errors, t("console.messages.error.fix"));

  // Saved first (every intent but cancel): a draft's texts and audience are what gets tested, reviewed and sent.
  let campaign: Awaited<ReturnType<typeof createCampaign>>;
  try {
    if (!id) campaign = await createCampaign(app.db, actor, parsed.value, audit, now);
    else {
      const version = Number(values.version);
      if (!Number.isInteger(version)) throw data(null, { status: 400, statusText: "Bad Request" });
      campaign = await updateCampaign(app.db, actor, id, version, parsed.value, audit, now);
    }
  } catch (error) {
    // Told, nothing lost: what was typed stays, over the version now saved.
    const current = isVersionConflict(error) ? (error.current as CampaignRow) : null;
    return consoleFailure(error, null, t, {
      values: current ? { ...values, version: String(current.version) } : values,
    });
  }
  const path = `/admin/messages/campaigns/${campaign.id}`;

  if (intent === "test") {
    const sent = await testSendCampaign(app.delivery, actor, campaign, getLocale(request), audit, now);
    const where = [sent.sms, sent.email].filter(Boolean).join(",");
    return redirect(`${path}?tested=${encodeURIComponent(where || "none")}`);
  }
  if (intent === "review" || stepUpRefusal) {
    // The confirmation, with the count as it is now, over the saved version.
    const count = await countAudience(app.db, campaign.audience, campaign, lineOn, now);
    if (count.total === 0) {
      return data(
        {
          errors: {},
          values: { ...values, version: String(campaign.version) },
          formError: t("console.messages.error.emptyAudience"),
        },
        { status: 400 },
      );
    }
    return data(
      {
        errors: stepUpRefusal?.errors ?? {},
        values: { ...values, version: String(campaign.version) },
        review: {
          count: count.total,
          when: schedule.when?.toISOString() ?? null,
          quiet: !schedule.when && inQuietHours(now),
          // The code field beside the send button when sending will ask for it.
          stepUp: stepUpRefusal !== null || !hasRecentSecondFactor(actor, now),
        },
        campaignId: campaign.id,
      },
      { status: stepUpRefusal?.status ?? 200 },
    );
  }
  if (intent === "send") {
    try {
      await scheduleCampaign(app.db, actor, campaign.id, campaign.version, schedule.when, audit, { lineOn }, now);
    } catch (error) {
      // Whatever stopped the send, the confirmation step answers 400 over the saved version; a campaign changed,
      // sent or gone meanwhile is worded as changed.
      const changed = "console.messages.error.conflict";
      return consoleFailure(error, null, t, {
        values: { ...values, version: String(campaign.version) },
        wording: { no_channel: changed, not_found: changed, not_draft: changed, version_conflict: changed },
        status: 400,
      });
    }
    // This instance starts at once; the others would within seconds anyway.
    app.dispatcher?.kick();
    return redirect(`${path}?${schedule.when ? "scheduled" : "sent"}=1`);
  }
  return redirect(`${path}?${id ? "saved" : "created"}=1`);
}

/** The confirmation before sending: how many, when, and whether the step-up code is asked for. */
type Review = { count: number; when: string | null; quiet: boolean; stepUp: boolean };

const RESULT_ORDER = ["sent", "queued", "held", "sending", "failed", "unreachable", "opted-out", "capped", "cancelled"];

export default function Campaign({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const c = loaderData.campaign;
  const editable = !c || c.status === "draft";
  const review = (actionData as { review?: Review } | undefined)?.review;
  const noticeText =
    loaderData.notice === "scheduled" && c?.scheduledAt
      ? t("console.messages.scheduledDone", { when: formatTaipei(c.scheduledAt, locale, "dateTime") })
      : loaderData.notice === "sent"
        ? t("console.messages.sentDone")
        : loaderData.notice === "cancelled"
          ? t("console.messages.cancelledDone")
          : loaderData.notice === "saved"
            ? t("console.messages.saved")
            : loaderData.notice === "created"
              ? t("console.messages.created")
              : null;
  const tested = loaderData.tested;
  return (
    <ConsolePage
      back={{ to: "/admin/messages", label: t("console.messages.campaign.back") }}
      title={c ? loaderData.values.name : t("console.messages.campaign.newTitle")}
      badges={c ? <CampaignStatusBadge status={c.status} /> : null}
      notices={
        <>
          {noticeText && !form.state ? <Alert tone="success">{noticeText}</Alert> : null}
          {tested && !form.state ? (
            <Alert tone={tested === "none" ? "info" : "success"}>
              {tested === "none"
                ? t("console.messages.testNone")
                : t("console.messages.testDone", { where: tested.split(",").join("、") })}
            </Alert>
          ) : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </>
      }
    >
      {editable ? <Composer loaderData={loaderData} review={review ?? null} /> : <Results loaderData={loaderData} />}
    </ConsolePage>
  );
}

function Results({ loaderData }: { loaderData: Route.ComponentProps["loaderData"] }) {
  const t = useConsoleT();
  const locale = useLocale();
  const c = loaderData.campaign;
  const results = loaderData.results;
  if (!c || !results) return null;
  const sent = results.byStatus.sent ?? 0;
  const pending = (results.byStatus.queued ?? 0) + (results.byStatus.held ?? 0) + (results.byStatus.sending ?? 0);
  return (
    <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
      <section
        aria-labelledby="results-title"
        className="rounded-2xl border border-line bg-white p-5"
        data-testid="campaign-results"
      >
        <h2 id="results-title" className="text-lg font-semibold">
          {t("console.messages.results.title")}
        </h2>
        <p className="mt-1 text-sm text-muted">{t("console.messages.results.lead")}</p>
        <p className="mt-3 text-sm">
          {c.scheduledAt
            ? t("console.messages.results.scheduledAt", { when: formatTaipei(c.scheduledAt, locale, "dateTime") })
            : null}
          {c.startedAt
            ? ` · ${t("console.messages.results.startedAt", { when: formatTaipei(c.startedAt, locale, "dateTime") })}`
            : null}
        </p>
        {results.total > 0 ? (
          <>
            <div
              className="mt-4 h-2 overflow-hidden rounded-full bg-sand"
              role="progressbar"
              aria-label={t("console.messages.results.sent")}
              aria-valuemin={0}
              aria-valuemax={results.total}
              aria-valuenow={results.total - pending}
            >
              <div
                className="h-full bg-brand-700"
                style={{ width: `${((results.total - pending) / results.total) * 100}%` }}
              />
            </div>
            <p className="mt-2 text-sm text-muted">
              {t("console.messages.results.total", { count: formatNumber(results.total, locale) })}
            </p>
          </>
        ) : null}
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
          {RESULT_ORDER.filter((s) => results.byStatus[s]).map((s) => (
            <div key={s} className="rounded-xl bg-sand/50 px-3 py-2" data-testid={`result-${s}`}>
              <dt className="text-xs text-muted">{t(`console.messages.results.${s}` as MessageKey)}</dt>
              <dd className="text-xl font-semibold tabular-nums">{formatNumber(results.byStatus[s] ?? 0, locale)}</dd>
            </div>
          ))}
        </dl>
        {sent > 0 ? (
          <p className="mt-4 text-sm" data-testid="result-channels">
            {t("console.messages.results.byChannel", {
              line: formatNumber(results.byChannel.line ?? 0, locale),
              sms: formatNumber(results.byChannel.sms ?? 0, locale),
              email: formatNumber(results.byChannel.email ?? 0, locale),
            })}
          </p>
        ) : null}
        {c.status === "scheduled" || c.status === "sending" ? (
          <Form method="post" className="mt-5">
            <input type="hidden" name="intent" value="cancel" />
            <Button type="submit" variant="secondary">
              {t("console.messages.action.cancel")}
            </Button>
          </Form>
        ) : null}
      </section>
      <Previews values={loaderData.values} frame={loaderData.frame} />
    </div>
  );
}

function Previews({ values, frame: f }: { values: FormValues; frame: Route.ComponentProps["loaderData"]["frame"] }) {
  const t = useConsoleT();
  return (
    <section aria-labelledby="preview-title" className="space-y-3">
      <h2 id="preview-title" className="text-lg font-semibold">
        {t("console.messages.edit.previewTitle")}
      </h2>
      {values.lineText ? (
        <LinePreview
          label={t("console.messages.preview.line")}
          text={`${values.lineText}${f.lineSuffix}`}
          testId="line-preview"
        />
      ) : null}
      {values.smsText ? (
        <SmsPreview
          label={t("console.messages.preview.sms")}
          text={`${f.smsPrefix}${values.smsText}${f.smsSuffix}`}
          testId="sms-preview"
        />
      ) : null}
      {values.emailSubject || values.emailBody ? (
        <EmailPreview
          label={t("console.messages.preview.email")}
          subject={values.emailSubject ?? ""}
          body={values.emailBody ?? ""}
          footer={`${f.emailFooter} ${f.emailUnsubscribe}`}
          testId="email-preview"
        />
      ) : null}
    </section>
  );
}

function Composer({ loaderData, review }: { loaderData: Route.ComponentProps["loaderData"]; review: Review | null }) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const c = loaderData.campaign;
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const initial: FormValues = form.state?.values ?? loaderData.values;
  const [values, setValues] = useState<FormValues>(initial);
  const [count, setCount] = useState<AudienceCount | null>(loaderData.count);
  const fetcher = useFetcher<{ count: AudienceCount | null }>();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const confirmRef = useRef<HTMLElement>(null);
  const f = loaderData.frame;
  const tiers = new Set((initial.tiers ?? "").split(",").filter(Boolean));

  useEffect(() => {
    if (fetcher.data?.count) setCount(fetcher.data.count);
  }, [fetcher.data]);
  useEffect(() => {
    if (review) confirmRef.current?.focus();
  }, [review]);

  const onChange = () => {
    const el = formRef.current;
    if (!el) return;
    const fd = new FormData(el);
    const next = typedValues(fd);
    setValues(next);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const p = new URLSearchParams();
      for (const tier of fd.getAll("tiers")) p.append("tiers", String(tier));
      for (const k of ["city", "lastPurchaseDays", "balanceMin", "balanceMax", "birthdayMonth", "reachable"]) {
        if (next[k]) p.set(k, next[k] as string);
      }
      if (next.lineText) p.set("line", "1");
      if (next.smsText) p.set("sms", "1");
      if (next.emailSubject && next.emailBody) p.set("email", "1");
      fetcher.load(`/admin/messages/audience?${p}`);
    }, 400);
  };

  const smsLength = Array.from(`${f.smsPrefix}${values.smsText ?? ""}${f.smsSuffix}`).length;
  const version = form.state?.values?.version ?? String(c?.version ?? "");
  return (
    <Form
      method="post"
      ref={formRef}
      onChange={onChange}
      noValidate
      className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]"
    >
      <div className="space-y-6">
        {c ? <input type="hidden" name="version" value={version} /> : null}
        <section className="rounded-2xl border border-line bg-white p-5">
          <Field
            label={t("console.messages.campaign.name")}
            description={t("console.messages.campaign.nameHint")}
            errors={form.errors("name")}
            inputProps={{ name: "name", required: true, maxLength: CAMPAIGN_NAME_MAX + 20, defaultValue: initial.name }}
          />
        </section>

        <section aria-labelledby="audience-title" className="rounded-2xl border border-line bg-white p-5">
          <h2 id="audience-title" className="text-lg font-semibold">
            {t("console.messages.audience.title")}
          </h2>
          <p className="mt-1 text-sm text-muted">{t("console.messages.audience.lead")}</p>
          <fieldset className="mt-4">
            <legend className="text-sm font-medium">{t("console.messages.audience.tiers")}</legend>
            <p className="mt-1 text-sm text-muted">{t("console.messages.audience.tiersHint")}</p>
            <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
              {TIERS.map((tier) => (
                <CheckboxField
                  key={tier}
                  name="tiers"
                  value={tier}
                  label={t(`console.counter.tier.${tier}` as MessageKey)}
                  defaultChecked={tiers.has(tier)}
                  errors={tier === "basic" ? form.errors("tiers") : null}
                />
              ))}
            </div>
          </fieldset>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <NativeSelectField
              label={t("console.messages.audience.city")}
              errors={form.errors("city")}
              selectProps={{ name: "city", defaultValue: initial.city }}
            >
              <option value="">{t("console.messages.audience.any")}</option>
              {loaderData.cities.map((city) => (
                <option key={city} value={city}>
                  {city}
                </option>
              ))}
            </NativeSelectField>
            <NativeSelectField
              label={t("console.messages.audience.lastPurchase")}
              errors={form.errors("lastPurchaseDays")}
              selectProps={{ name: "lastPurchaseDays", defaultValue: initial.lastPurchaseDays }}
            >
              <option value="">{t("console.messages.audience.any")}</option>
              {LAST_PURCHASE_CHOICES.map((d) => (
                <option key={d} value={d}>
                  {t(`console.messages.audience.last.${d}` as MessageKey)}
                </option>
              ))}
            </NativeSelectField>
            <Field
              label={t("console.messages.audience.balanceMin")}
              errors={form.errors("balanceMin")}
              inputProps={{ name: "balanceMin", inputMode: "numeric", maxLength: 12, defaultValue: initial.balanceMin }}
            />
            <Field
              label={t("console.messages.audience.balanceMax")}
              errors={form.errors("balanceMax")}
              inputProps={{ name: "balanceMax", inputMode: "numeric", maxLength: 12, defaultValue: initial.balanceMax }}
            />
            <NativeSelectField
              label={t("console.messages.audience.birthdayMonth")}
              errors={form.errors("birthdayMonth")}
              selectProps={{ name: "birthdayMonth", defaultValue: initial.birthdayMonth }}
            >
              <option value="">{t("console.messages.audience.any")}</option>
              {Array.from({ length: 12 }, (_, i) => i + 1).map((m) => (
                <option key={m} value={m}>
                  {t("console.messages.audience.month", {
                    month: locale === "en" ? new Date(2026, m - 1, 1).toLocaleString("en-US", { month: "long" }) : m,
                  })}
                </option>
              ))}
            </NativeSelectField>
            <NativeSelectField
              label={t("console.messages.audience.reachable")}
              errors={form.errors("reachable")}
              selectProps={{ name: "reachable", defaultValue: initial.reachable }}
            >
              <option value="">{t("console.messages.audience.any")}</option>
              {(loaderData.lineOn ? (["line", "sms", "email"] as const) : (["sms", "email"] as const)).map((ch) => (
                <option key={ch} value={ch}>
                  {t(`console.messages.channel.${ch}` as MessageKey)}
                </option>
              ))}
            </NativeSelectField>
          </div>
        </section>

        <section aria-labelledby="content-title" className="rounded-2xl border border-line bg-white p-5">
          <h2 id="content-title" className="text-lg font-semibold">
            {t("console.messages.content.title")}
          </h2>
          <p className="mt-1 text-sm text-muted">{t("console.messages.content.lead")}</p>
          <div className="mt-4 space-y-5">
            {loaderData.lineOn ? (
              <TextareaField
                label={t("console.messages.content.lineText")}
                description={t("console.messages.content.lineHint", { max: LINE_TEXT_MAX })}
                errors={form.errors("lineText")}
                textareaProps={{ name: "lineText", defaultValue: initial.lineText, maxLength: LINE_TEXT_MAX + 100 }}
              />
            ) : null}
            <TextareaField
              label={t("console.messages.content.smsText")}
              description={
                <>
                  {t("console.messages.content.smsHint")}{" "}
                  <span
                    className={smsLength > SMS_MAX_LENGTH ? "font-medium text-danger-800" : undefined}
                    data-testid="sms-count"
                  >
                    {t("console.messages.content.smsCount", { count: smsLength, max: SMS_MAX_LENGTH })}
                  </span>
                </>
              }
              errors={form.errors("smsText")}
              textareaProps={{
                name: "smsText",
                defaultValue: initial.smsText,
                rows: 3,
                maxLength: SMS_MAX_LENGTH + 100,
              }}
            />
            <Field
              label={t("console.messages.content.emailSubject")}
              errors={form.errors("emailSubject")}
              inputProps={{
                name: "emailSubject",
                defaultValue: initial.emailSubject,
                maxLength: EMAIL_SUBJECT_MAX + 20,
              }}
            />
            <TextareaField
              label={t("console.messages.content.emailBody")}
              description={t("console.messages.content.emailHint")}
              errors={form.errors("emailBody")}
              textareaProps={{
                name: "emailBody",
                defaultValue: initial.emailBody,
                rows: 6,
                maxLength: EMAIL_BODY_MAX + 100,
              }}
            />
          </div>
        </section>

        <section aria-labelledby="schedule-title" className="rounded-2xl border border-line bg-white p-5">
          <h2 id="schedule-title" className="text-lg font-semibold">
            {t("console.messages.schedule.title")}
          </h2>
          <fieldset className="mt-3 space-y-3">
            <legend className="sr-only">{t("console.messages.schedule.title")}</legend>
            {(["now", "later"] as const).map((w) => (
              <label key={w} className="flex items-center gap-3">
                <input
                  type="radio"
                  name="when"
                  value={w}
                  defaultChecked={(initial.when || "now") === w}
                  className="size-5 accent-ink"
                />
                <span>{t(`console.messages.schedule.${w}`)}</span>
              </label>
            ))}
          </fieldset>
          <Field
            className="mt-3 sm:max-w-xs"
            label={t("console.messages.schedule.at")}
            errors={form.errors("at")}
            inputProps={{ name: "at", type: "datetime-local", defaultValue: initial.at, step: 60 }}
          />
          <p className="mt-3 text-sm text-muted">{t("console.messages.schedule.quietHint")}</p>
        </section>

        {review ? (
          <section
            ref={confirmRef}
            tabIndex={-1}
            aria-labelledby="confirm-title"
            className="rounded-2xl border-2 border-ink bg-white p-5 focus:outline-none"
            data-testid="confirm-send"
          >
            <h2 id="confirm-title" className="text-lg font-semibold">
              {t("console.messages.confirm.title")}
            </h2>
            <p className="mt-2">
              {review.when
                ? t("console.messages.confirm.later", {
                    when: formatTaipei(review.when, locale, "dateTime"),
                    count: formatNumber(review.count, locale),
                  })
                : review.quiet
                  ? t("console.messages.confirm.nowQuiet", { count: formatNumber(review.count, locale) })
                  : t("console.messages.confirm.now", { count: formatNumber(review.count, locale) })}
            </p>
            <div className="mt-4">
              <StepUpField show={review.stepUp} errors={form.errors("stepUpCode")} required={false} />
            </div>
            <div className="mt-4 flex flex-wrap gap-3">
              <Button type="submit" name="intent" value="send" pending={pendingIntent === "send"}>
                {t("console.messages.confirm.go")}
              </Button>
            </div>
          </section>
        ) : null}
      </div>

      <aside className="space-y-4 lg:col-start-2 lg:row-span-2 lg:row-start-1">
        <section
          aria-labelledby="count-title"
          className="rounded-2xl border border-line bg-white p-5"
          data-testid="audience-count"
        >
          <h2 id="count-title" className="text-lg font-semibold">
            {t("console.messages.count.title")}
          </h2>
          <div aria-live="polite" aria-busy={fetcher.state !== "idle"}>
            {count ? (
              <>
                <p className="mt-2 text-2xl font-semibold tabular-nums" data-testid="count-total">
                  {t("console.messages.count.total", { count: formatNumber(count.total, locale) })}
                </p>
                <ul className="mt-2 space-y-1 text-sm">
                  {(["line", "sms", "email", "optedOut", "unreachable"] as const).map((k) => (
                    <li key={k} data-testid={`count-${k}`} className="tabular-nums">
                      {t(`console.messages.count.${k}`, { count: formatNumber(count[k], locale) })}
                    </li>
                  ))}
                </ul>
              </>
            ) : (
              <p className="mt-2 text-sm text-muted">
                {fetcher.state !== "idle" ? t("console.messages.count.updating") : "—"}
              </p>
            )}
          </div>
          <p className="mt-3 text-xs text-muted">{t("console.messages.count.hint")}</p>
        </section>
        <Previews values={values} frame={f} />
      </aside>

      {/* After the count and the previews on a phone (read before 寄送), under the form on a desktop. */}
      <div className="flex flex-wrap gap-3 lg:col-start-1 lg:row-start-2">
        <Button type="submit" name="intent" value="save" variant="secondary" pending={pendingIntent === "save"}>
          {t("console.messages.action.save")}
        </Button>
        <Button type="submit" name="intent" value="test" variant="secondary" pending={pendingIntent === "test"}>
          {t("console.messages.action.test")}
        </Button>
        <Button type="submit" name="intent" value="review" pending={pendingIntent === "review"}>
          {t("console.messages.action.send")}
        </Button>
      </div>
    </Form>
  );
}
