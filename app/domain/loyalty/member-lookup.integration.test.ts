import type { Database } from "@platform/db/client";
import { useMigratedTestDatabase } from "@platform/testing/migrated-database";
import { describe, expect, it } from "vitest";
import { issueCardToken } from "./card-tokens.server";
import { LoyaltyError } from "./errors";
import {
  activeMemberByNumber,
  counterMember,
  findMemberAtCounter,
  maskName,
  memberByNumber,
  memberByPhone,
  storePurchase,
} from "./member-lookup.server";
import { recordPurchase } from "./purchases.server";
import { newMember } from "./testing.server";

let db: Database;
useMigratedTestDatabase("member_lookup", (handle) => {
  db = handle.db;
});

const cardSecret = "s".repeat(40);

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof LoyaltyError) return error.code;
    throw error;
  }
  return "accepted";
}

describe("finding a member at a till or counter", () => {
  it("masks names the same way for Chinese and Latin names", () => {
    expect(maskName("王小明")).toBe("王○明");
    expect(maskName("陳美")).toBe("陳○");
    expect(maskName("Alice")).toBe("A○○○e");
    expect(maskName("林")).toBe("○");
  });

  it("finds a member by every phone spelling sign-up accepts", async () => {
    const m = await newMember(db, { phoneNumber: "+886912000111" });
    for (const spelling of ["0912000111", "0912-000-111", "886912000111", "+886 912-000-111", "+886912000111"]) {
      expect((await memberByPhone(db, spelling))?.id).toBe(m.id);
      expect((await findMemberAtCounter(db, { phone: spelling }, { cardSecret })).id).toBe(m.id);
    }
    expect(await memberByPhone(db, "02-2345-0101")).toBeNull();
    expect(await refusal(findMemberAtCounter(db, { phone: "0900000000" }, { cardSecret }))).toBe("member_not_found");
  });

  it("finds by member number in any case, and refuses disabled members at the till", async () => {
    const m = await newMember(db);
    const off = await newMember(db, { disabled: true });
    expect((await memberByNumber(db, m.memberNumber.toLowerCase()))?.id).toBe(m.id);
    expect((await memberByNumber(db, off.memberNumber))?.id).toBe(off.id);
    expect((await activeMemberByNumber(db, m.memberNumber)).id).toBe(m.id);
    expect(await refusal(activeMemberByNumber(db, off.memberNumber))).toBe("member_disabled");
    expect(await refusal(activeMemberByNumber(db, "HL00000000"))).toBe("member_not_found");
    expect(await refusal(findMemberAtCounter(db, { phone: off.phoneNumber }, { cardSecret }))).toBe("member_disabled");
  });

  it("resolves a card token, and names why a token is refused", async () => {
    const m = await newMember(db, { nameZh: "李大同" });
    const now = new Date("2026-11-22T02:00:00Z");
    const { token } = issueCardToken(cardSecret, m.id, now);
    const found = await findMemberAtCounter(db, { cardToken: token }, { cardSecret, now });
    expect(await counterMember(db, found)).toEqual({
      memberNumber: m.memberNumber,
      maskedName: "李○同",
      tier: "basic",
      balance: 0,
    });
    const later = new Date(now.getTime() + 60 * 60_000);
    expect(await refusal(findMemberAtCounter(db, { cardToken: token }, { cardSecret, now: later }))).toBe(
      "card_token_expired",
    );
    expect(await refusal(findMemberAtCounter(db, { cardToken: token }, { cardSecret: "x".repeat(40), now }))).toBe(
      "card_token_forged",
    );
    expect(await refusal(findMemberAtCounter(db, { cardToken: "nope" }, { cardSecret, now }))).toBe(
      "card_token_malformed",
    );
  });

  it("finds a purchase only at the store that booked it", async () => {
    const m = await newMember(db);
    const { purchase } = await recordPurchase(db, {
      memberId: m.id,
      storeId: "S-LOOKUP",
      receiptNumber: "L-1",
      netAmount: 1000,
      purchasedAt: new Date(),
    });
    expect((await storePurchase(db, "S-LOOKUP", purchase.id)).id).toBe(purchase.id);
    expect(await refusal(storePurchase(db, "S-OTHER", purchase.id))).toBe("purchase_not_found");
    // Not a UUID (even one the old pattern let through): unknown, never a database error.
    expect(await refusal(storePurchase(db, "S-LOOKUP", "-".repeat(36)))).toBe("purchase_not_found");
  });
});
