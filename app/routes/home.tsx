import { data } from "react-router";
import { getApp } from "~/adapters/context.server";
import { CatalogImage } from "~/components/catalog/catalog-image";
import { MaterialCard } from "~/components/catalog/material-card";
import { StoreCard } from "~/components/catalog/store-card";
import { buttonVariants } from "~/components/ui/button-variants";
import { ArrowRight, MapPin, Sparkles } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { mediaPath } from "~/domain/demo/pictures/textures";
import { materialCard } from "~/domain/materials/cards";
import { featuredMaterials, listCategories } from "~/domain/materials/materials.server";
import { storeCard } from "~/domain/stores/cards";
import { featuredStores, storeSitemapEntries } from "~/domain/stores/stores.server";
import { CACHE_PUBLIC_SHORT, passCacheControl, publicCache } from "~/lib/cache";
import { requestNow } from "~/lib/clock.server";
import { useT } from "~/lib/i18n";
import { getLocale, routeMessages, serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { seoMeta } from "~/lib/seo.server";
import { hasSessionCookie } from "~/lib/session-cookie";
import type { Route } from "./+types/home";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getApp(context);
  const locale = getLocale(request);
  const t = serverT(request);
  const now = requestNow(request, config);
  const [materials, categories, stores, allStores] = await Promise.all([
    featuredMaterials(db, 6),
    listCategories(db),
    featuredStores(db, now, 3),
    storeSitemapEntries(db),
  ]);
  return data(
    {
      messages: routeMessages(
        locale,
        "catalog.city.",
        "catalog.status.",
        "catalog.weekday.",
        "catalog.home.",
        "catalog.stores.distance",
      ),
      // Members (a session cookie) are offered their member center; such a page is never cached.
      signedIn: hasSessionCookie(request.headers.get("cookie")),
      materials: materials.map((m) => materialCard(m, locale)),
      categories: categories.map((c) => ({
        id: c.id,
        name: pick(c.name, locale),
        image: { ...c.image, alt: "" },
      })),
      stores: stores.map((s) => storeCard(s, locale)),
      // The hero's material board: an arch onto a sunlit room, oak planks, a marble sample.
      hero: {
        room: mediaPath("gallery", ["e9e1d5", "a27150", "d8d2c8", "7d5236"], 1),
        wood: mediaPath("wood", ["a27150", "7a5236"], 7),
        stone: mediaPath("marble", ["eeeae4", "8f877c", "b9a48f"], 4),
      },
      storeCount: allStores.length,
      meta: seoMeta(
        {
          title: t("page.home.title"),
          description: t("meta.description"),
          canonical: `${config.publicBaseUrl}/`,
          locale,
        },
        t("brand.name"),
      ),
    },
    { headers: publicCache(CACHE_PUBLIC_SHORT) },
  );
}

export const headers = passCacheControl;

// The tags are built by the loader (app/lib/seo.server.ts), so no SEO code ships to the browser.
export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

function SectionHeading({
  id,
  title,
  lead,
  link,
}: {
  id: string;
  title: string;
  lead: string;
  link?: { to: string; label: string };
}) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h2 id={id} className="font-serif text-2xl font-semibold tracking-wide sm:text-3xl">
          {title}
        </h2>
        <p className="mt-2 text-muted">{lead}</p>
      </div>
      {link ? (
        <Link
          to={link.to}
          className="inline-flex min-h-11 items-center gap-1.5 text-sm font-medium underline-offset-4 hover:underline"
        >
          {link.label}
          <ArrowRight aria-hidden className="size-4" />
        </Link>
      ) : null}
    </div>
  );
}

