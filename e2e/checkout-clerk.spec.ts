import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The clerk on the sale (issue 36 item 3, ADR 042): a clerk of 桃園門市 comes from the console's home by its
 * links, finds a member at the counter, books a purchase, binds the member to themselves as 專屬顧問, and finds the
 * sale and the member in 人員業績. Every page is checked with axe; the report is photographed on a phone and a
 * laptop.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

async function screenshots(page: Page, name: string) {
  for (const [label, size] of [
    ["phone", { width: 390, height: 844 }],
    ["laptop", { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow of ${name} on a ${label} (px)`).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `clerk-${name}-${label}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }
}

test("a clerk books a sale, binds the member to themselves and sees both in the reports", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const clerk = await loginStaffByCookie(page.request, context, base, {
    role: "staff",
    // A store no other journey books at today: the counter journey counts 信義旗艦店's day totals exactly.
    storeIds: ["taoyuan"],
    displayName: `顧問${Date.now() % 100_000}`,
  });
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "陳雅婷" });
  const receipt = `CL-${Date.now()}`;

  // From the console's home to the counter by the navigation.
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin");
  const nav = page.getByRole("navigation", { name: "後台導覽" });
  await nav.getByRole("link", { name: "櫃檯" }).click();
  await expect(page).toHaveURL(/\/admin\/counter$/);
  await waitForHydration(page);
  await page.getByLabel("手機號碼或會員編號").fill(created.memberNumber);
  await page.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/counter\/member\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("member-consultant")).toHaveText("尚未指定");
  await expectAccessible(page);

  // A purchase.
  await page.getByRole("link", { name: "登錄消費" }).click();
  await waitForHydration(page);
  await page.getByLabel("發票或收據號碼").fill(receipt);
  await page.getByLabel("消費淨額（新台幣元）").fill("3280");
  await page.getByRole("button", { name: "確認登錄" }).click();
  await expect(page.getByTestId("purchase-done")).toBeVisible();

  // Back to the member: bind them to me.
  await page.goto(`/admin/counter/member/${created.memberId}`);
  await waitForHydration(page);
  await expect(page.getByLabel("指定專屬顧問")).toHaveValue(clerk.userId);
  await page.getByRole("button", { name: "設定顧問" }).click();
  await expect(page.getByText("已更新專屬顧問。")).toBeVisible();
  await expect(page.getByTestId("member-consultant")).toHaveText(`我（${clerk.displayName}）`);
  await screenshots(page, "counter-member");
  await page.setViewportSize({ width: 1280, height: 800 });

  // The reports, by the navigation.
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "人員業績" }).click();
  await expect(page).toHaveURL(/\/admin\/reports$/);
  await expect(page.getByRole("heading", { level: 1, name: "人員業績" })).toBeVisible();
  const row = page.getByTestId("clerk-sales-row").filter({ hasText: clerk.displayName });
  await expect(row.getByTestId("clerk-purchases")).toHaveText("1");
  await expect(row.getByTestId("clerk-amount")).toHaveText("NT$3,280");
  await expect(row.getByTestId("clerk-points")).toHaveText(/^\d+$/);
  await expect(page.getByRole("heading", { name: `${clerk.displayName} 的顧問名單` })).toBeVisible();
  const member = page.getByTestId("consultant-member-row").filter({ hasText: created.memberNumber });
  await expect(member).toHaveCount(1);
  await expect(member.getByTestId("consultant-last-visit")).not.toHaveText("尚未消費");
  await screenshots(page, "reports");

  // A reversed range is answered beside the field, as a 400 page.
  await waitForHydration(page);
  const response = await page.goto("/admin/reports?from=2026-03-05&to=2026-03-01");
  expect(response?.status()).toBe(400);
  await expect(page.getByText("結束日期不能早於開始日期")).toBeVisible();
  await expectAccessible(page);
});
