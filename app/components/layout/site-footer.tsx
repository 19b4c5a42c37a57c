import { Form, useLocation, useRouteLoaderData } from "react-router";
import { Link } from "~/components/ui/link";
import { LOCALE_NAMES, LOCALES, useLocale, useT } from "~/lib/i18n";
import { links } from "~/lib/links";

export function SiteFooter() {
  const t = useT();
  const locale = useLocale();
  const location = useLocation();
  // The Taipei year comes from the root loader, so no time-zone code ships with every page.
  const year = (useRouteLoaderData("root") as { year?: number } | undefined)?.year ?? new Date().getFullYear();
  return (
    <footer className="mt-16 border-t border-line bg-sand/60">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:flex-row sm:items-start sm:justify-between sm:px-6">
        <div>
          <p className="font-serif text-xl font-semibold tracking-[0.12em]">{t("brand.name")}</p>
          <p className="mt-1 text-sm text-muted">{t("brand.tagline")}</p>
        </div>
        <div className="flex flex-col gap-4 sm:items-end">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <li>
              <Link to={links.privacy()} className="underline-offset-4 hover:underline">
                {t("footer.privacy")}
              </Link>
            </li>
            <li>
              <Link to={links.terms()} className="underline-offset-4 hover:underline">
                {t("footer.terms")}
              </Link>
            </li>
          </ul>
          <Form method="post" action={links.setLocale()} className="flex items-center gap-2" preventScrollReset>
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <fieldset className="flex items-center gap-2">
              <legend className="float-left mr-1 text-sm text-muted">{t("footer.language")}</legend>
              <div className="flex rounded-full border border-line bg-white p-0.5">
                {LOCALES.map((l) => (
                  <button
                    key={l}
                    type="submit"
                    name="locale"
                    value={l}
                    lang={l === "en" ? "en" : "zh-Hant-TW"}
                    aria-pressed={l === locale}
                    className="min-h-9 rounded-full px-3 text-sm aria-pressed:bg-ink aria-pressed:text-paper"
                  >
                    {LOCALE_NAMES[l]}
                  </button>
                ))}
              </div>
            </fieldset>
          </Form>
          <p className="text-xs text-muted">{t("footer.copyright", { year })}</p>
        </div>
      </div>
    </footer>
  );
}
