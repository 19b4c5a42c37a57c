import { data, Form, redirect } from "react-router";
import { consoleAudit } from "~/adapters/console.server";
import { consoleFailure } from "~/adapters/console-failure.server";
import { getApp } from "~/adapters/context.server";
import { ConsolePage } from "~/components/console/console-page";
import { TableScroll } from "~/components/console/table-scroll";
import { useConsoleT } from "~/components/console/use-console-t";
import { Alert } from "~/components/ui/alert";
import { buttonVariants } from "~/components/ui/button";
import { ChevronRight } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { consoleCategories, moveCategory } from "~/domain/materials/console.server";
import { requirePermission } from "~/domain/staff/guard.server";
import { requestNow } from "~/lib/clock.server";
import { cn } from "~/lib/cn";
import { readForm } from "~/lib/forms.server";
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
    rows: rows.map((c) => ({
      id: c.id,
      name: pick(c.name, locale),
      image: c.image.src,
      published: c.published,
      materials: c.materials,
    })),
    done: DONE.find((d) => d === done) ?? null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requirePermission(context, "catalog.edit");
  const app = getApp(context);
  const t = serverT(request);
  const form = await readForm(request);
  const id = String(form.get("id") ?? "").slice(0, 64);
  const direction = form.get("direction");
  if (direction !== "up" && direction !== "down") {
    return data({ formError: t("console.materials.error.intent") }, { status: 400 });
  }
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
  const { rows } = loaderData;
  return (
    <ConsolePage
      width="5xl"
      title={t("console.categories.title")}
      lead={t("console.categories.lead")}
      action={
        <Link to="/admin/categories/new" className={buttonVariants()}>
          {t("console.categories.new")}
        </Link>
      }
    >
      {form.formError ? (
        <div className="mt-4">
          <Alert tone="error">{form.formError}</Alert>
        </div>
      ) : loaderData.done ? (
        <div className="mt-4">
          <Alert tone="success">{t(`console.categories.done.${loaderData.done}`)}</Alert>
        </div>
      ) : null}
      {rows.length === 0 ? (
        <p className="mt-6 rounded-2xl border border-line bg-white p-6 text-center text-muted">
          {t("console.categories.empty")}
        </p>
      ) : (
        <TableScroll label={t("console.categories.title")} className="mt-6 rounded-2xl border border-line">
          <table className="w-full min-w-[36rem] text-left text-sm" data-testid="categories-table">
            <thead className="border-b border-line bg-sand/50 text-muted">
              <tr>
                {(["order", "name", "materials", "status", "actions"] as const).map((col) => (
                  <th key={col} scope="col" className="px-4 py-3 font-medium">
                    {t(`console.categories.col.${col}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {rows.map((c, index) => (
                <tr key={c.id} data-testid="category-row">
                  <td className="px-4 py-3 tabular-nums">{index + 1}</td>
                  <td className="px-4 py-3">
                    <div className="flex items-center gap-3">
                      <img src={c.image} alt="" className="size-10 rounded-lg border border-line object-cover" />
                      <Link
                        to={`/admin/categories/${c.id}`}
                        className="font-medium underline decoration-line underline-offset-4 hover:decoration-ink"
                      >
                        {c.name}
                      </Link>
                    </div>
                  </td>
                  <td className="px-4 py-3 tabular-nums">{c.materials}</td>
                  <td className="px-4 py-3">
                    <span
                      className={cn(
                        "rounded-full px-2 py-0.5 text-xs",
                        c.published ? "bg-success-700/10 text-success-700" : "bg-sand text-ink",
                      )}
                    >
                      {t(c.published ? "console.categories.status.shown" : "console.categories.status.hidden")}
                    </span>
                  </td>
                  <td className="px-4 py-3">
                    <Form method="post" className="flex gap-1">
                      <input type="hidden" name="id" value={c.id} />
                      {(["up", "down"] as const).map((direction) => {
                        const disabled = direction === "up" ? index === 0 : index === rows.length - 1;
                        return (
                          <button
                            key={direction}
                            type="submit"
                            name="direction"
                            value={direction}
                            disabled={disabled}
                            aria-label={t(
                              direction === "up" ? "console.categories.moveUp" : "console.categories.moveDown",
                              {
                                name: c.name,
                              },
                            )}
                            className="inline-flex size-11 items-center justify-center rounded-full text-ink transition-colors hover:bg-sand focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700 disabled:cursor-not-allowed disabled:opacity-30 disabled:hover:bg-transparent"
                          >
                            <ChevronRight
                              aria-hidden
                              className={cn("size-5", direction === "up" ? "-rotate-90" : "rotate-90")}
                            />
                          </button>
                        );
                      })}
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </ConsolePage>
  );
}
