import type { MetaDescriptor } from "react-router";

export type PageSeo = {
  title: string;
  description: string;
  /** Absolute canonical URL (PUBLIC_BASE_URL + path). */
  canonical: string;
  /** Absolute URL of the sharing image, if any. */
  image?: string;
  type?: "website" | "article" | "product" | "place";
  locale?: string;
  /** Leave the page out of search engines (e.g. filtered or empty lists). */
  noindex?: boolean;
};

/**
 * Title, description, canonical link and Open Graph / Twitter tags of a public page, built by the
 * loader on the server (this code never ships to the browser); the route's `meta` returns them.
 */
export function seoMeta(seo: PageSeo, brand: string): MetaDescriptor[] {
  const title = seo.title.includes(brand) ? seo.title : `${seo.title}｜${brand}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: seo.description },
    { tagName: "link", rel: "canonical", href: seo.canonical },
    { property: "og:site_name", content: brand },
    { property: "og:title", content: title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: seo.canonical },
    {
      property: "og:type",
      content: seo.type === "product" || seo.type === "place" ? "website" : (seo.type ?? "website"),
    },
    { property: "og:locale", content: seo.locale === "en" ? "en_US" : "zh_TW" },
    { name: "twitter:card", content: seo.image ? "summary_large_image" : "summary" },
  ];
  if (seo.image) tags.push({ property: "og:image", content: seo.image });
  if (seo.noindex) tags.push({ name: "robots", content: "noindex, follow" });
  return tags;
}
