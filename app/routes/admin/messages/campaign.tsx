import type { CampaignStatus } from "@platform/db/schema/member-message-kinds";
import { data, redirect } from "react-router";
import { z } from "zod";
import { consoleAudit, requireRecentSecondFactorFor } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { CampaignStatusBadge } from "~/components/console/campaign-status";
import { ConsolePage } from "~/components/console/console-page";
import { CampaignResults } from "~/components/console/messages/campaign-results";
import { Composer } from "~/components/console/messages/composer";
import type { SendReview } from "~/components/console/messages/schedule-fields";
import { SegmentPicker } from "~/components/console/segments/segment-picker";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { campaignFormData, campaignSchema, composerFrame } from "~/domain/member-messages/campaign-form.server";
import { campaignOutcomeView } from "~/domain/member-messages/campaign-outcomes.server";
import { campaignFormValues, savedCampaignValues } from "~/domain/member-messages/campaign-values";
import {
  type CampaignRow,
  campaignById,
  campaignResults,
  cancelCampaign,
  countAudience,
  createCampaign,
  scheduleCampaign,
  sendableCount,
  updateCampaign,
} from "~/domain/member-messages/campaigns.server";
import { inQuietHours } from "~/domain/member-messages/channels";
import { audienceChoices } from "~/domain/member-messages/showroom-audience.server";
import { testSendCampaign } from "~/domain/member-messages/test-send.server";
import { TAIWAN_CITIES } from "~/domain/members/address";
import { isVersionConflict } from "~/domain/refusals";
import { listSegments, segmentById } from "~/domain/segments/segments.server";
import { hasRecentSecondFactor, requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { parseParam } from "~/lib/http.server";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/campaign";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.campaign ? "console.messages.campaigns.title" : "console.messages.campaign.newTitle");

const idParam = z.string().uuid();
const NOTICES = ["created", "saved", "sent", "scheduled", "cancelled"] as const;
const EMPTY = { name: "", audience: {}, lineText: null, smsText: null, emailSubject: null, emailBody: null };

/** The composer (a draft), or a sent / scheduled campaign's results (admins, ADR 034). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const app = getApp(context);
  const now = requestNow(request, app.config);
  const lineOn = app.config.lineMessaging.mode !== "disabled";
  const url = new URL(request.url);
  const locale = getLocale(request);
  const choices = await audienceChoices(app.db);
  const common = {
    cities: TAIWAN_CITIES.map((c) => c.name),
    showroom: {
      categories: choices.categories.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
      stores: choices.stores.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
    },
    frame: composerFrame(app.config.publicBaseUrl),
    lineOn,
    quietNow: inQuietHours(now),
    notice: NOTICES.find((n) => url.searchParams.has(n)) ?? null,
    tested: url.searchParams.get("tested"),
  };
  if (!params.campaignId) {
    // A saved segment's filters as the new campaign's audience (ADR 056): `?segment=<id>` from the picker.
    const segmentId = url.searchParams.get("segment") || null;
    const from = segmentId ? await segmentById(app.db, parseParam(idParam, segmentId, request)) : null;
    if (segmentId && (!from || from.archivedAt)) throw data({ path: url.pathname }, { status: 404 });
    const segments = (await listSegments(app.db)).map((s) => ({ id: s.id, name: s.name }));
    const values = savedCampaignValues({ ...EMPTY, audience: from?.audience ?? {} });
    const segment = from ? { id: from.id, name: from.name } : null;
    return { ...common, campaign: null, values, count: null, results: null, outcome: null, segments, segment };
  }
  const c = await campaignById(app.db, parseParam(idParam, params.campaignId, request));
  if (!c) throw data({ path: url.pathname }, { status: 404, statusText: "Not Found" });
  const draft = c.status === "draft";
  return {
    ...common,
    campaign: {
      id: c.id,
      status: c.status as CampaignStatus,
      version: c.version,
      scheduledAt: c.scheduledAt?.toISOString() ?? null,
      startedAt: c.startedAt?.toISOString() ?? null,
    },
    values: savedCampaignValues(c),
    count: draft ? await countAudience(app.db, c.audience, c, lineOn, now) : null,
    results: draft ? null : await campaignResults(app.db, c.id),
    segments: [],
    segment: null,
    // Clicks, attributed purchases and the uplift (ADR 055), computed now from the deliveries and purchases.
    outcome: draft ? null : await campaignOutcomeView(app.db, c.id),
  };
}

/**
 * Every intent but cancel saves the draft first (its texts and audience are what gets tested, reviewed and sent);
 * the domain refuses what its rules refuse (a stale version, a sent campaign, an empty audience, a bad time).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requirePermission(context, "messages.manage");
  const app = getApp(context);
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const audit = consoleAudit(context, request);
  const lineOn = app.config.lineMessaging.mode !== "disabled";
  const intent = String(form.get("intent") ?? "save");
  const values = campaignFormValues(form);
  const id = params.campaignId ? parseParam(idParam, params.campaignId, request) : null;
  const failed = (error: unknown, version?: number, options: Parameters<typeof consoleFailure>[3] = {}) =>
    consoleFailure(error, null, t, { values: version ? { ...values, version: String(version) } : values, ...options });

  if (intent === "cancel" && id) {
    try {
      await cancelCampaign(app.db, actor, id, audit, now);
    } catch (error) {
      return failed(error, undefined, { wording: { not_found: "console.messages.error.notDraft" }, status: 409 });
    }
    return redirect(`/admin/messages/campaigns/${id}?cancelled=1`);
  }

  // Sending (now or later) is as sensitive as the settings (issue 33 item 8): the second factor must be recent.
  // When it is not, or the code is wrong, the confirmation comes back with the code field (nothing is sent).
  const stepUp = intent === "send" ? await requireRecentSecondFactorFor(context, request, form) : null;
  const askCode = stepUp?.ok === false ? stepUp.answer : null;
  const sending = intent === "review" || intent === "send";
  const parsed = parseForm(
    campaignSchema(t, await audienceChoices(app.db), sending ? { now } : null),
    campaignFormData(form),
  );
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.messages.error.fix") });
  const { campaign: input, when } = parsed.data;
  let c: CampaignRow;
  try {
    const version = Number(values.version);
    if (id && !Number.isInteger(version)) throw data(null, { status: 400, statusText: "Bad Request" });
    c = id
      ? await updateCampaign(app.db, actor, id, version, input, audit, now)
      : await createCampaign(app.db, actor, input, audit, now);
  } catch (error) {
    // Told, nothing lost: what was typed stays, over the version now saved.
    return failed(error, isVersionConflict(error) ? (error.current as CampaignRow).version : undefined);
  }
  const path = `/admin/messages/campaigns/${c.id}`;

  if (intent === "test") {
    const sent = await testSendCampaign(app.delivery, actor, c, getLocale(request), audit, now);
    return redirect(`${path}?tested=${encodeURIComponent([sent.sms, sent.email].filter(Boolean).join(",") || "none")}`);
  }
  if (askCode || intent === "review") {
    // The confirmation, with the count as it is now, over the saved version.
    let count: number;
    try {
      count = (await sendableCount(app.db, c, lineOn, now)).total;
    } catch (error) {
      return failed(error, c.version);
    }
    const review: SendReview = {
      count,
      when: when?.toISOString() ?? null,
      quiet: !when && inQuietHours(now),
      control: c.controlPercent,
      // The code field beside the send button when sending will ask for it.
      stepUp: askCode !== null || !hasRecentSecondFactor(actor, now),
    };
    return data(
      {
        errors: askCode?.data.errors ?? {},
        values: { ...values, version: String(c.version) },
        review,
        // A new campaign was saved just now: the confirmation's send goes to its page (not a second draft).
        saved: id ? null : { id: c.id, version: c.version },
      },
      { status: askCode ? (askCode.init?.status ?? 401) : 200 },
    );
  }
  if (intent === "send") {
    try {
      await scheduleCampaign(app.db, actor, c.id, c.version, when, audit, { lineOn }, now);
    } catch (error) {
      // Whatever stopped the send, the confirmation step answers 400 over the saved version; a campaign changed,
      // sent or gone meanwhile is worded as changed.
      const changed = "console.messages.error.conflict";
      return failed(error, c.version, {
        wording: { no_channel: changed, not_found: changed, not_draft: changed, version_conflict: changed },
        status: 400,
      });
    }
    // This instance starts at once; the others would within seconds anyway.
    app.dispatcher?.kick();
    return redirect(`${path}?${when ? "scheduled" : "sent"}=1`);
  }
  return redirect(`${path}?${id ? "saved" : "created"}=1`);
}

const NOTICE_TEXT: Record<(typeof NOTICES)[number], MessageKey> = {
  created: "console.messages.created",
  saved: "console.messages.saved",
  sent: "console.messages.sentDone",
  scheduled: "console.messages.scheduledDone",
  cancelled: "console.messages.cancelledDone",
};

export default function Campaign({ loaderData, actionData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const { campaign: c, notice, tested } = loaderData;
  const answer = actionData as { review?: SendReview; saved?: { id: string; version: number } | null } | undefined;
  const review = answer?.review ?? null;
  const saved = c ? null : (answer?.saved ?? null);
  const when = c?.scheduledAt ? formatTaipei(c.scheduledAt, locale, "dateTime") : null;
  const noticeText = notice && (notice !== "scheduled" || when) ? t(NOTICE_TEXT[notice], { when: when ?? "" }) : null;
  const testedText =
    tested === "none"
      ? t("console.messages.testNone")
      : t("console.messages.testDone", { where: tested?.split(",").join("、") ?? "" });
  return (
    <ConsolePage
      back={{ to: "/admin/messages", label: t("console.messages.campaign.back") }}
      title={c ? loaderData.values.name : t("console.messages.campaign.newTitle")}
      badges={c ? <CampaignStatusBadge status={c.status} /> : null}
      notices={
        <>
          {noticeText && !form.state ? <Alert tone="success">{noticeText}</Alert> : null}
          {tested && !form.state ? <Alert tone={tested === "none" ? "info" : "success"}>{testedText}</Alert> : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
          {loaderData.segment && !form.state ? (
            <Alert tone="info">{t("console.segments.picker.applied", { name: loaderData.segment.name })}</Alert>
          ) : null}
        </>
      }
    >
      {c ? null : <SegmentPicker segments={loaderData.segments} selected={loaderData.segment?.id ?? null} />}
      {c && c.status !== "draft" && loaderData.results ? (
        <CampaignResults
          campaign={c}
          results={loaderData.results}
          outcome={loaderData.outcome}
          values={loaderData.values}
          frame={loaderData.frame}
        />
      ) : (
        <Composer
          key={loaderData.segment?.id ?? "composer"}
          values={loaderData.values}
          version={c?.version ?? saved?.version ?? null}
          count={loaderData.count}
          cities={loaderData.cities}
          showroom={loaderData.showroom}
          lineOn={loaderData.lineOn}
          frame={loaderData.frame}
          review={review}
          action={saved ? `/admin/messages/campaigns/${saved.id}` : undefined}
        />
      )}
    </ConsolePage>
  );
}
