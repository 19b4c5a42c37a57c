import { redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, FilterBar } from "~/components/console/console-list";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput } from "~/components/console/filter-fields";
import { ImageCard } from "~/components/console/images/image-card";
import { LibraryUploader } from "~/components/console/images/library-uploader";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import {
  altTextSchema,
  countImages,
  deleteImage,
  imageView,
  listImages,
  updateImageAlt,
} from "~/domain/images/images.server";
import { mediaStoreFor } from "~/domain/images/storage.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { serverT } from "~/lib/i18n.server";
import { listField, listHref, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.images.title");

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/;
const IMAGE_QUERY = { q: listField.text(100), before: listField.cursor(CURSOR) };

/** The media library (ADR 028): every uploaded image with its alt texts, newest first, searchable. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const db = getApp(context).db;
  const url = new URL(request.url);
  const query = parseListQuery(url, IMAGE_QUERY);
  const cursor = CURSOR.exec(query.values.before ?? "");
  const before = cursor ? { createdAt: new Date(cursor[1] as string), id: cursor[2] as string } : null;
  const [{ images, more }, total] = await Promise.all([
    listImages(db, { query: query.values.q, before }),
    countImages(db),
  ]);
  const last = images.at(-1);
  const next = more && last ? `${last.createdAt.toISOString()}_${last.id}` : null;
  return {
    q: query.values.q,
    total,
    images: images.map(imageView),
    nextHref: next ? listHref("/admin/images", IMAGE_QUERY, query, { before: next }) : null,
    deleted: url.searchParams.get("deleted") === "1",
  };
}

/** An image's alt texts changed, or the image deleted (refused while something still shows it). */
export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "catalog.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const id = String(form.get("id") ?? "");
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  try {
    if (form.get("intent") === "delete") {
      await deleteImage(app.db, actor, id, mediaStoreFor(app.config.media), audit, now);
      return redirect("/admin/images?deleted=1");
    }
    const parsed = parseForm(altTextSchema(t), form);
    if (!parsed.ok) return formFailure(parsed.failure);
    await updateImageAlt(app.db, actor, id, parsed.data, audit, now);
    return { saved: id };
  } catch (error) {
    return consoleFailure(error, form, t);
  }
}

export default function Images({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const state = form.state as (typeof form.state & { saved?: string }) | undefined;
  return (
    <ConsolePage
      title={t("console.images.title")}
      lead={t("console.images.lead")}
      notices={
        <>
          {loaderData.deleted && !state ? <Alert tone="success">{t("console.images.deleted")}</Alert> : null}
          {state?.saved ? <Alert tone="success">{t("console.images.altSaved")}</Alert> : null}
          {state?.formError ? <Alert tone="error">{state.formError}</Alert> : null}
        </>
      }
    >
      <LibraryUploader />
      <ConsoleList
        filters={
          <FilterBar submitLabel={t("console.images.searchSubmit")} columns="lg:grid-cols-[1fr_auto]" className="mt-8">
            <FilterInput name="q" type="search" label={t("console.images.search")} value={loaderData.q} />
          </FilterBar>
        }
        count={t("console.images.count", { count: loaderData.total.toLocaleString("en-US") })}
        countTestId="images-count"
        empty={loaderData.q ? t("console.images.empty") : t("console.images.none")}
        emptyTestId="images-empty"
        rows={loaderData.images}
        columns={[]}
        rowKey={(image) => image.id}
        paging={{ kind: "more", href: loaderData.nextHref, label: t("console.images.more") }}
      >
        <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="images">
          {loaderData.images.map((image) => (
            <ImageCard key={image.id} image={image} form={state?.values?.id === image.id ? form : null} />
          ))}
        </ul>
      </ConsoleList>
    </ConsolePage>
  );
}
