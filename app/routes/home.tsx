import { ArrowRight, MapPin, Sparkles } from "lucide-react";
import { Link } from "react-router";
import { buttonVariants } from "~/components/ui/button";
import { useT } from "~/lib/i18n";
import { links } from "~/lib/links";
import { pageMeta } from "~/lib/meta";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "page.home.title");

export default function HomePage() {
  const t = useT();
  return (
    <>
      <section className="relative overflow-hidden border-b border-line bg-sand">
        <div
          aria-hidden
          className="absolute inset-0 opacity-60"
          style={{
            backgroundImage:
              "radial-gradient(circle at 80% 20%, rgba(162,113,80,0.18), transparent 45%), radial-gradient(circle at 10% 90%, rgba(31,28,24,0.08), transparent 40%)",
          }}
        />
        <div className="relative mx-auto grid max-w-6xl gap-10 px-4 py-16 sm:px-6 sm:py-24 md:grid-cols-[1.2fr_1fr] md:items-center">
          <div>
            <p className="text-sm tracking-[0.3em] text-brand-700">{t("brand.tagline")}</p>
            <h1 className="mt-4 font-serif text-4xl leading-tight font-semibold tracking-wide sm:text-5xl">
              {t("page.home.heroTitle")}
            </h1>
            <p className="mt-5 max-w-xl text-lg text-muted">{t("page.home.heroBody")}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to={links.stores()} className={buttonVariants({ variant: "primary", size: "lg" })}>
                <MapPin aria-hidden className="size-5" />
                {t("page.home.ctaStores")}
              </Link>
              <Link to={links.materials()} className={buttonVariants({ variant: "secondary", size: "lg" })}>
                {t("page.home.ctaMaterials")}
                <ArrowRight aria-hidden className="size-5" />
              </Link>
            </div>
          </div>
          <div aria-hidden className="grid grid-cols-2 gap-3">
            <div className="aspect-[3/4] rounded-3xl bg-[linear-gradient(135deg,#e9e1d5,#cdbfae_60%,#b8a48f)] shadow-sm" />
            <div className="mt-10 aspect-[3/4] rounded-3xl bg-[repeating-linear-gradient(90deg,#a27150_0_6px,#8d603f_6px_9px,#b07e5b_9px_16px)] shadow-sm" />
          </div>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <div className="flex flex-col items-start gap-5 rounded-3xl bg-ink px-6 py-10 text-paper sm:flex-row sm:items-center sm:justify-between sm:px-10">
          <div>
            <p className="flex items-center gap-2 text-sm tracking-[0.2em] text-brand-300">
              <Sparkles aria-hidden className="size-4" />
              {t("nav.member")}
            </p>
            <p className="mt-2 font-serif text-2xl">{t("page.memberCenter.lead")}</p>
          </div>
          <Link to={links.signupPhoneVerification()} className={buttonVariants({ variant: "brand", size: "lg" })}>
            {t("page.home.ctaJoin")}
          </Link>
        </div>
      </section>
    </>
  );
}
