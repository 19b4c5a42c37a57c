import type { Tier } from "@platform/db/schema";

/** The tiers in order, for pages and filters (client-safe: the schema module stays on the server). */
export const TIER_ORDER = ["basic", "silver", "gold"] as const satisfies readonly Tier[];
