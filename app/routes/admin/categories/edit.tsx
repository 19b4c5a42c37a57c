import { redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { CategoryForm } from "~/components/console/materials/category-form";
import { useConsoleT } from "~/components/console/use-console-t";
import { consoleCategories, createCategory, updateCategory } from "~/domain/materials/console.server";
import { categoryFormValues, categorySchema, requireVersion } from "~/domain/materials/editor";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { serverT } from "~/lib/i18n.server";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
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
  return { category: { id: found.id, version: found.version }, values: categoryFormValues(found) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  requirePermission(context, "catalog.edit");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const id = params.categoryId ? parseParam(slugId, params.categoryId, request) : null;
  if (id) form.set("id", id);
  const parsed = parseForm(categorySchema(t, { isNew: id === null }), form);
  if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.materials.error.form") });
  const audit = consoleAudit(context, request);
  const now = requestNow(request, app.config);
  try {
    if (id) await updateCategory(app.db, id, requireVersion(form), parsed.data, audit, now);
    else await createCategory(app.db, parsed.data, audit, now);
  } catch (error) {
    return consoleFailure(error, form, t);
  }
  await app.publicPages.invalidate();
  return redirect(`/admin/categories?done=${id ? "saved" : "created"}`);
}

export default function CategoryEditor({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const { category } = loaderData;
  const initial = loaderData.values;
  const fields = { value: (name: string) => form.value(name, initial[name] ?? ""), errors: form.errors };
  return (
    <ConsolePage
      width="3xl"
      back={{ to: "/admin/categories", label: t("console.categories.back") }}
      title={t(category ? "console.categories.edit.title" : "console.categories.new.title")}
    >
      <CategoryForm fields={fields} formError={form.formError} version={category?.version ?? null} />
    </ConsolePage>
  );
}
