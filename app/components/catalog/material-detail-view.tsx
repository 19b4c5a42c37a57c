import type { ReactNode } from "react";
import { Gallery } from "~/components/catalog/gallery";
import { MaterialCard } from "~/components/catalog/material-card";
import { buttonVariants } from "~/components/ui/button-variants";
import { ChevronRight, MapPin, Phone } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import type { MaterialDetailView as MaterialDetailViewData } from "~/domain/materials/detail-view";
import { telHref } from "~/domain/stores/contact";
import type { MessageKey, Translate } from "~/lib/i18n";
import { links } from "~/lib/links";

/**
 * The material detail page's content: the public page renders it from the stored material, the console's
 * preview from the form as typed (ADR 033), so what an admin previews is what a visitor will see.
 */
export function MaterialDetailView({
  view,
  t,
  aside,
  children,
}: {
  view: MaterialDetailViewData;
  t: Translate;
  /** Under the summary: the favourite button on the public page; nothing in the console preview. */
  aside?: ReactNode;
  /** Before the page (the JSON-LD of the public page). */
  children?: ReactNode;
}) {
  const { material: m, category, images, stores, related } = view;
  const facts: [string, string][] = [
    [t("catalog.material.series"), m.series],
    [t("catalog.material.sizes"), m.sizes.join("、")],
    [t("catalog.material.finish"), m.finish],
    [t("catalog.material.colour"), m.colour],
    [t("catalog.material.origin"), m.origin],
  ];
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      {children}
      <nav aria-label={t("catalog.material.breadcrumb")}>
        <ol className="flex flex-wrap items-center gap-1 text-sm text-muted">
          <li>
            <Link to={links.materials()} className="inline-flex min-h-11 items-center hover:text-ink">
              {t("page.materials.title")}
            </Link>
          </li>
          <li aria-hidden>
            <ChevronRight className="size-4" />
          </li>
          <li>
            <Link
              to={`${links.materials()}?category=${category.id}`}
              className="inline-flex min-h-11 items-center hover:text-ink"
            >
              {category.name}
            </Link>
          </li>
        </ol>
      </nav>

      <div className="mt-2 grid gap-8 lg:grid-cols-[1.25fr_1fr] lg:gap-12">
        <Gallery images={images} t={t} label={t("catalog.material.gallery")} />
        <div>
          <p className="text-sm tracking-[0.2em] text-brand-700">{m.series}</p>
          <h1 className="mt-1 font-serif text-3xl leading-tight font-semibold tracking-wide sm:text-4xl">{m.name}</h1>
          <p className="mt-4 text-lg leading-relaxed text-muted">{m.summary}</p>
          {aside ? <div className="mt-5">{aside}</div> : null}
          <h2 className="sr-only">{t("catalog.material.overview")}</h2>
          <dl className="mt-6 divide-y divide-line/70 border-y border-line/70">
            {facts.map(([label, value]) => (
              <div key={label} className="flex justify-between gap-6 py-3">
                <dt className="text-muted">{label}</dt>
                <dd className="flex items-center gap-2 text-right">
                  {label === t("catalog.material.colour") ? (
                    <span
                      aria-hidden
                      className="size-4 rounded-full border border-line"
                      style={{ backgroundColor: m.swatch }}
                    />
                  ) : null}
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <a href="#where-to-see" className={`${buttonVariants({ variant: "primary", size: "lg" })} mt-6`}>
            <MapPin aria-hidden className="size-5" />
            {t("catalog.material.seeIt")}
          </a>
        </div>
      </div>

      <div className="mt-14 grid gap-10 lg:grid-cols-[1.25fr_1fr] lg:gap-12">
        <section aria-labelledby="specs">
          <h2 id="specs" className="font-serif text-2xl font-semibold">
            {t("catalog.material.specs")}
          </h2>
          <table className="mt-4 w-full text-base" data-testid="specs">
            <tbody>
              {m.specs.map((s) => (
                <tr key={`${s.key}-${s.label}`} className="border-b border-line/70">
                  <th scope="row" className="w-2/5 py-3 pr-4 text-left font-normal text-muted">
                    {s.label}
                  </th>
                  <td className="py-3">{s.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
        <section aria-labelledby="care" className="self-start rounded-3xl bg-sand p-6">
          <h2 id="care" className="font-serif text-xl font-semibold">
            {t("catalog.material.care")}
          </h2>
          <p className="mt-3 leading-relaxed">{m.care}</p>
        </section>
      </div>

      <section id="where-to-see" aria-labelledby="where-heading" className="mt-14 scroll-mt-28">
        <h2 id="where-heading" className="font-serif text-2xl font-semibold">
          {t("catalog.material.whereToSee")}
        </h2>
        <p className="mt-1 text-muted">{t("catalog.material.whereToSeeLead")}</p>
        {stores.length === 0 ? (
          <p className="mt-6 text-muted">{t("catalog.material.notOnDisplay")}</p>
        ) : (
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="material-stores">
            {stores.map((s) => (
              <li key={s.id} className="relative rounded-2xl border border-line bg-white p-5">
                <p className="text-xs tracking-[0.18em] text-brand-700">
                  {t(`catalog.city.${s.city}` as MessageKey)} · {s.district}
                </p>
                <h3 className="mt-1 font-serif text-lg font-semibold">
                  <Link to={links.storeDetail(s.id)} className="underline-offset-4 hover:underline">
                    {s.name}
                  </Link>
                </h3>
                <p className="mt-1 text-sm text-muted">{s.address}</p>
                <a
                  href={telHref(s.phone)}
                  className="mt-2 inline-flex min-h-10 items-center gap-1.5 text-sm underline-offset-4 hover:underline"
                  aria-label={t("catalog.store.call", { phone: s.phone })}
                >
                  <Phone aria-hidden className="size-4" />
                  {s.phone}
                </a>
              </li>
            ))}
          </ul>
        )}
      </section>

      {related.length > 0 ? (
        <section aria-labelledby="related" className="mt-14">
          <h2 id="related" className="font-serif text-2xl font-semibold">
            {t("catalog.material.related")}
          </h2>
          <ul className="mt-6 grid grid-cols-2 gap-x-4 gap-y-8 lg:grid-cols-4">
            {related.map((r) => (
              <li key={r.id}>
                <MaterialCard material={r} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
