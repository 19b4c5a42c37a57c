import type { Locale, MessageKey } from "~/lib/i18n";
import { routeMessages, type serverT } from "~/lib/i18n.server";
import { links } from "~/lib/links";
import { pick } from "~/lib/localized";
import { seoMeta } from "~/lib/seo.server";
import { statusView } from "./cards";
import { mapHref, telHref } from "./contact";
import { photoUrl, photoView, type ResolvedPhoto } from "./photos";
import type { getStore } from "./stores.server";

const SCHEMA_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

type Found = NonNullable<Awaited<ReturnType<typeof getStore>>>;

/**
 * The store page's data in the reader's language: what the public page (app/routes/store-detail.tsx)
 * and the console's preview of a draft (ADR 027) both render with StoreDetailView.
 */
export function storeDetailData(
  found: {
    store: Omit<Found["store"], "createdAt" | "updatedAt" | "featured" | "published" | "sortOrder" | "photos">;
    photos: readonly ResolvedPhoto[];
    status: Found["status"];
    week: Found["week"];
    materials: Found["materials"];
  },
  categories: { id: string; name: { "zh-TW": string; en: string } }[],
  locale: Locale,
  t: ReturnType<typeof serverT>,
  publicBaseUrl: string,
) {
  const { store, status, week, materials } = found;
  const cityName = t(`catalog.city.${store.city}` as MessageKey);
  const fullAddress = `${store.postalCode} ${cityName}${pick(store.district, locale)}${pick(store.address, locale)}`;
  const addressForMap = `${store.postalCode}${t(`catalog.city.${store.city}` as MessageKey)}${store.district["zh-TW"]}${store.address["zh-TW"]}`;
  const canonical = `${publicBaseUrl}${links.storeDetail(store.id)}`;
  const photos = found.photos.map((p) => photoView(p, locale));
  const photoUrls = photos.flatMap((p) => {
    const url = photoUrl(p);
    return url ? [`${publicBaseUrl}${url}`] : [];
  });
  const materialGroups = new Map<string, { id: string; name: string; swatch: string }[]>();
  for (const m of materials) {
    const list = materialGroups.get(m.categoryId) ?? [];
    list.push({ id: m.id, name: pick(m.name, locale), swatch: m.swatch });
    materialGroups.set(m.categoryId, list);
  }
  return {
    messages: routeMessages(
      locale,
      "catalog.city.",
      "catalog.status.",
      "catalog.weekday.",
      "catalog.service.",
      "catalog.store.",
    ),
    store: {
      id: store.id,
      name: pick(store.name, locale),
      summary: pick(store.summary, locale),
      city: store.city,
      district: pick(store.district, locale),
      fullAddress,
      phone: store.phone,
      email: store.email,
      services: store.services,
    },
    mapUrl: mapHref(addressForMap),
    photos,
    status: statusView(status),
    week: week.map((d) => ({
      date: d.date,
      weekday: d.weekday,
      hours: d.intervals.map((i) => `${i.open}–${i.close}`),
      note: d.note ? pick(d.note, locale) : null,
    })),
    materialCount: materials.length,
    materialGroups: [...materialGroups.entries()].map(([categoryId, items]) => ({ categoryId, items })),
    categoryNames: Object.fromEntries(categories.map((c) => [c.id, pick(c.name, locale)])) as Record<string, string>,
    meta: seoMeta(
      {
        title: pick(store.name, locale),
        description: `${pick(store.summary, locale)} ${fullAddress}`,
        canonical,
        image: photoUrls[0],
        type: "place" as const,
        locale,
      },
      t("brand.name"),
    ),
    jsonLd: {
      "@context": "https://schema.org",
      "@type": "Store",
      "@id": canonical,
      name: `${t("brand.name")} ${pick(store.name, locale)}`,
      description: pick(store.summary, locale),
      url: canonical,
      telephone: telHref(store.phone).slice(4),
      email: store.email,
      image: photoUrls,
      address: {
        "@type": "PostalAddress",
        streetAddress: pick(store.address, locale),
        addressLocality: pick(store.district, locale),
        addressRegion: cityName,
        postalCode: store.postalCode,
        addressCountry: "TW",
      },
      geo: { "@type": "GeoCoordinates", latitude: store.latitude, longitude: store.longitude },
      openingHoursSpecification: store.weeklyHours.flatMap((intervals, day) =>
        intervals.map((i) => ({
          "@type": "OpeningHoursSpecification",
          dayOfWeek: `https://schema.org/${SCHEMA_DAYS[day]}`,
          opens: i.open,
          closes: i.close,
        })),
      ),
    },
  };
}
