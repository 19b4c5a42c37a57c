import { isUniqueViolation } from "@platform/db/errors";
import { describe, expect, it } from "vitest";

describe("isUniqueViolation", () => {
  const pg = { code: "23505", constraint_name: "purchase_store_receipt_unique" };
  const pglite = { code: "23505", constraint: "member_phone_unique" };

  it("finds the violation through drizzle's cause chain, from either driver", () => {
    expect(isUniqueViolation(pg)).toBe(true);
    expect(isUniqueViolation(new Error("query failed", { cause: new Error("wrapped", { cause: pglite }) }))).toBe(true);
  });

  it("matches a named constraint only when asked for", () => {
    expect(isUniqueViolation(new Error("x", { cause: pg }), "purchase_store_receipt_unique")).toBe(true);
    expect(isUniqueViolation(pglite, "member_phone_unique")).toBe(true);
    expect(isUniqueViolation(pg, "member_phone_unique")).toBe(false);
  });

  it("is false for other errors, non-errors and a cause cycle", () => {
    const cyclic: { code: string; cause?: unknown } = { code: "23503" };
    cyclic.cause = cyclic;
    for (const value of [new Error("x"), { code: "23503" }, null, undefined, "23505", cyclic]) {
      expect(isUniqueViolation(value)).toBe(false);
    }
  });
});
