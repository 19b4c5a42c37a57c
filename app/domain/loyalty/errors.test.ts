import { describe, expect, it } from "vitest";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import { isLoyaltyErrorCode, LOYALTY_ERRORS, LoyaltyError, loyaltyErrorMessage, loyaltyErrorStatus } from "./errors";

describe("the table of loyalty errors", () => {
  const codes = Object.keys(LOYALTY_ERRORS).filter(isLoyaltyErrorCode);

  it("gives every code one status and a message in both languages", () => {
    expect(codes.length).toBeGreaterThan(10);
    for (const code of codes) {
      expect([400, 404, 409, 422]).toContain(loyaltyErrorStatus(code));
      expect(zhTW[loyaltyErrorMessage(code)]).toBeTruthy();
      expect(en[loyaltyErrorMessage(code)]).toBeTruthy();
    }
  });

  it("is what an error answers, whoever catches it (invalid input is 400 everywhere)", () => {
    expect(new LoyaltyError("invalid_input", "x").status).toBe(400);
    expect(new LoyaltyError("reward_not_found", "x").status).toBe(404);
    expect(new LoyaltyError("insufficient_points", "x").status).toBe(409);
    expect(new LoyaltyError("member_disabled", "x").status).toBe(422);
    expect(isLoyaltyErrorCode("not_a_code")).toBe(false);
    expect(isLoyaltyErrorCode("toString")).toBe(false);
  });
});
