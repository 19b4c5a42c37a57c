import type { DatabaseHandle } from "@platform/db/client";
import { auditLog, purchase, staffAccount } from "@platform/db/schema";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { newMember } from "../../app/domain/loyalty/testing.server";
import { setStaffCode } from "../../app/domain/staff/clerk.server";
import { createTestStaff, testAdminActor } from "../../app/domain/staff/testing.server";
import { serveApiV1ForTests } from "./api-v1-rig.testing";
import { API_ERROR_CODES } from "./v1/errors";
import { openApiDocument } from "./v1/openapi";

/**
 * The POS API's `staffCode` on a purchase (issue 36 item 3, ADR 042): a clerk of the key's store is recorded on the
 * purchase; an unknown code, a disabled clerk or another store's clerk is `422 staff_code_unknown` with nothing
 * booked; a malformed code is `400 invalid_body`.
 */
let database: DatabaseHandle;
let base: string;
let storeKey: string;
let clerkId: string;
let disabledId: string;
let memberNumber: string;

serveApiV1ForTests("api_clerk", async (rig) => {
  ({ database, base, storeKey } = rig);
  const secret = rig.cardSecret;
  const db = database.db;
  const { actor, audit } = testAdminActor();
  const clerk = await createTestStaff(db, secret, { role: "staff", storeIds: ["TPE01"] });
  const other = await createTestStaff(db, secret, { role: "staff", storeIds: ["TXG01"] });
  const disabled = await createTestStaff(db, secret, { role: "staff", storeIds: ["TPE01"] });
  clerkId = clerk.userId;
  disabledId = disabled.userId;
  await setStaffCode(db, actor, clerk.userId, "TP01", audit);
  await setStaffCode(db, actor, other.userId, "TX01", audit);
  await setStaffCode(db, actor, disabled.userId, "OFF1", audit);
  await db.update(staffAccount).set({ disabledAt: new Date() }).where(eq(staffAccount.userId, disabled.userId));
  memberNumber = (await newMember(db)).memberNumber;
});

let keyCounter = 0;
async function book(body: Record<string, unknown>) {
  const res = await fetch(`${base}/purchases`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${storeKey}`,
      "content-type": "application/json",
      "idempotency-key": `clerk-${++keyCounter}`,
    },
    body: JSON.stringify({ memberNumber, netAmount: 1200, ...body }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: test assertions read arbitrary JSON fields.
  return { status: res.status, body: (await res.json()) as any };
}

const purchaseOf = async (receiptNumber: string) =>
  (await database.db.select().from(purchase).where(eq(purchase.receiptNumber, receiptNumber)))[0] ?? null;

describe("POS API: the clerk on the sale", () => {
  it("records the clerk of a valid staff code (any case), and none without one", async () => {
    const booked = await book({ receiptNumber: "C-1", staffCode: "tp01" });
    expect(booked.status).toBe(201);
    expect((await purchaseOf("C-1"))?.staffUserId).toBe(clerkId);
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.targetId, booked.body.purchaseId));
    expect(audit.map((a) => a.action)).toEqual(["purchase.recorded"]);
    expect((await book({ receiptNumber: "C-2" })).status).toBe(201);
    expect((await purchaseOf("C-2"))?.staffUserId).toBeNull();
  });

  it("refuses an unknown code, another store's clerk and a disabled clerk with 422 staff_code_unknown, booking nothing", async () => {
    for (const [receiptNumber, staffCode] of [
      ["C-3", "NOPE"],
      ["C-4", "TX01"],
      ["C-5", "OFF1"],
    ] as const) {
      const refused = await book({ receiptNumber, staffCode });
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe("staff_code_unknown");
      expect(await purchaseOf(receiptNumber)).toBeNull();
    }
    expect(disabledId).not.toBe(clerkId);
  });

  it("refuses a malformed code with 400 invalid_body", async () => {
    for (const staffCode of ["AB", "ABCDEFG", "AB-1", "A\u0000BC", 1234]) {
      const refused = await book({ receiptNumber: "C-6", staffCode });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe("invalid_body");
    }
    expect(await purchaseOf("C-6")).toBeNull();
  });

  it("documents staffCode and staff_code_unknown in the OpenAPI document and the error list", () => {
    expect(API_ERROR_CODES.find((c) => c.code === "staff_code_unknown")?.status).toBe(422);
    const doc = JSON.stringify(openApiDocument());
    expect(doc).toContain('"staffCode"');
    expect(doc).toContain("staff_code_unknown");
  });
});
