import { useConsoleT } from "~/components/console/use-console-t";
import { requireStaff } from "~/domain/staff/guard.server";
import { ALL_PERMISSIONS, hasPermission } from "~/domain/staff/permissions";
import { useLocale } from "~/lib/i18n";
import { pageMeta } from "~/lib/meta";
import { formatTaipei } from "~/lib/time";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "console.home.title");

/** The console's first page: who you are, where you work, and what your role lets you do. */
export function loader({ context }: Route.LoaderArgs) {
  const actor = requireStaff(context);
  return {
    name: actor.displayName,
    permissions: ALL_PERMISSIONS.filter((p) => hasPermission(actor, p)),
    secondFactorAt: actor.secondFactorAt.toISOString(),
  };
}

export default function ConsoleHome({ loaderData }: Route.ComponentProps) {
  const t = useConsoleT();
  const locale = useLocale();
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:px-6 lg:py-12">
      <h1 className="font-serif text-3xl font-semibold">{t("console.home.greeting", { name: loaderData.name })}</h1>
      <p className="mt-2 text-sm text-muted">
        {t("console.home.signedInAt", { time: formatTaipei(loaderData.secondFactorAt, locale, "dateTime") })}
      </p>
      <section className="mt-8 rounded-2xl border border-line bg-white p-5" aria-labelledby="access-title">
        <h2 id="access-title" className="text-lg font-semibold">
          {t("console.home.access")}
        </h2>
        <ul className="mt-3 grid gap-2 sm:grid-cols-2" data-testid="console-permissions">
          {loaderData.permissions.map((p) => (
            <li key={p} className="rounded-xl bg-sand/60 px-3 py-2" data-permission={p}>
              {t(`console.permission.${p}`)}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
