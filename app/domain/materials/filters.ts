import { normaliseSearch, parseSlug } from "../catalog/search";

/** What the catalogue shows, read from the URL. Unknown values are ignored. */
export type MaterialFilters = { category: string | null; q: string };

export function parseMaterialFilters(params: URLSearchParams, knownCategories: readonly string[]): MaterialFilters {
  const category = parseSlug(params.get("category"));
  return {
    category: category && knownCategories.includes(category) ? category : null,
    q: normaliseSearch(params.get("q")),
  };
}

export function materialFiltersQuery(filters: MaterialFilters): string {
  const params = new URLSearchParams();
  if (filters.category) params.set("category", filters.category);
  if (filters.q) params.set("q", filters.q);
  const s = params.toString();
  return s ? `?${s}` : "";
}
