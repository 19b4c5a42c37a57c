import { data, Form, redirect } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection } from "~/components/console/detail-section";
import { SegmentForm } from "~/components/console/segments/segment-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { campaignFormData, segmentSchema } from "~/domain/member-messages/campaign-form.server";
import { audienceParams, campaignFormValues } from "~/domain/member-messages/campaign-values";
import { audienceChoices } from "~/domain/member-messages/showroom-audience.server";
import { TAIWAN_CITIES } from "~/domain/members/address";
import { isVersionConflict } from "~/domain/refusals";
import {
  archiveSegment,
  countSegment,
  createSegment,
  SEGMENT_NAME_MAX,
  type SegmentRow,
  segmentById,
  updateSegment,
} from "~/domain/segments/segments.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { parseParam } from "~/lib/http.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/segment";

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.segment ? "console.segments.title" : "console.segments.newTitle");

const idParam = z.string().uuid();
const NOTICES = ["created", "saved"] as const;

/** A segment's builder (admins, messages.manage; ADR 056): new, or a saved one with its count now. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  requirePermission(context, "messages.manage");
  const app = getApp(context);
  const url = new URL(request.url);
  const locale = getLocale(request);
  const choices = await audienceChoices(app.db);
  const common = {
    cities: TAIWAN_CITIES.map((c) => c.name),
    showroom: {
      categories: choices.categories.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
      stores: choices.stores.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
    },
    lineOn: app.config.lineMessaging.mode !== "disabled",
    notice: NOTICES.find((n) => url.searchParams.has(n)) ?? null,
  };
  if (!params.segmentId) {
    return { ...common, segment: null, values: campaignFormValues(new URLSearchParams()), count: null };
  }
  const s = await segmentById(app.db, parseParam(idParam, params.segmentId, request));
  if (!s || s.archivedAt) throw data({ path: url.pathname }, { status: 404, statusText: "Not Found" });
  return {
    ...common,
    segment: { id: s.id, version: s.version },
    values: { ...campaignFormValues(audienceParams(s.audience)), name: s.name },
    count: await countSegment(app.db, s.audience, requestNow(request, app.config)),
  };
}

/** Save (create or over the version seen) or archive; the domain refuses a taken name, a stale version, a gone one. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const actor = requirePermission(context, "messages.manage");
  const app = getApp(context);
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const audit = consoleAudit(context, request);
  const id = params.segmentId ? parseParam(idParam, params.segmentId, request) : null;
  const values = { ...campaignFormValues(form), version: String(form.get("version") ?? "") };

  if (String(form.get("intent") ?? "save") === "archive" && id) {
    try {
      await archiveSegment(app.db, actor, id, audit, now);
    } catch (error) {
      return consoleFailure(error, null, t, { values });
    }
    return redirect("/admin/segments?archived=1");
  }

  const parsed = parseForm(segmentSchema(t, await audienceChoices(app.db), SEGMENT_NAME_MAX), campaignFormData(form));
  if (!parsed.ok) return formFailure({ ...parsed.failure, values, formError: t("console.segments.error.fix") });
  let s: SegmentRow;
  try {
    const version = Number(values.version);
    if (id && !Number.isInteger(version)) throw data(null, { status: 400, statusText: "Bad Request" });
    s = id
      ? await updateSegment(app.db, actor, id, version, parsed.data, audit, now)
      : await createSegment(app.db, actor, parsed.data, audit, now);
  } catch (error) {
    // Told, nothing lost: what was typed stays (over the version saved now, after a conflict).
    const current = isVersionConflict(error) ? (error.current as SegmentRow).version : null;
    return consoleFailure(error, null, t, { values: current ? { ...values, version: String(current) } : values });
  }
  return redirect(`/admin/segments/${s.id}?${id ? "saved" : "created"}=1`);
}

export default function Segment({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const { segment: s, notice } = loaderData;
  return (
    <ConsolePage
      back={{ to: "/admin/segments", label: t("console.segments.back") }}
      title={s ? loaderData.values.name : t("console.segments.newTitle")}
      action={
        s ? (
          <Link
            to={`/admin/messages/campaigns/new?segment=${s.id}`}
            className={buttonVariants({ variant: "secondary" })}
          >
            {t("console.segments.useInCampaign")}
          </Link>
        ) : null
      }
      notices={
        <>
          {notice && !form.state ? <Alert tone="success">{t(`console.segments.${notice}`)}</Alert> : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </>
      }
    >
      <SegmentForm
        key={s ? `${s.id}:${s.version}` : "new"}
        values={loaderData.values}
        version={s?.version ?? null}
        count={loaderData.count}
        cities={loaderData.cities}
        showroom={loaderData.showroom}
        lineOn={loaderData.lineOn}
      />
      {s ? (
        <div className="mt-10">
          <DetailSection
            id="archive-title"
            title={t("console.segments.archive")}
            lead={t("console.segments.archiveHint")}
          >
            <Form method="post">
              <input type="hidden" name="version" value={String(s.version)} />
              <Button type="submit" name="intent" value="archive" variant="secondary">
                {t("console.segments.archive")}
              </Button>
            </Form>
          </DetailSection>
        </div>
      ) : null}
    </ConsolePage>
  );
}
