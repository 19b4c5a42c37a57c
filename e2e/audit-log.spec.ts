import { expect, test } from "./fixtures";
import { createMember, newPhone } from "./support/members";
import { PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * The audit log on a phone with the longest rows it shows: the minute's anchor row (every moved store chain's
 * seq and 64-hex hash, ADR 039). Such a row once pushed the page 143 px sideways when the job happened to run
 * during another journey; here it is written on purpose, so the layout is held every run.
 */
test("the audit log fits a phone with a store-chain anchor row on it", async ({ page, request, context, baseURL }) => {
  const phone = newPhone();
  const { memberNumber } = await createMember(request, { phoneNumber: phone.e164, name: "林稽核" });
  const keyRes = await request.post("/__test/api-keys", { data: { storeId: "luodong", name: "audit till" } });
  const { secret } = (await keyRes.json()) as { secret: string };
  const purchase = await request.post("/api/v1/purchases", {
    headers: {
      authorization: `Bearer ${secret}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID(),
    },
    data: JSON.stringify({ memberNumber, receiptNumber: `AUDIT-${Date.now()}`, netAmount: 1200 }),
  });
  expect(purchase.status(), await purchase.text()).toBe(201);
  const anchored = await request.post("/__test/audit/anchor-store-chains");
  expect(await anchored.json()).toEqual({ problem: null });

  await loginStaffByCookie(request, context, baseURL!, { role: "admin" });
  await page.setViewportSize(PHONE);
  await page.goto("/admin/audit?action=audit.chains_anchored");
  const row = page.getByTestId("audit-row").filter({ has: page.locator('[data-action="audit.chains_anchored"]') });
  await expect(row.first()).toContainText("luodong");
  await screenshotSizes(page, "console-audit-anchor", { sizes: [["phone", PHONE]] });
});
