import { lazy, Suspense, useEffect, useState } from "react";
import { data, Form, redirect, useNavigation, useRevalidator } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { FilterInput } from "~/components/console/filter-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { ResponsiveImage } from "~/components/images/responsive-image";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Link } from "~/components/ui/link";
import {
  altTextInput,
  countImages,
  deleteImage,
  imageView,
  listImages,
  updateImageAlt,
} from "~/domain/images/images.server";
import { ALT_MAX_LENGTH } from "~/domain/images/limits";
import { mediaStoreFor } from "~/domain/images/storage.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { readForm } from "~/lib/forms.server";
import { useLocale } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { listField, parseListQuery } from "~/lib/list-query";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

// The uploader is its own chunk, fetched after the page is interactive (the console's JS budget).
const ImageUploader = lazy(() => import("~/components/console/image-uploader"));

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.images.title");

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-9a-f-]{36})$/;

/** The media library (ADR 028): every uploaded image with its alt texts, newest first, searchable. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const db = getApp(context).db;
  const url = new URL(request.url);
  const query = parseListQuery(url, { q: listField.text(100), before: listField.cursor(CURSOR) }).values;
  const { q } = query;
  const cursor = CURSOR.exec(query.before ?? "");
  const before = cursor ? { createdAt: new Date(cursor[1] as string), id: cursor[2] as string } : null;
  const [{ images, more }, total] = await Promise.all([listImages(db, { query: q, before }), countImages(db)]);
  const last = images.at(-1);
  const next = new URLSearchParams(q ? { q } : {});
  if (more && last) next.set("before", `${last.createdAt.toISOString()}_${last.id}`);
  return {
    q,
    total,
    images: images.map(imageView),
    nextHref: more && last ? `/admin/images?${next.toString()}` : null,
    deleted: url.searchParams.get("deleted") === "1",
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const app = getApp(context);
  const actor = requirePermission(context, "catalog.edit");
  const form = await readForm(request);
  const t = serverT(request);
  const id = String(form.get("id") ?? "");
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  if (form.get("intent") === "delete") {
    const result = await deleteImage(app.db, actor, id, mediaStoreFor(app.config.media), audit, now);
    if (result === "in_use") return data({ formError: t("console.images.inUse"), editing: id }, { status: 409 });
    if (result === "not_found") return data({ formError: t("console.images.notFound"), editing: id }, { status: 404 });
    return redirect("/admin/images?deleted=1");
  }
  const alt = altTextInput.safeParse({ altZh: form.get("altZh") ?? "", altEn: form.get("altEn") ?? "" });
  if (!alt.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of alt.error.issues) {
      const field = String(issue.path[0]);
      errors[field] = [
        issue.message === "too_long" ? t("console.images.error.altTooLong") : t("console.images.error.altRequired"),
      ];
    }
    return data(
      {
        errors,
        values: { altZh: String(form.get("altZh") ?? ""), altEn: String(form.get("altEn") ?? "") },
        editing: id,
      },
      { status: 400 },
    );
  }
  const saved = await updateImageAlt(app.db, actor, id, alt.data, audit, now);
  if (!saved) return data({ formError: t("console.images.notFound"), editing: id }, { status: 404 });
  return { saved: id };
}

function Uploader() {
  const revalidator = useRevalidator();
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  const placeholder = <div className="h-64 rounded-2xl bg-sand/40" aria-hidden="true" />;
  return (
    <section className="mt-6 rounded-2xl border border-line bg-white p-5">
      {mounted ? (
        <Suspense fallback={placeholder}>
          <ImageUploader onUploaded={() => revalidator.revalidate()} />
        </Suspense>
      ) : (
        placeholder
      )}
    </section>
  );
}

type ActionState = {
  formError?: string;
  editing?: string;
  saved?: string;
  errors?: Record<string, string[]>;
  values?: Record<string, string>;
};

export default function Images({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const state = form.state as ActionState | undefined;
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
      <Uploader />

      <Form method="get" role="search" className="mt-8 flex flex-wrap items-end gap-3">
        <div className="min-w-64 flex-1">
          <FilterInput name="q" type="search" label={t("console.images.search")} value={loaderData.q} />
        </div>
        <Button type="submit" variant="secondary">
          {t("console.images.searchSubmit")}
        </Button>
      </Form>
      <p className="mt-4 text-sm text-muted" data-testid="images-count">
        {t("console.images.count", { count: loaderData.total.toLocaleString("en-US") })}
      </p>

      {loaderData.images.length === 0 ? (
        <p
          className="mt-4 rounded-2xl border border-line bg-white p-6 text-center text-muted"
          data-testid="images-empty"
        >
          {loaderData.q ? t("console.images.empty") : t("console.images.none")}
        </p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="images">
          {loaderData.images.map((image) => {
            const editing = state?.editing === image.id;
            return (
              <li
                key={image.id}
                className="overflow-hidden rounded-2xl border border-line bg-white"
                data-testid="image"
              >
                <div className="aspect-[4/3] bg-sand/40">
                  <ResponsiveImage
                    image={image}
                    sizes="(min-width: 1024px) 22rem, (min-width: 640px) 45vw, 100vw"
                    className="h-full w-full object-cover"
                  />
                </div>
                <div className="space-y-2 p-4">
                  <p className="font-medium" lang="zh-Hant-TW">
                    {image.altZh}
                  </p>
                  {image.altEn ? (
                    <p className="text-sm text-muted" lang="en">
                      {image.altEn}
                    </p>
                  ) : null}
                  <p className="text-xs text-muted tabular-nums">
                    {t("console.images.size", { width: image.width, height: image.height })} ·{" "}
                    {t("console.images.uploadedAt", { time: formatTaipei(image.createdAt, locale, "dateTime") })}
                  </p>
                  <details open={editing && Boolean(state?.errors)} className="text-sm">
                    <summary className="cursor-pointer underline underline-offset-4">
                      {t("console.images.editAlt")}
                    </summary>
                    <Form method="post" className="mt-3 space-y-3">
                      <input type="hidden" name="intent" value="alt" />
                      <input type="hidden" name="id" value={image.id} />
                      <Field
                        label={t("console.images.upload.altZh")}
                        errors={editing ? form.errors("altZh") : null}
                        inputProps={{
                          name: "altZh",
                          required: true,
                          maxLength: ALT_MAX_LENGTH,
                          defaultValue: editing ? form.value("altZh", image.altZh) : image.altZh,
                        }}
                      />
                      <Field
                        label={t("console.images.upload.altEn")}
                        errors={editing ? form.errors("altEn") : null}
                        inputProps={{
                          name: "altEn",
                          maxLength: ALT_MAX_LENGTH,
                          defaultValue: editing ? form.value("altEn", image.altEn) : image.altEn,
                        }}
                      />
                      <Button type="submit" size="sm" pending={navigation.state === "submitting"}>
                        {t("console.images.saveAlt")}
                      </Button>
                    </Form>
                  </details>
                  <Form method="post">
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={image.id} />
                    <Button
                      type="submit"
                      size="sm"
                      variant="secondary"
                      aria-label={t("console.images.deleteFor", { alt: image.altZh })}
                    >
                      {t("console.images.delete")}
                    </Button>
                  </Form>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {loaderData.nextHref ? (
        <p className="mt-6">
          <Link to={loaderData.nextHref} className="underline underline-offset-4">
            {t("console.images.more")}
          </Link>
        </p>
      ) : null}
    </ConsolePage>
  );
}