export default function HomePage({ loaderData }: Route.ComponentProps) {
  const { materials, categories, stores, storeCount, signedIn, messages, hero } = loaderData;
  const t = useT(messages);
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
          <div aria-hidden className="relative mx-auto grid w-full max-w-md grid-cols-2 gap-3 md:max-w-none">
            <div className="aspect-[3/4] overflow-hidden rounded-3xl shadow-sm ring-1 ring-ink/5">
              <CatalogImage image={{ src: hero.room, alt: "", width: 800, height: 600 }} eager />
            </div>
            <div className="mt-10 aspect-[3/4] overflow-hidden rounded-3xl shadow-sm ring-1 ring-ink/5">
              <CatalogImage image={{ src: hero.wood, alt: "", width: 800, height: 600 }} eager />
            </div>
            <div className="absolute -bottom-5 left-1/2 size-24 -translate-x-1/2 overflow-hidden rounded-full shadow-lg ring-4 ring-sand sm:size-28">
              <CatalogImage image={{ src: hero.stone, alt: "", width: 800, height: 600 }} eager />
            </div>
          </div>
        </div>
      </section>
      <section aria-labelledby="home-categories" className="mx-auto max-w-6xl px-4 pt-16 sm:px-6">
        <SectionHeading
          id="home-categories"
          title={t("catalog.home.categories")}
          lead={t("catalog.home.categoriesLead")}
        />
        {/* Phones: one row that scrolls sideways (snapping); wider screens: a grid. */}
        <ul className="-mx-4 mt-8 flex snap-x gap-3 overflow-x-auto px-4 pb-2 [scrollbar-width:none] sm:mx-0 sm:grid sm:grid-cols-4 sm:overflow-visible sm:px-0 lg:grid-cols-7">
          {categories.map((c) => (
            <li key={c.id} className="w-32 shrink-0 snap-start sm:w-auto">
              <Link
                to={`${links.materials()}?category=${c.id}`}
                className="group block overflow-hidden rounded-2xl border border-line bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-700"
              >
                <div className="aspect-square overflow-hidden bg-sand">
                  <CatalogImage
                    image={c.image}
                    sizes="(min-width: 1024px) 14vw, 50vw"
                    className="transition-transform duration-500 group-hover:scale-105"
                  />
                </div>
                <p className="px-3 py-2.5 text-center text-sm font-medium">{c.name}</p>
              </Link>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-materials" className="mx-auto max-w-6xl px-4 pt-16 sm:px-6">
        <SectionHeading
          id="home-materials"
          title={t("catalog.home.featuredMaterials")}
          lead={t("catalog.home.featuredMaterialsLead")}
          link={{ to: links.materials(), label: t("catalog.home.allMaterials") }}
        />
        <ul className="mt-8 grid grid-cols-2 gap-x-4 gap-y-8 sm:grid-cols-3">
          {materials.map((m) => (
            <li key={m.id}>
              <MaterialCard material={m} />
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="home-stores" className="mx-auto max-w-6xl px-4 pt-16 sm:px-6">
        <SectionHeading
          id="home-stores"
          title={t("catalog.home.featuredStores")}
          lead={t("catalog.home.featuredStoresLead", { count: storeCount })}
          link={{ to: links.stores(), label: t("catalog.home.allStores") }}
        />
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {stores.map((store) => (
            <li key={store.id} className="flex">
              <StoreCard store={store} t={t} />
            </li>
          ))}
        </ul>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6" aria-labelledby="home-member">
        <div className="flex flex-col items-start gap-5 rounded-3xl bg-ink px-6 py-10 text-paper sm:flex-row sm:items-center sm:justify-between sm:px-10">
          <div>
            <p className="flex items-center gap-2 text-sm tracking-[0.2em] text-brand-300">
              <Sparkles aria-hidden className="size-4" />
              {t("nav.member")}
            </p>
            <h2 id="home-member" className="mt-2 font-serif text-2xl">
              {t("page.memberCenter.lead")}
            </h2>
            <p className="mt-2 max-w-xl text-paper/80">{t("catalog.home.memberLead")}</p>
          </div>
          {signedIn ? (
            <Link to={links["member-center"]()} className={buttonVariants({ variant: "brand", size: "lg" })}>
              {t("catalog.home.memberCenter")}
            </Link>
          ) : (
            <Link to={links.signupPhoneVerification()} className={buttonVariants({ variant: "brand", size: "lg" })}>
              {t("page.home.ctaJoin")}
            </Link>
          )}
        </div>
      </section>
    </>
  );
}
