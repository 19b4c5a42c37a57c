import { STORE_SERVICES } from "@platform/db/schema/catalog";
import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StoreFormFields } from "~/components/console/store-form-fields";
import { StorePhotosField } from "~/components/console/store-photos-field";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { isRefusal, isVersionConflict } from "~/domain/refusals";
import { requirePermission } from "~/domain/staff/guard.server";
import { hasPermission } from "~/domain/staff/permissions";
import {
  calendarWeeks,
  loadStoreEditor,
  publishStore,
  saveStoreDraft,
  unpublishStore,
} from "~/domain/stores/console.server";
import { parseStoreForm } from "~/domain/stores/editor";
import { formatIntervals, isoDate } from "~/domain/stores/hours";
import { photoToken, photoView } from "~/domain/stores/photos";
import { resolvePhotos } from "~/domain/stores/photos.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { type MessageKey, useLocale } from "~/lib/i18n";
import { getLocale, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei, taipeiDate } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/edit";
import { contentValues, districtChoices, storeFormFailure, storeFormValues, translateErrors } from "./stores.server";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.stores.title");

const NOTICES = ["created", "saved", "published", "unpublished"] as const;

/**
 * One store's editor (ADR 027): the draft (or the published content) in the form, saved as a draft
 * with the version it started from; preview, publish (one action) and unpublish; the next 8 weeks as
 * "open now" will compute them; the published versions. A manager only for their own stores: a
 * foreign store id is a 403 before anything is read.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = parseParam(slugId, params.storeId, request);
  const app = getApp(context);
  const actor = requirePermission(context, "store.edit", { storeId: id });
  const locale = getLocale(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  let editor: Awaited<ReturnType<typeof loadStoreEditor>>;
  try {
    editor = await loadStoreEditor(app.db, actor, id, now);
  } catch (error) {
    if (isRefusal(error, "stores")) notFound(request);
    throw error;
  }
  const { row, content, draft } = editor;
  const notice = new URL(request.url).searchParams.get("done");
  const photos = await resolvePhotos(app.db, content.photos);
  return {
    id,
    name: pick(content.name, locale),
    published: row.published,
    version: draft.version,
    pending: draft.data ? { by: editor.draftBy ?? "—", at: draft.updatedAt?.toISOString() ?? null } : null,
    notice: (NOTICES as readonly string[]).includes(notice ?? "") ? (notice as (typeof NOTICES)[number]) : null,
    values: contentValues(content),
    services: content.services,
    exceptionRows: content.exceptions.length + 3,
    photos: photos.map((p) => ({ token: photoToken(p), view: photoView(p, locale) })),
    canUpload: hasPermission(actor, "catalog.edit"),
    districts: districtChoices(locale, t),
    calendar: calendarWeeks(content, now).map((week) =>
      week.map((d) => ({
        date: d.date,
        weekday: d.weekday,
        hours: formatIntervals(d.intervals),
        exceptional: d.exceptional,
        note: d.note ? pick(d.note, locale) : null,
        past: d.past,
        today: d.today,
      })),
    ),
    today: isoDate(taipeiDate(now)),
    revisions: editor.revisions.map((r) => ({
      revision: r.revision,
      at: r.publishedAt.toISOString(),
      by: r.publishedByName ?? "—",
    })),
    canUnpublish: hasPermission(actor, "catalog.edit"),
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const id = parseParam(slugId, params.storeId, request);
  const app = getApp(context);
  const actor = requirePermission(context, "store.edit", { storeId: id });
  const form = await readForm(request);
  const t = serverT(request);
  const now = requestNow(request, app.config);
  const audit = consoleAudit(context, request);
  const intent = String(form.get("intent") ?? "save");
  const version = Number(form.get("version") ?? "-1");
  if (!Number.isInteger(version) || version < 0) throw data(null, { status: 400, statusText: "Bad Request" });

  if (intent === "publish") {
    try {
      await publishStore(app.db, actor, id, version, audit, now);
    } catch (error) {
      if (isRefusal(error, "stores") && error.code === "not_found") notFound(request);
      // The draft changed since the page was opened: reload, preview, publish (nothing typed to keep).
      return consoleFailure(error, null, t, {
        wording: { version_conflict: "console.stores.error.publishConflict" },
        answer: { conflict: undefined },
      });
    }
    // This instance's render cache at once; publishStore moved the catalogue version, which every other
    // instance follows within seconds.
    app.publicPages.clearLocal();
    return redirect(`/admin/stores/${id}?done=published`);
  }
  if (intent === "unpublish") {
    requirePermission(context, "catalog.edit");
    await unpublishStore(app.db, actor, id, audit, now);
    app.publicPages.clearLocal();
    return redirect(`/admin/stores/${id}?done=unpublished`);
  }

  const parsed = parseStoreForm(form, isoDate(taipeiDate(now)));
  if (!parsed.ok) return storeFormFailure(form, translateErrors(parsed.errors, t), t);
  try {
    await saveStoreDraft(app.db, actor, id, version, parsed.content, audit, now, parsed.photos);
  } catch (error) {
    const values = storeFormValues(form);
    if (isVersionConflict(error)) {
      // Told, nothing lost: the typed values come back, with the version now current, so saving again is a
      // deliberate choice to replace the other person's changes.
      const latest = (await loadStoreEditor(app.db, actor, id, now)).draft.version;
      return consoleFailure(error, null, t, { values: { ...values, version: String(latest), ...keepServices(form) } });
    }
    return consoleFailure(error, null, t, { values });
  }
  return redirect(`/admin/stores/${id}?done=saved`);
}

function keepServices(form: FormData) {
  return { services: storeFormValues(form).services ?? "" };
}

function Calendar({ weeks }: { weeks: Route.ComponentProps["loaderData"]["calendar"] }) {
  const t = useConsoleT();
  return (
    <section aria-labelledby="store-calendar" className="rounded-2xl border border-line bg-white p-5">
      <h2 id="store-calendar" className="text-lg font-semibold">
        {t("console.stores.calendar.title")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("console.stores.calendar.lead")}</p>
      <TableScroll labelledBy="store-calendar" className="mt-4">
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
                {week.map((day) => {
                  const closed = day.hours === "";
                  return (
                    <td
                      key={day.date}
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
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

export default function EditStore({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const pendingIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
  const state = form.state as { conflict?: boolean } | undefined;
  const values = (field: string) => (form.state?.values ? form.value(field) : (loaderData.values[field] ?? ""));
  const services = form.state?.values ? form.value("services").split(",").filter(Boolean) : loaderData.services;
  const exRows = form.state?.values
    ? Math.max(Object.keys(form.state.values).filter((k) => /^ex\d+Date$/.test(k)).length, 3)
    : loaderData.exceptionRows;
  const version = form.state?.values?.version ?? String(loaderData.version);
  const { notice } = loaderData;
  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/stores", label: t("console.stores.back") }}
      title={loaderData.name}
      lead={<span className="font-mono">{t("console.stores.edit.lead", { id: loaderData.id })}</span>}
    >
      <section
        aria-label={t("console.stores.col.status")}
        className="mt-6 space-y-3 rounded-2xl border border-line bg-white p-5"
        data-testid="store-status"
      >
        <div aria-live="polite" className="space-y-3">
          {notice && !form.state ? (
            <Alert tone="success">
              {t(
                `console.stores.${notice === "published" ? "publishedDone" : notice === "unpublished" ? "unpublishedDone" : notice}` as MessageKey,
              )}
            </Alert>
          ) : null}
          {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        </div>
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <span
            className={cn(
              "rounded-full px-2.5 py-0.5 text-xs font-medium",
              loaderData.published ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
            )}
            data-testid="store-published"
          >
            {loaderData.published ? t("console.stores.state.published") : t("console.stores.state.unpublished")}
          </span>
          <span data-testid="store-draft">
            {loaderData.pending
              ? t("console.stores.draft.pending", {
                  name: loaderData.pending.by,
                  time: loaderData.pending.at ? formatTaipei(loaderData.pending.at, locale, "dateTime") : "",
                })
              : t("console.stores.draft.none")}
          </span>
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <Link
            to={`/admin/stores/${loaderData.id}/preview`}
            className={buttonVariants({ variant: "secondary" })}
            data-testid="store-preview"
          >
            {t("console.stores.preview")}
          </Link>
          {loaderData.pending || !loaderData.published ? (
            <Form method="post">
              <input type="hidden" name="intent" value="publish" />
              <input type="hidden" name="version" value={loaderData.version} />
              <Button type="submit" pending={pendingIntent === "publish"} aria-describedby="publish-hint">
                {t("console.stores.publish")}
              </Button>
            </Form>
          ) : null}
          {loaderData.published && loaderData.canUnpublish ? (
            <Form method="post">
              <input type="hidden" name="intent" value="unpublish" />
              <input type="hidden" name="version" value={loaderData.version} />
              <Button type="submit" variant="ghost" pending={pendingIntent === "unpublish"}>
                {t("console.stores.unpublish")}
              </Button>
            </Form>
          ) : null}
          {loaderData.published ? (
            <a href={links.storeDetail(loaderData.id)} className="text-sm underline underline-offset-4">
              {t("console.stores.viewPublic")}
            </a>
          ) : null}
        </div>
        {loaderData.pending || !loaderData.published ? (
          <p id="publish-hint" className="text-xs text-muted">
            {t("console.stores.publishHint")}
          </p>
        ) : null}
      </section>

      <div className="mt-6">
        <Calendar weeks={loaderData.calendar} />
      </div>

      <Form method="post" className="mt-6 space-y-6" key={state?.conflict ? `conflict-${version}` : "form"}>
        <input type="hidden" name="intent" value="save" />
        <input type="hidden" name="version" value={version} />
        <StoreFormFields
          values={values}
          errors={form.errors}
          services={services}
          allServices={STORE_SERVICES}
          districts={loaderData.districts}
          exceptionRows={exRows}
          photos={
            <StorePhotosField
              initial={loaderData.photos}
              errors={form.errors("photos")}
              canUpload={loaderData.canUpload}
            />
          }
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" pending={pendingIntent === "save"}>
            {t("console.stores.save")}
          </Button>
        </div>
      </Form>

      <section aria-labelledby="store-history" className="mt-6 rounded-2xl border border-line bg-white p-5">
        <h2 id="store-history" className="text-lg font-semibold">
          {t("console.stores.history.title")}
        </h2>
        {loaderData.revisions.length === 0 ? (
          <p className="mt-2 text-sm text-muted">{t("console.stores.history.none")}</p>
        ) : (
          <ol className="mt-3 divide-y divide-line text-sm" data-testid="store-history">
            {loaderData.revisions.map((r) => (
              <li key={r.revision} className="flex flex-wrap justify-between gap-2 py-2">
                <span className="font-medium">{t("console.stores.history.row", { n: r.revision })}</span>
                <span className="text-muted tabular-nums">
                  {formatTaipei(r.at, locale, "dateTime")} · {r.by}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </ConsolePage>
  );
}
