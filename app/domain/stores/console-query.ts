/**
 * The console's store list query: its sorts, statuses and page size, shared by the page (its filter choices, in the
 * browser) and `console.server.ts` (the SQL).
 */
export const CONSOLE_STORE_SORTS = ["name", "city", "updated"] as const;
export type ConsoleStoreSort = (typeof CONSOLE_STORE_SORTS)[number];
export const CONSOLE_STORE_STATUSES = ["published", "unpublished", "pending"] as const;
export const STORES_PAGE_SIZE = 20;

export type ConsoleStoreFilters = {
  q: string;
  sort: ConsoleStoreSort;
  dir: "asc" | "desc";
  status: "" | (typeof CONSOLE_STORE_STATUSES)[number];
  page: number;
};
