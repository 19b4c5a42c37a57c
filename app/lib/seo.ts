import type { MetaDescriptor } from "react-router";
import type { Messages } from "./i18n";

type MatchLike = { id: string; loaderData?: unknown } | undefined;

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

function brandOf(matches: readonly MatchLike[]): string {
  for (const match of matches) {
    const messages = (match?.loaderData as { messages?: Partial<Messages> } | undefined)?.messages;
    if (messages?.["brand.name"]) return messages["brand.name"];
  }
  return "漢生活";
}

/** Title, description, canonical link and Open Graph / Twitter tags of a public page. */
export function seoMeta(
  matches: readonly MatchLike[],
  seo: PageSeo | undefined,
  fallbackTitle?: string,
): MetaDescriptor[] {
  const brand = brandOf(matches);
  if (!seo) return [{ title: fallbackTitle ? `${fallbackTitle}｜${brand}` : brand }];
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
