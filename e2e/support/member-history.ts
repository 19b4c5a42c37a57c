import type { APIRequestContext } from "@playwright/test";
import { expect } from "@playwright/test";

/**
 * A member's loyalty history straight in the database, booked through the loyalty engine by the
 * APP_ENV=test hooks (server/test-hooks.ts): purchases, redemptions (optionally used later),
 * adjustments, favourites, each at its own instant (ISO 8601 with offset).
 */
export type HistoryInput = {
  welcomeAt?: string | null;
  purchases?: { storeId?: string; receiptNumber: string; netAmount: number; at: string }[];
  adjustments?: { amount: number; reason: string; at: string }[];
  redemptions?: { rewardId: string; at: string; usedAt?: string | null; storeId?: string }[];
  favourites?: string[];
  /** Instead of the lists: a realistic history of `entries` ledger entries and `coupons` coupons. */
  realistic?: { entries: number; coupons: number };
  now?: string;
};

export async function bookHistory(request: APIRequestContext, userId: string, history: HistoryInput) {
  const res = await request.post(`/__test/members/${userId}/history`, { data: history, timeout: 120_000 });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json() as Promise<{ purchases: number; redemptions: number; adjustments: number }>;
}

export async function addReward(
  request: APIRequestContext,
  reward: {
    name: string;
    kind?: "amount-off" | "gift";
    amountOff?: number;
    pointsCost: number;
    stock?: number;
    perMemberLimit?: number;
    couponValidDays?: number;
  },
): Promise<string> {
  const res = await request.post("/__test/rewards", { data: reward });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { rewardId: string }).rewardId;
}

/** A points adjustment booked now (or at `at`), e.g. points spent elsewhere while a page is open. */
export async function adjustPoints(request: APIRequestContext, userId: string, amount: number, at?: string) {
  const res = await request.post(`/__test/members/${userId}/adjust`, { data: { amount, at } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** What a scanner gets for a card token at an instant. */
export async function resolveCardToken(
  request: APIRequestContext,
  token: string,
  now: string,
): Promise<{ ok: true; memberNumber: string } | { ok: false; reason: string }> {
  const res = await request.post("/__test/card-tokens/resolve", { data: { token, now } });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}
