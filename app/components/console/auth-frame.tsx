import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { links } from "~/lib/links";
import { useConsoleT } from "./use-console-t";

/** The console's sign-in pages (login, code, enrolment, invitation): one card, no site header. */
export function ConsoleAuthFrame({ title, lead, children }: { title: string; lead?: ReactNode; children: ReactNode }) {
  const t = useConsoleT();
  return (
    <div className="flex min-h-dvh flex-col items-center bg-sand/60 px-4 py-10 sm:py-16">
      <p className="font-serif text-lg tracking-wide text-brand-700">{t("console.brand")}</p>
      <main id="main" className="mt-6 w-full max-w-md rounded-3xl border border-line bg-white p-6 shadow-sm sm:p-8">
        <h1 className="font-serif text-2xl font-semibold">{title}</h1>
        {lead ? <p className="mt-2 text-muted">{lead}</p> : null}
        <div className="mt-6">{children}</div>
      </main>
      <Link to={links.home()} className="mt-6 text-sm text-muted underline underline-offset-4 hover:text-ink">
        {t("console.login.memberSite")}
      </Link>
    </div>
  );
}
