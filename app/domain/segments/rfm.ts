import type { RfmGroupName } from "@platform/db/schema/member-message-kinds";

/**
 * The RFM groups (issue 38 part 6, ADR 056): each a rectangle of the recency × frequency grid of scores 1–5 (5 =
 * most recent, most purchases), the 25 cells each in exactly one group. Money is a filter of its own, not part of
 * a group. Client-safe: the segment builder lists the groups, the count's SQL (rfm.server.ts) reads the same rules.
 *
 *          F 1          F 2          F 3          F 4          F 5
 *   R 5    new          potential    potential    champions    champions
 *   R 4    new          potential    potential    champions    champions
 *   R 3    hibernating  hibernating  loyal        loyal        loyal
 *   R 2    hibernating  hibernating  at risk      at risk      can't lose
 *   R 1    lost         lost         at risk      at risk      can't lose
 */

export const RFM_SCORES = [1, 2, 3, 4, 5] as const;
export type RfmScore = (typeof RFM_SCORES)[number];

export const RFM_GROUPS = [
  "champions",
  "loyal",
  "potential",
  "new",
  "at-risk",
  "cant-lose",
  "hibernating",
  "lost",
] as const;
export type RfmGroup = (typeof RFM_GROUPS)[number] & RfmGroupName;

type Range = readonly [RfmScore, RfmScore];

/** Each group's recency and frequency score ranges (inclusive). */
export const RFM_GROUP_RULES: Readonly<Record<RfmGroup, { r: Range; f: Range }>> = {
  champions: { r: [4, 5], f: [4, 5] },
  loyal: { r: [3, 3], f: [3, 5] },
  potential: { r: [4, 5], f: [2, 3] },
  new: { r: [4, 5], f: [1, 1] },
  "at-risk": { r: [1, 2], f: [3, 4] },
  "cant-lose": { r: [1, 2], f: [5, 5] },
  hibernating: { r: [2, 3], f: [1, 2] },
  lost: { r: [1, 1], f: [1, 2] },
};

const within = (score: number, [lo, hi]: Range) => score >= lo && score <= hi;

/** The group of a member's recency and frequency scores. */
export function rfmGroupOf(r: number, f: number): RfmGroup {
  const group = RFM_GROUPS.find((g) => within(r, RFM_GROUP_RULES[g].r) && within(f, RFM_GROUP_RULES[g].f));
  if (!group) throw new RangeError(`RFM scores out of range: r=${r} f=${f}`);
  return group;
}

export function isRfmGroup(value: string): value is RfmGroup {
  return (RFM_GROUPS as readonly string[]).includes(value);
}
