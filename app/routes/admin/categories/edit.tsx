import { data, Form, redirect, useNavigation } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { consoleCategories, createCategory, updateCategory } from "~/domain/materials/console.server";
import { expectedVersion, LIMITS, parseCategoryForm } from "~/domain/materials/editor";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formValues, readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import type { MessageKey } from "~/lib/i18n";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import { invalidForm } from "../form-answers.server";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, params.categoryId ? "console.categories.edit.title" : "console.categories.new.title");

/** A new category (`/admin/categories/new`) or one to edit: names, summary, the image and its alt texts. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const id = params.categoryId ? parseParam(slugId, params.categoryId, request) : null;
  if (!id) return { category: null, values: { published: "on" } as Record<string, string> };
  const found = (await consoleCategories(getApp(context).db)).find((c) => c.id === id);
  if (!found) notFound(request);
  return {
    category: { id: found.id, version: found.version },
    values: {
      nameZh: found.name["zh-TW"],
      nameEn: found.name.en,
      summaryZh: found.summary["zh-TW"],
      summaryEn: found.summary.en,
      imageSrc: found.image.src,
      imageAltZh: found.image.alt["zh-TW"],
      imageAltEn: found.image.alt.en,
      published: found.published ? "on" : "",
    } as Record<string, string>,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requirePermission(context, "catalog.edit");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const values = formValues(form);
  const id = params.categoryId ? parseParam(slugId, params.categoryId, request) : null;
  if (id) form.set("id", id);
  const parsed = parseCategoryForm(form, t, { isNew: id === null });
  if (!parsed.ok) return invalidForm(parsed.errors, values, t);
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  try {
    if (id) {
      const version = expectedVersion(form);
      if (version === null) return data({ formError: t("console.materials.error.conflict"), values }, { status: 409 });
      await updateCategory(app.db, id, version, parsed.data, audit, now);
    } else {
      await createCategory(app.db, parsed.data, audit, now);
    }
  } catch (error) {
    return consoleFailure(error, null, t, { values });
  }
  await app.publicPages.invalidate();
  return redirect(`/admin/categories?done=${id ? "saved" : "created"}`);
}

export default function CategoryEditor({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const pending = useNavigation().state === "submitting";
  const { category } = loaderData;
  const initial = loaderData.values;
  const value = (name: string) => form.value(name, initial[name] ?? "");
  const text = (name: string, label: MessageKey, max: number, extra: Record<string, unknown> = {}) => (
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
        ...extra,
      }}
    />
  );
  const src = value("imageSrc");
  return (
    <ConsolePage
      width="3xl"
      back={{ to: "/admin/categories", label: t("console.categories.back") }}
      title={t(category ? "console.categories.edit.title" : "console.categories.new.title")}
    >
      <Form method="post" className="mt-6 space-y-5 rounded-2xl border border-line bg-white p-5">
        {form.formError ? <Alert tone="error">{form.formError}</Alert> : null}
        {category ? <input type="hidden" name="version" value={category.version} /> : null}
        {category
          ? null
          : text("id", "console.materials.field.id", 64, { pattern: "[a-z0-9]+(-[a-z0-9]+)*", spellCheck: false })}
        <div className="grid gap-4 sm:grid-cols-2">
          {text("nameZh", "console.materials.field.nameZh", LIMITS.name)}
          {text("nameEn", "console.materials.field.nameEn", LIMITS.name)}
          {text("summaryZh", "console.materials.field.summaryZh", LIMITS.summary)}
          {text("summaryEn", "console.materials.field.summaryEn", LIMITS.summary)}
        </div>
        {/* The image uploader (branch `images`, ADR 028) replaces the path field. */}
        <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
          <div className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg bg-sand">
            {src.startsWith("/") && !src.startsWith("//") ? (
              <img src={src} alt="" className="size-full object-cover" />
            ) : null}
          </div>
          {text("imageSrc", "console.categories.field.imageSrc", LIMITS.imageSrc, { spellCheck: false })}
        </div>
        <div className="grid gap-4 sm:grid-cols-2">
          {text("imageAltZh", "console.categories.field.imageAltZh", LIMITS.alt)}
          {text("imageAltEn", "console.categories.field.imageAltEn", LIMITS.alt)}
        </div>
        <label className="flex min-h-11 items-center gap-3 text-sm">
          <input
            type="checkbox"
            name="published"
            defaultChecked={value("published") === "on"}
            className="size-5 accent-brand-700"
          />
          {t("console.categories.field.published")}
        </label>
        <Button type="submit" pending={pending}>
          {t(category ? "console.materials.save" : "console.materials.create")}
        </Button>
      </Form>
    </ConsolePage>
  );
}
