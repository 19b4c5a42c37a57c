import { redirect } from "react-router";
import { z } from "zod";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsoleList, RowLink } from "~/components/console/console-list";
import { CatalogListPage, useCatalogColumns } from "~/components/console/materials/catalog-page";
import { MoveButtons } from "~/components/console/materials/category-move";
import { StatusChip } from "~/components/console/materials/editor-fields";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { consoleCategories, moveCategory } from "~/domain/materials/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { formFailure, parseForm, readForm } from "~/lib/forms.server";
import { getLocale, serverT } from "~/lib/i18n.server";
import { pick } from "~/lib/localized";
import { pageMeta } from "~/lib/meta";
import { useFormState } from "~/lib/use-form-state";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.categories.title");

const DONE = ["saved", "created", "moved"] as const;

/** The material categories in their public order (a handful: no paging), moved up or down one place at a time. */
export async function loader({ request, context }: Route.LoaderArgs) {
  requirePermission(context, "catalog.edit");
  const locale = getLocale(request);
  const rows = await consoleCategories(getApp(context).db);
  const done = new URL(request.url).searchParams.get("done");
  return {
    rows: rows.map((c, index) => ({
      id: c.id,
      position: index + 1,
      name: pick(c.name, locale),
      image: c.image.src,
      published: c.published,
      materials: c.materials,
    })),
    done: DONE.find((d) => d === done) ?? null,
  };
}

/** The order buttons' form: which category, up or down (anything else is an old page or a hand-made post). */
const MOVE_FORM = z.object({
  id: z
    .string()
    .default("")
    .transform((v) => v.slice(0, 64)),
  direction: z.enum(["up", "down"]),
});

export async function action({ request, context }: Route.ActionArgs) {
  requirePermission(context, "catalog.edit");
  const app = getApp(context);
  const t = serverT(request);
  const parsed = parseForm(MOVE_FORM, await readForm(request));
  if (!parsed.ok) return formFailure({ errors: {}, values: {}, formError: t("console.materials.error.intent") });
  const { id, direction } = parsed.data;
  try {
    await moveCategory(app.db, id, direction, consoleAudit(context, request), requestNow(request, app.config));
  } catch (error) {
    return consoleFailure(error, null, t, { values: {} });
  }
  await app.publicPages.invalidate();
  return redirect("/admin/categories?done=moved");
}

export default function Categories({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const form = useFormState();
  const { rows, done } = loaderData;
  const notice = done ? <Alert tone="success">{t(`console.categories.done.${done}`)}</Alert> : null;
  const columns = useCatalogColumns<(typeof rows)[number]>("categories", [
    ["order", (c) => c.position, "tabular-nums"],
    [
      "name",
      (c) => (
        <div className="flex items-center gap-3">
          <img src={c.image} alt="" className="size-10 rounded-lg border border-line object-cover" />
          <RowLink to={`/admin/categories/${c.id}`}>{c.name}</RowLink>
        </div>
      ),
    ],
    ["materials", (c) => c.materials, "tabular-nums"],
    [
      "status",
      (c) => (
        <StatusChip on={c.published}>
          {t(c.published ? "console.categories.status.shown" : "console.categories.status.hidden")}
        </StatusChip>
      ),
    ],
    [
      "actions",
      (c) => <MoveButtons id={c.id} name={c.name} first={c.position === 1} last={c.position === rows.length} />,
    ],
  ]);
  return (
    <CatalogListPage
      area="categories"
      width="5xl"
      notices={form.formError ? <Alert tone="error">{form.formError}</Alert> : notice}
    >
      <ConsoleList
        empty={t("console.categories.empty")}
        label={t("console.categories.title")}
        testId="categories-table"
        minWidth="36rem"
        rows={rows}
        rowKey={(c) => c.id}
        rowTestId="category-row"
        columns={columns}
      />
    </CatalogListPage>
  );
}
