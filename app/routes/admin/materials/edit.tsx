import { redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { StatusChip } from "~/components/console/materials/editor-fields";
import { MaterialForm } from "~/components/console/materials/material-form";
import { MaterialPreview } from "~/components/console/materials/material-preview";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { setMaterialPublished } from "~/domain/materials/console.server";
import type { MaterialDetailView } from "~/domain/materials/detail-view";
import { materialSchema, requireVersion, withChoices } from "~/domain/materials/editor";
import { materialEditor, materialPreview, saveMaterial } from "~/domain/materials/editor.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, formValues, parseForm, readForm } from "~/lib/forms.server";
import { notFound, parseParam, slugId } from "~/lib/http.server";
import { type CatalogRef, useLocale } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/edit";

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches, params.materialId ? "console.materials.edit.title" : "console.materials.new.title");

const DONE = ["saved", "created", "published", "unpublished"] as const;

/** A new material (`/admin/materials/new`) or one to edit (`/admin/materials/:materialId`); admins only. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const id = params.materialId ? parseParam(slugId, params.materialId, request) : null;
  const editor = await materialEditor(getApp(context).db, id, getLocale(request));
  if (!editor) notFound(request);
  const done = new URL(request.url).searchParams.get("done");
  return { ...editor, done: DONE.find((d) => d === done) ?? null };
}

const INTENTS = ["save", "publish", "unpublish", "preview"] as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  requirePermission(context, "catalog.edit");
  const app = getApp(context);
  const t = serverT(request);
  const form = withChoices(await readForm(request));
  const intent = INTENTS.find((i) => i === form.get("intent"));
  if (!intent) {
    return formFailure({ errors: {}, values: formValues(form), formError: t("console.materials.error.intent") });
  }
  const id = params.materialId ? parseParam(slugId, params.materialId, request) : null;
  if (id) form.set("id", id);
  const now = requestNow(request, app.config);
  try {
    // An edit is checked against the version the form was loaded with (a preview saves nothing).
    const target = id && intent !== "preview" ? { id, version: requireVersion(form) } : null;
    if (target && intent === "unpublish") {
      await setMaterialPublished(app.db, target.id, target.version, false, consoleAudit(context, request), now);
      await app.publicPages.invalidate();
      return redirect(`/admin/materials/${target.id}?done=unpublished`);
    }
    const parsed = parseForm(materialSchema(t, { isNew: id === null }), form);
    if (!parsed.ok) return formFailure({ ...parsed.failure, formError: t("console.materials.error.form") });
    if (intent === "preview") {
      const locale = getLocale(request);
      return {
        values: formValues(form),
        preview: await materialPreview(app.db, parsed.data, locale, t),
        previewMessages: routeMessages(locale, "catalog.city.", "catalog.material.", "catalog.store.call"),
      };
    }
    const audit = consoleAudit(context, request);
    const saved = await saveMaterial(app.db, target, parsed.data, intent === "publish", audit, now);
    if (saved.shown) await app.publicPages.invalidate();
    return redirect(`/admin/materials/${parsed.data.id}?done=${saved.done}`);
  } catch (error) {
    return consoleFailure(error, form, t);
  }
}

type Answer = { values?: Record<string, string>; preview?: MaterialDetailView; previewMessages?: CatalogRef };

export default function MaterialEditor({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  const form = useFormState();
  const answer = form.state as Answer | undefined;
  const { material, categories, stores, materials, done } = loaderData;
  const initial: Record<string, string> = loaderData.values;
  const fields = { value: (name: string) => form.value(name, initial[name] ?? ""), errors: form.errors };

  return (
    <ConsolePage
      width="5xl"
      back={{ to: "/admin/materials", label: t("console.materials.back") }}
      title={material ? material.name : t("console.materials.new.title")}
      lead={
        material ? (
          <>
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
          </>
        ) : (
          t("console.materials.new.lead")
        )
      }
      notices={done && !answer ? <Alert tone="success">{t(`console.materials.done.${done}`)}</Alert> : null}
      badges={
        material ? (
          <StatusChip on={material.published} large testId="material-status">
            {t(material.published ? "console.materials.status.published" : "console.materials.status.draft")}
          </StatusChip>
        ) : null
      }
    >
      <MaterialForm
        material={material}
        fields={fields}
        formError={form.formError}
        rowValues={{ ...initial, ...answer?.values }}
        categories={categories}
        stores={stores}
        materials={materials}
      />
      {answer?.preview ? <MaterialPreview view={answer.preview} messages={answer.previewMessages} /> : null}
    </ConsolePage>
  );
}
