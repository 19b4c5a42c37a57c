import { useLocation } from "react-router";
import { Page } from "~/components/layout/page";
import { ChevronRight, Mail, Smartphone } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/index";
import { isWelcome, withWelcome } from "./welcome";

export const meta: Route.MetaFunction = ({ matches, location }) =>
  pageMeta(matches, isWelcome(location.search) ? "page.welcome.title" : "page.forget.title");

export default function ForgetPasswordPage() {
  const t = useT();
  // The welcome variant (members moved in without a password): same steps, welcome words.
  const welcome = isWelcome(useLocation().search);
  const options = [
    {
      to: withWelcome(links.forgetPasswordPhone(), welcome),
      icon: Smartphone,
      title: t(welcome ? "auth.welcome.byPhone" : "auth.forget.byPhone"),
      hint: t(welcome ? "auth.welcome.byPhoneHint" : "auth.forget.byPhoneHint"),
    },
    {
      to: withWelcome(links.forgetPasswordEmail(), welcome),
      icon: Mail,
      title: t(welcome ? "auth.welcome.byEmail" : "auth.forget.byEmail"),
      hint: t(welcome ? "auth.welcome.byEmailHint" : "auth.forget.byEmailHint"),
    },
  ];
  return (
    <Page
      title={t(welcome ? "page.welcome.title" : "page.forget.title")}
      lead={t(welcome ? "page.welcome.lead" : "page.forget.lead")}
      width="narrow"
    >
      <ul className="space-y-3">
        {options.map(({ to, icon: Icon, title, hint }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex items-center gap-4 rounded-3xl border border-line bg-white p-5 hover:border-ink focus-visible:outline-2 focus-visible:outline-brand-700"
            >
              <Icon aria-hidden className="size-6 text-brand-700" />
              <span className="flex-1">
                <span className="block font-semibold">{title}</span>
                <span className="block text-sm text-muted">{hint}</span>
              </span>
              <ChevronRight aria-hidden className="size-5 text-muted" />
            </Link>
          </li>
        ))}
      </ul>
      <p className="mt-8 text-center">
        <Link to={links["member-login"]()} className="underline underline-offset-4">
          {t("auth.forget.backToLogin")}
        </Link>
      </p>
    </Page>
  );
}
