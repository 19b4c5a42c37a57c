import type { CatalogRef, MessageKey, Messages } from "./i18n";
import { format, routeCatalog, shellCatalog } from "./i18n";

type MatchLike = { id: string; loaderData?: unknown } | undefined;

/**
 * Title and description for a page, in the reader's language: the catalog comes from the root
 * match, plus the page's own namespace when its loader sends one.
 */
export function pageMeta(
  matches: readonly MatchLike[],
  titleKey: MessageKey,
  descriptionKey: MessageKey = "meta.description",
) {
  // The last match that has a key wins, as a merge would: no copy of the catalog per request (a profile of
  // the member center had the merge at 2 % of its CPU).
  const catalogs: Partial<Messages>[] = [];
  for (const match of matches) {
    const data = match?.loaderData as { messages?: Partial<Messages> | CatalogRef; catalog?: string } | undefined;
    if (data?.messages) catalogs.unshift(routeCatalog(data.messages));
    // The root's shell catalog, by its path.
    if (data?.catalog) catalogs.unshift(shellCatalog(data.catalog));
  }
  const lookup = (key: MessageKey) => catalogs.find((catalog) => catalog[key] !== undefined)?.[key];
  const title = lookup(titleKey);
  if (!title) return [{ title: "漢生活" }];
  const brand = lookup("brand.name") ?? "漢生活";
  return [
    { title: titleKey === "page.home.title" ? title : `${title}｜${brand}` },
    { name: "description", content: format(lookup(descriptionKey) ?? "") },
  ];
}
