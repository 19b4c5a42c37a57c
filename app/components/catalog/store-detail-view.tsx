import type { ReactNode } from "react";
import { JsonLd } from "~/components/catalog/json-ld";
import { OpenBadge } from "~/components/catalog/open-status";
import { StorePhoto } from "~/components/catalog/store-photo";
import { buttonVariants } from "~/components/ui/button-variants";
import { CalendarDays, ChevronLeft, Mail, MapPin, Navigation, Phone } from "~/components/ui/icons";
import { Link } from "~/components/ui/link";
import { telHref } from "~/domain/stores/contact";
import type { storeDetailData } from "~/domain/stores/detail-view.server";
import { cn } from "~/lib/cn";
import { type MessageKey, useT } from "~/lib/i18n";
import { links } from "~/lib/links";

export type StoreDetailData = ReturnType<typeof storeDetailData>;

/**
 * The public store page, also rendered by the console's preview of a draft (ADR 027). `share` is the public
 * page's "share with friends" inside LINE (ADR 035), under the opening status.
 */
export function StoreDetailView(props: StoreDetailData & { share?: ReactNode }) {
  const { store, photos, status, week, materialGroups, materialCount, categoryNames, mapUrl, messages, jsonLd } = props;
  const t = useT(messages);
  const [main, ...others] = photos;
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 sm:py-12">
      <JsonLd data={jsonLd} />
      <nav aria-label={t("catalog.store.backToList")}>
        <Link to={links.stores()} className="inline-flex min-h-11 items-center gap-1 text-sm text-muted hover:text-ink">
          <ChevronLeft aria-hidden className="size-4" />
          {t("catalog.store.backToList")}
        </Link>
      </nav>

      <header className="mt-2 max-w-3xl">
        <p className="text-sm tracking-[0.2em] text-brand-700">
          {t(`catalog.city.${store.city}` as MessageKey)} · {store.district}
        </p>
        <h1 className="mt-1 font-serif text-3xl font-semibold tracking-wide sm:text-4xl">{store.name}</h1>
        <p className="mt-3 text-lg text-muted">{store.summary}</p>
        <OpenBadge status={status} t={t} className="mt-4" />
        {props.share}
      </header>

      <div className="mt-8 grid gap-8 lg:grid-cols-[1.5fr_1fr]">
        <section
          aria-label={t("catalog.store.photos")}
          className="grid grid-cols-2 content-start gap-3"
          data-testid="store-gallery"
        >
          {main ? (
            <div className="col-span-2 aspect-[4/3] overflow-hidden rounded-3xl bg-sand">
              <StorePhoto photo={main} eager sizes="(min-width: 1152px) 660px, (min-width: 1024px) 57vw, 100vw" />
            </div>
          ) : null}
          {others.map((photo) => (
            <div
              key={photo.kind === "static" ? photo.src : photo.image.hash}
              className="aspect-[4/3] overflow-hidden rounded-2xl bg-sand"
            >
              <StorePhoto photo={photo} sizes="(min-width: 1152px) 325px, (min-width: 1024px) 28vw, 50vw" />
            </div>
          ))}
        </section>

        <div className="space-y-6">
          <section className="rounded-3xl border border-line bg-white p-6" aria-labelledby="book-visit">
            <h2 id="book-visit" className="font-serif text-xl font-semibold">
              {t("catalog.store.book")}
            </h2>
            <p className="mt-1 text-sm text-muted">{t("catalog.store.bookLead")}</p>
            <Link
              to={`${links.bookAppointment()}?store=${encodeURIComponent(store.id)}`}
              className={cn(buttonVariants({ block: true }), "mt-4")}
              data-testid="book-visit"
            >
              <CalendarDays aria-hidden className="size-4" />
              {t("catalog.store.book")}
            </Link>
          </section>
          <section className="space-y-5 rounded-3xl border border-line bg-white p-6" aria-labelledby="contact">
            <h2 id="contact" className="sr-only">
              {t("catalog.store.address")}
            </h2>
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <MapPin aria-hidden className="size-4" />
                {t("catalog.store.address")}
              </p>
              <p className="mt-1 text-base" data-testid="store-address">
                {store.fullAddress}
              </p>
              <a
                href={mapUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={cn(buttonVariants({ variant: "secondary", size: "sm" }), "mt-3")}
                data-testid="map-link"
              >
                <Navigation aria-hidden className="size-4" />
                {t("catalog.store.openMap")}
              </a>
            </div>
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <Phone aria-hidden className="size-4" />
                {t("catalog.store.phone")}
              </p>
              <a
                href={telHref(store.phone)}
                className="mt-1 inline-flex min-h-11 items-center text-lg font-semibold tracking-wide underline-offset-4 hover:underline"
                aria-label={t("catalog.store.call", { phone: store.phone })}
                data-testid="phone-link"
              >
                {store.phone}
              </a>
            </div>
            <div>
              <p className="flex items-center gap-2 text-sm font-medium text-muted">
                <Mail aria-hidden className="size-4" />
                {t("catalog.store.email")}
              </p>
              <a
                href={`mailto:${store.email}`}
                className="mt-1 inline-flex min-h-11 items-center break-all underline-offset-4 hover:underline"
              >
                {store.email}
              </a>
            </div>
            {store.services.length > 0 ? (
              <div>
                <p className="text-sm font-medium text-muted">{t("catalog.store.services")}</p>
                <ul className="mt-2 flex flex-wrap gap-2">
                  {store.services.map((s) => (
                    <li key={s} className="rounded-full bg-sand px-3 py-1 text-sm">
                      {t(`catalog.service.${s}` as MessageKey)}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>

          <section className="rounded-3xl border border-line bg-white p-6" aria-labelledby="hours">
            <h2 id="hours" className="font-serif text-xl font-semibold">
              {t("catalog.store.hours")}
            </h2>
            <p className="mt-1 text-sm text-muted">{t("catalog.store.hoursLead")}</p>
            <table className="mt-4 w-full text-base" data-testid="week-hours">
              <tbody>
                {week.map((day, i) => (
                  <tr
                    key={day.date}
                    className={cn("border-t border-line/60 first:border-t-0", i === 0 && "bg-sand font-semibold")}
                    aria-current={i === 0 ? "date" : undefined}
                  >
                    <th scope="row" className="py-2.5 pl-3 text-left font-[inherit]">
                      {t(`catalog.weekday.${day.weekday}` as MessageKey)}
                      {i === 0 ? (
                        <span className="ml-2 rounded-full bg-ink px-2 py-0.5 text-xs text-paper">
                          {t("catalog.store.today")}
                        </span>
                      ) : null}
                      <span className="block text-xs font-normal text-muted">
                        {day.date.slice(5).replace("-", "/")}
                      </span>
                    </th>
                    <td className="py-2.5 pr-3 text-right tabular-nums">
                      {day.hours.length > 0 ? day.hours.join(", ") : t("catalog.store.closed")}
                      {day.note ? <span className="block text-xs font-normal text-brand-700">{day.note}</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      </div>

      <section className="mt-14" aria-labelledby="on-display">
        <h2 id="on-display" className="font-serif text-2xl font-semibold">
          {t("catalog.store.materials")}
          <span className="ml-2 text-base font-normal text-muted">{materialCount}</span>
        </h2>
        <p className="mt-1 text-muted">{t("catalog.store.materialsLead")}</p>
        {materialGroups.length === 0 ? (
          <p className="mt-6 text-muted">{t("catalog.store.noMaterials")}</p>
        ) : (
          <div className="mt-6 grid gap-x-8 gap-y-6 sm:grid-cols-2 lg:grid-cols-3">
            {materialGroups.map((group) => (
              <div key={group.categoryId}>
                <h3 className="text-sm tracking-[0.18em] text-brand-700">{categoryNames[group.categoryId]}</h3>
                <ul className="mt-2 space-y-1">
                  {group.items.map((m) => (
                    <li key={m.id}>
                      <Link
                        to={links.materialDetail(m.id)}
                        className="flex min-h-10 items-center gap-3 rounded-xl px-2 hover:bg-sand"
                      >
                        <span
                          aria-hidden
                          className="size-5 shrink-0 rounded-full border border-line"
                          style={{ backgroundColor: m.swatch }}
                        />
                        {m.name}
                      </Link>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
