import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { MaterialDetailView } from "~/components/catalog/material-detail-view";
import { ConsolePage } from "~/components/console/console-page";
import { DetailSection, TextArea } from "~/components/console/detail-section";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { ErrorList, Field } from "~/components/ui/field";
import { NativeSelectField } from "~/components/ui/native-select";
import {
  consoleCategories,
  createMaterial,
  materialChoices,
  materialForEdit,
  setMaterialPublished,
  updateMaterial,
} from "~/domain/materials/console.server";
import { materialDetailView, type MaterialDetailView as PreviewData } from "~/domain/materials/detail-view";
import {
  expectedVersion,
  LIMITS,
  materialFormValues,
  parseMaterialForm,
  rowCount,
  SPARE_IMAGE_ROWS,
  SPARE_SPEC_ROWS,
  submittedValues,
} from "~/domain/materials/editor";
import { displayingStores, relatedMaterials } from "~/domain/materials/materials.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { type MessageKey, useLocale, useT } from "~/lib/i18n";
import { catalogT, getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import { invalidForm } from "../form-answers.server";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, params.materialId ? "console.materials.edit.title" : "console.materials.new.title");

const DONE = ["saved", "created", "published", "unpublished"] as const;
type Done = (typeof DONE)[number];

/** A new material (`/admin/materials/new`) or one to edit (`/admin/materials/:materialId`); admins only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const { db } = getApp(context);
  const locale = getLocale(request);
  const id = params.materialId ? parseParam(slugId, params.materialId, request) : null;
  const found = id ? await materialForEdit(db, id) : null;
  if (id && !found) notFound(request);
  const [categories, choices] = await Promise.all([consoleCategories(db), materialChoices(db)]);
  const labels = { "zh-TW": catalogT("zh-TW"), en: catalogT("en") };
  const done = new URL(request.url).searchParams.get("done");
  return {
    material: found
      ? {
          id: found.id,
          name: pick(found.name, locale),
          published: found.published,
          version: found.version,
          updatedAt: found.updatedAt.toISOString(),
        }
      : null,
    values: found
      ? materialFormValues(found, (key, l) => labels[l](`catalog.spec.${key}` as MessageKey))
      : { swatch: "#d8d2c8" },
    categories: categories.map((c) => ({ id: c.id, name: pick(c.name, locale) })),
    stores: choices.stores.map((s) => ({ id: s.id, name: pick(s.name, locale), published: s.published })),
    materials: choices.materials
      .filter((m) => m.id !== id)
      .map((m) => ({ id: m.id, name: pick(m.name, locale), categoryId: m.categoryId })),
    done: DONE.find((d) => d === done) ?? null,
  };
}

const INTENTS = ["save", "publish", "unpublish", "preview"] as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  requirePermission(context, "catalog.edit");
  const app = getApp(context);
  const t = serverT(request);
  const locale = getLocale(request);
  const form = await readForm(request);
  const values = submittedValues(form);
  const intent = INTENTS.find((i) => i === form.get("intent"));
  if (!intent) return data({ formError: t("console.materials.error.intent"), values }, { status: 400 });
  const id = params.materialId ? parseParam(slugId, params.materialId, request) : null;
  const isNew = id === null;
  if (!isNew) form.set("id", id);
  const audit = () => consoleAudit(context, request);
  const now = requestNow(request, app.config);
  const version = expectedVersion(form);
  if (!isNew && version === null && intent !== "preview") {
    return data({ formError: t("console.materials.error.conflict"), values }, { status: 409 });
  }

  try {
    if (intent === "unpublish" && id && version !== null) {
      await setMaterialPublished(app.db, id, version, false, audit(), now);
      await app.publicPages.invalidate();
      return redirect(`/admin/materials/${id}?done=unpublished`);
    }
    const parsed = parseMaterialForm(form, t, { isNew });
    if (!parsed.ok) return invalidForm(parsed.errors, values, t);
    const input = parsed.data;

    if (intent === "preview") {
      // The public page's own component, fed with the form as typed: nothing is saved.
      const [categories, stores, related] = await Promise.all([
        consoleCategories(app.db),
        displayingStores(app.db, input.storeIds),
        relatedMaterials(app.db, input),
      ]);
      const category = categories.find((c) => c.id === input.categoryId);
      if (!category) {
        return invalidForm({ categoryId: [t("console.materials.error.unknown_category")] }, values, t);
      }
      const preview = materialDetailView({ material: input, category, stores, related }, locale, t);
      return data({
        values,
        preview,
        previewMessages: routeMessages(locale, "catalog.city.", "catalog.material.", "catalog.store.call"),
      });
    }

    if (isNew) {
      await createMaterial(app.db, input, audit(), now);
      return redirect(`/admin/materials/${input.id}?done=created`);
    }
    if (!id || version === null)
      return data({ formError: t("console.materials.error.conflict"), values }, { status: 409 });
    const saved = await updateMaterial(app.db, id, version, input, audit(), now);
    let done: Done = "saved";
    if (intent === "publish" && !saved.published) {
      await setMaterialPublished(app.db, id, saved.version, true, audit(), now);
      done = "published";
    }
    if (saved.published || done === "published") await app.publicPages.invalidate();
    return redirect(`/admin/materials/${id}?done=${done}`);
  } catch (error) {
    return consoleFailure(error, null, t, { values });
  }
}

type FormAnswer = {
  values?: Record<string, string>;
  preview?: PreviewData;
  previewMessages?: Record<string, string>;
  conflict?: boolean;
};

export default function MaterialEditor({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const navigation = useNavigation();
  const answer = form.state as FormAnswer | undefined;
  const { material, categories, stores, materials } = loaderData;
  const initial = loaderData.values as Record<string, string>;
  const value = (name: string) => form.value(name, initial[name] ?? "");
  const pendingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const isNew = material === null;

  const text = (name: string, label: MessageKey, max: number) => (
    <Field
      label={t(label)}
      errors={form.errors(name)}
      inputProps={{
        name,
        type: "text",
        required: true,
        maxLength: max,
        defaultValue: value(name),
        autoComplete: "off",
      }}
    />
  );
  const pair = (field: string, max: number) => (
    <div className="grid gap-4 sm:grid-cols-2">
      {text(`${field}Zh`, `console.materials.field.${field}Zh` as MessageKey, max)}
      {text(`${field}En`, `console.materials.field.${field}En` as MessageKey, max)}
    </div>
  );
  const chosen = (name: "stores" | "related") => new Set(value(name).split(",").filter(Boolean));
  const specRows = rowCount({ ...initial, ...(answer?.values ?? {}) }, "spec") + SPARE_SPEC_ROWS;
  const imageRows = rowCount({ ...initial, ...(answer?.values ?? {}) }, "image") + SPARE_IMAGE_ROWS;
  const storeSet = chosen("stores");
  const relatedSet = chosen("related");
  const doneKey = loaderData.done ? (`console.materials.done.${loaderData.done}` as MessageKey) : null;

  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/materials", label: t("console.materials.back") }}
      title={material ? material.name : t("console.materials.new.title")}
      badges={
        material ? (
          <span
            className={cn(
              "rounded-full px-3 py-1 text-sm",
              material.published ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
            )}
            data-testid="material-status"
          >
            {t(material.published ? "console.materials.status.published" : "console.materials.status.draft")}
          </span>
        ) : null
      }
    >
      {material ? (
        <p className="mt-1 text-sm text-muted">
          {t("console.materials.version", {
            version: material.version,
            time: formatTaipei(material.updatedAt, locale, "dateTime"),
          })}
          {material.published ? (
            <>
              {" · "}
              <a href={links.materialDetail(material.id)} className="underline underline-offset-4">
                {t("console.materials.viewPublic")}
              </a>
            </>
          ) : null}
        </p>
      ) : (
        <p className="mt-2 text-sm text-muted">{t("console.materials.new.lead")}</p>
      )}
      {doneKey && !answer ? (
        <div className="mt-4">
          <Alert tone="success">{t(doneKey)}</Alert>
        </div>
      ) : null}

      <Form method="post" className="mt-6 space-y-6">
        {form.formError ? (
          <Alert tone="error">
            <span data-testid="form-error">{form.formError}</span>
          </Alert>
        ) : null}
        {material ? <input type="hidden" name="version" value={material.version} /> : null}

        <DetailSection as="fieldset" title={t("console.materials.section.basics")}>
          <div className="grid gap-4 sm:grid-cols-2">
            {isNew ? (
              <Field
                label={t("console.materials.field.id")}
                description={t("console.materials.field.idHint")}
                errors={form.errors("id")}
                inputProps={{
                  name: "id",
                  type: "text",
                  required: true,
                  maxLength: 64,
                  pattern: "[a-z0-9]+(-[a-z0-9]+)*",
                  defaultValue: value("id"),
                  autoComplete: "off",
                  spellCheck: false,
                }}
              />
            ) : null}
            <NativeSelectField
              label={t("console.materials.field.category")}
              errors={form.errors("categoryId")}
              selectProps={{ name: "categoryId", required: true, defaultValue: value("categoryId") }}
            >
              <option value="">{t("console.materials.field.choose")}</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </NativeSelectField>
          </div>
          {pair("name", LIMITS.name)}
          {pair("series", LIMITS.series)}
          <div className="grid gap-4 sm:grid-cols-2">
            <TextArea
              label={t("console.materials.field.summaryZh")}
              name="summaryZh"
              value={value("summaryZh")}
              errors={form.errors("summaryZh")}
              max={LIMITS.summary}
            />
            <TextArea
              label={t("console.materials.field.summaryEn")}
              name="summaryEn"
              value={value("summaryEn")}
              errors={form.errors("summaryEn")}
              max={LIMITS.summary}
            />
          </div>
          <label className="flex min-h-11 items-center gap-3 text-sm">
            <input
              type="checkbox"
              name="featured"
              defaultChecked={value("featured") === "on"}
              className="size-5 accent-brand-700"
            />
            {t("console.materials.field.featured")}
          </label>
        </DetailSection>

        <DetailSection as="fieldset" title={t("console.materials.section.look")}>
          <TextArea
            label={t("console.materials.field.sizes")}
            description={t("console.materials.field.sizesHint")}
            name="sizes"
            value={value("sizes")}
            errors={form.errors("sizes")}
            max={LIMITS.sizes * (LIMITS.size + 2)}
            required={false}
          />
          {pair("finish", LIMITS.short)}
          {pair("colour", LIMITS.short)}
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t("console.materials.field.swatch")}
              description={t("console.materials.field.swatchHint")}
              errors={form.errors("swatch")}
              inputProps={{
                name: "swatch",
                type: "text",
                required: true,
                maxLength: 7,
                pattern: "#[0-9a-fA-F]{6}",
                defaultValue: value("swatch"),
                autoComplete: "off",
                spellCheck: false,
              }}
            />
          </div>
          {pair("origin", LIMITS.short)}
        </DetailSection>

        <DetailSection
          as="fieldset"
          title={t("console.materials.section.specs")}
          lead={t("console.materials.specs.hint")}
        >
          {rowNumbers(specRows).map((i) => (
            <fieldset key={`spec${i}`} className="rounded-xl border border-line/70 p-4" data-testid="spec-row">
              <legend className="px-1 text-sm font-medium text-muted">
                {t("console.materials.specs.row", { n: i + 1 })}
              </legend>
              {value(`spec${i}Key`) ? <input type="hidden" name={`spec${i}Key`} value={value(`spec${i}Key`)} /> : null}
              <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
                {(["LabelZh", "LabelEn", "ValueZh", "ValueEn"] as const).map((cell) => (
                  <Field
                    key={cell}
                    label={t(`console.materials.specs.${cell[0]?.toLowerCase()}${cell.slice(1)}` as MessageKey)}
                    errors={form.errors(`spec${i}${cell}`)}
                    inputProps={{
                      name: `spec${i}${cell}`,
                      type: "text",
                      maxLength: cell.startsWith("Label") ? LIMITS.specLabel : LIMITS.specValue,
                      defaultValue: value(`spec${i}${cell}`),
                      autoComplete: "off",
                    }}
                  />
                ))}
              </div>
            </fieldset>
          ))}
        </DetailSection>

        <DetailSection as="fieldset" title={t("console.materials.section.care")}>
          <div className="grid gap-4 sm:grid-cols-2">
            <TextArea
              label={t("console.materials.field.careZh")}
              name="careZh"
              value={value("careZh")}
              errors={form.errors("careZh")}
              max={LIMITS.care}
              rows={4}
            />
            <TextArea
              label={t("console.materials.field.careEn")}
              name="careEn"
              value={value("careEn")}
              errors={form.errors("careEn")}
              max={LIMITS.care}
              rows={4}
            />
          </div>
        </DetailSection>

        {/* The image uploader (branch `images`, ADR 028) replaces the path field of each row. */}
        <DetailSection
          as="fieldset"
          title={t("console.materials.section.images")}
          lead={t("console.materials.images.hint")}
        >
          {rowNumbers(imageRows).map((i) => {
            const src = value(`image${i}Src`);
            return (
              <fieldset
                key={`image${i}`}
                className="grid gap-4 rounded-xl border border-line/70 p-4 sm:grid-cols-[8rem_1fr]"
                data-testid="image-row"
              >
                <legend className="px-1 text-sm font-medium text-muted">
                  {t("console.materials.images.row", { n: i + 1 })}
                </legend>
                <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg bg-sand">
                  {src.startsWith("/") && !src.startsWith("//") ? (
                    <img src={src} alt="" className="size-full object-cover" loading="lazy" />
                  ) : null}
                </div>
                <div className="grid gap-3">
                  <Field
                    label={t("console.materials.images.src")}
                    errors={form.errors(`image${i}Src`)}
                    inputProps={{
                      name: `image${i}Src`,
                      type: "text",
                      maxLength: LIMITS.imageSrc,
                      defaultValue: src,
                      autoComplete: "off",
                      spellCheck: false,
                    }}
                  />
                  <div className="grid gap-3 sm:grid-cols-2">
                    {(["AltZh", "AltEn"] as const).map((cell) => (
                      <Field
                        key={cell}
                        label={t(`console.materials.images.${cell === "AltZh" ? "altZh" : "altEn"}`)}
                        errors={form.errors(`image${i}${cell}`)}
                        inputProps={{
                          name: `image${i}${cell}`,
                          type: "text",
                          maxLength: LIMITS.alt,
                          defaultValue: value(`image${i}${cell}`),
                          autoComplete: "off",
                        }}
                      />
                    ))}
                  </div>
                  {value(`image${i}Width`) ? (
                    <>
                      <input type="hidden" name={`image${i}Width`} value={value(`image${i}Width`)} />
                      <input type="hidden" name={`image${i}Height`} value={value(`image${i}Height`)} />
                    </>
                  ) : null}
                </div>
              </fieldset>
            );
          })}
        </DetailSection>

        <DetailSection
          as="fieldset"
          title={t("console.materials.section.stores")}
          lead={t("console.materials.stores.hint")}
        >
          <ul className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3" data-testid="store-choices">
            {stores.map((s) => (
              <li key={s.id}>
                <label className="flex min-h-11 items-center gap-3 text-sm">
                  <input
                    type="checkbox"
                    name="stores"
                    value={s.id}
                    defaultChecked={storeSet.has(s.id)}
                    aria-invalid={form.errors("stores") ? true : undefined}
                    aria-describedby={form.errors("stores") ? "stores-error" : undefined}
                    className="size-5 accent-brand-700"
                  />
                  <span>
                    {s.name}
                    {s.published ? null : (
                      <span className="text-muted"> {t("console.materials.stores.unpublished")}</span>
                    )}
                  </span>
                </label>
              </li>
            ))}
          </ul>
          <ErrorList id="stores-error" errors={form.errors("stores")} />
        </DetailSection>

        <DetailSection
          as="fieldset"
          title={t("console.materials.section.related")}
          lead={t("console.materials.related.hint")}
        >
          {categories.map((c) => {
            const inCategory = materials.filter((m) => m.categoryId === c.id);
            if (inCategory.length === 0) return null;
            return (
              <fieldset key={c.id}>
                <legend className="text-sm font-medium">{c.name}</legend>
                <ul className="mt-1 grid gap-x-4 sm:grid-cols-2 lg:grid-cols-3">
                  {inCategory.map((m) => (
                    <li key={m.id}>
                      <label className="flex min-h-10 items-center gap-3 text-sm">
                        <input
                          type="checkbox"
                          name="related"
                          value={m.id}
                          defaultChecked={relatedSet.has(m.id)}
                          aria-invalid={form.errors("related") ? true : undefined}
                          aria-describedby={form.errors("related") ? "related-error" : undefined}
                          className="size-5 accent-brand-700"
                        />
                        {m.name}
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
            );
          })}
          <ErrorList id="related-error" errors={form.errors("related")} />
        </DetailSection>

        <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap gap-3 border-t border-line bg-paper/95 px-4 py-4 sm:mx-0 sm:rounded-2xl sm:border">
          <Button type="submit" name="intent" value="save" pending={pendingIntent === "save"}>
            {t(isNew ? "console.materials.create" : "console.materials.save")}
          </Button>
          {material && !material.published ? (
            <Button
              type="submit"
              name="intent"
              value="publish"
              variant="secondary"
              pending={pendingIntent === "publish"}
            >
              {t("console.materials.saveAndPublish")}
            </Button>
          ) : null}
          <Button type="submit" name="intent" value="preview" variant="ghost" pending={pendingIntent === "preview"}>
            {t("console.materials.preview")}
          </Button>
        </div>
      </Form>

      {material?.published ? (
        <Form method="post" className="mt-4">
          <input type="hidden" name="version" value={material.version} />
          <Button type="submit" name="intent" value="unpublish" variant="ghost" pending={pendingIntent === "unpublish"}>
            {t("console.materials.unpublish")}
          </Button>
        </Form>
      ) : null}

      {answer?.preview ? <Preview view={answer.preview} messages={answer.previewMessages} /> : null}
    </ConsolePage>
  );
}

/** 0…n-1: the numbers of a form's rows (their field names are `spec0…`, so the number is the row's identity). */
function rowNumbers(n: number): number[] {
  return [...Array(n).keys()];
}

function Preview({ view, messages }: { view: PreviewData; messages?: Record<string, string> }) {
  const t = useConsoleT();
  const publicT = useT(messages);
  return (
    <section aria-labelledby="preview-heading" className="mt-10" data-testid="material-preview">
      <h2 id="preview-heading" className="font-serif text-2xl font-semibold">
        {t("console.materials.preview.title")}
      </h2>
      <p className="mt-1 text-sm text-muted">{t("console.materials.preview.lead")}</p>
      <div className="mt-4 overflow-hidden rounded-3xl border-2 border-dashed border-line bg-paper">
        <MaterialDetailView view={view} t={publicT} />
      </div>
    </section>
  );
}
