/** The rewards list's choices (client-safe: the page's filters use them too). */
export const REWARD_SORTS = ["name", "cost", "stock", "updated"] as const;
export type RewardSort = (typeof REWARD_SORTS)[number];
export const REWARD_STATUSES = ["active", "retired", "all"] as const;
export type RewardStatus = (typeof REWARD_STATUSES)[number];
export const REWARDS_PAGE_SIZE = 20;

export type RewardQuery = { q: string; status: RewardStatus; sort: RewardSort; dir: "asc" | "desc"; page: number };
