import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { adjustPoints } from "./support/member-history";
import { createMember, newPhone } from "./support/members";
import { PHONE, screenshotSizes, TABLET } from "./support/screenshots";
import { ageSecondFactor, loginStaffByCookie, totpCode } from "./support/staff";

/**
 * Point adjustments with four-eyes approval (issue 13, ADR 023): a manager's large adjustment waits, an
 * admin approves it, the member's balance changes; the step-up code keeps what was typed.
 */

const screenshots = (page: Page, name: string) =>
  screenshotSizes(page, name, {
    sizes: [
      ["tablet", TABLET],
      ["phone", PHONE],
    ],
    axe: "phone",
  });

test("a manager's large adjustment waits; an admin approves it; the member's balance changes", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const phone = newPhone();
  const member = await createMember(page.request, { phoneNumber: phone.e164, name: "林美玲" });
  await adjustPoints(page.request, member.userId, 500);
  const manager = await loginStaffByCookie(page.request, page.context(), baseURL!, {
    role: "manager",
    storeIds: ["xinyi-flagship"],
    displayName: "張店長",
  });

  const adjustPath = `/admin/members/${member.memberId}/adjust`;
  await gotoAndCheck(page, adjustPath);
  const header = page.getByTestId("adjust-member");
  await expect(header.getByRole("heading", { level: 1, name: "林美玲" })).toBeVisible();
  await expect(page.getByTestId("adjust-member-number")).toHaveText(member.memberNumber);
  await expect(page.getByTestId("adjust-balance")).toHaveText("500 點");
  // A manager has no approvals in the navigation.
  await expect(page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "點數核准" })).toHaveCount(
    0,
  );

  // Bad input: beside the field, what was typed kept.
  await page.getByLabel("調整點數").fill("12.5");
  await page.getByLabel("原因").selectOption({ label: "補登漏記消費" });
  await page.getByLabel("說明").fill("3/1 發票未登錄");
  await page.getByRole("button", { name: "送出調整" }).click();
  await expect(page.getByText("點數必須是整數，不能有小數")).toBeVisible();
  await expect(page.getByLabel("調整點數")).toHaveValue("12.5");
  await expect(page.getByLabel("說明")).toHaveValue("3/1 發票未登錄");
  await expect(page.getByLabel("調整點數")).toBeFocused();
  await expectAccessible(page);

  await page.getByLabel("調整點數").fill("-600");
  await page.getByRole("button", { name: "送出調整" }).click();
  await expect(page.getByText("扣點後會低於 0 點：會員目前只有 500 點，不能扣到負數。")).toBeVisible();

  // Above the limit (1,000): it waits for an admin.
  await page.getByLabel("調整點數").fill("2,500");
  await page.getByRole("button", { name: "送出調整" }).click();
  await expect(page.getByTestId("adjust-result")).toHaveText(
    "這筆 2,500 點的調整超過您的單筆上限，需由另一位管理員核准後才會入帳。",
  );
  await expect(page.getByTestId("adjust-balance")).toHaveText("500 點");
  await expectAccessible(page);
  await screenshots(page, "adjust-pending");

  // The manager's code is older than 5 minutes: the form asks for it again and keeps the typed values.
  await waitForHydration(page);
  await page.getByLabel("調整點數").fill("100");
  await page.getByLabel("原因").selectOption({ label: "客訴補償" });
  await ageSecondFactor(page.request, manager.userId);
  await page.getByRole("button", { name: "送出調整" }).click();
  await expect(page.getByTestId("step-up")).toBeVisible();
  await expect(page.getByLabel("調整點數")).toHaveValue("100");
  await expect(page.getByLabel("原因")).toHaveValue("goodwill");
  await expectAccessible(page);
  await page.getByLabel("驗證碼").fill(totpCode(manager.totpSecret));
  await page.getByRole("button", { name: "送出調整" }).click();
  await expect(page.getByTestId("adjust-result")).toHaveText("已調整 100 點，會員目前有 600 點。");
  await expect(page.getByTestId("adjust-balance")).toHaveText("600 點");

  // The manager cannot open the approvals.
  await gotoAndCheck(page, "/admin/approvals", { status: 403 });
  await expect(page.getByTestId("console-forbidden")).toBeVisible();

  // An admin, in another browser context, approves.
  const adminContext = await browser.newContext({ baseURL });
  const adminPage = await adminContext.newPage();
  await loginStaffByCookie(adminPage.request, adminContext, baseURL!, { role: "admin", displayName: "王總監" });
  await gotoAndCheck(adminPage, "/admin");
  await adminPage.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "點數核准" }).click();
  await expect(adminPage).toHaveURL(/\/admin\/approvals$/);
  await waitForHydration(adminPage);
  const row = adminPage.getByTestId("approval").filter({ hasText: member.memberNumber });
  await expect(row).toContainText("林美玲");
  await expect(row).toContainText("+2,500 點");
  await expect(row).toContainText("補登漏記消費：3/1 發票未登錄");
  await expect(row).toContainText("張店長");
  await expect(row).toContainText("信義旗艦店");
  await expectAccessible(adminPage);
  await screenshots(adminPage, "approvals");
  await row.getByRole("button", { name: "核准 林美玲 的調整" }).click();
  await expect(adminPage.getByText("已核准，點數已入帳。")).toBeVisible();
  await expect(adminPage.getByTestId("approval").filter({ hasText: member.memberNumber })).toHaveCount(0);
  await expectAccessible(adminPage);

  // The member's balance changed.
  await gotoAndCheck(adminPage, adjustPath);
  await expect(adminPage.getByTestId("adjust-balance")).toHaveText("3,100 點");

  // The admin's settings page (admins only).
  await gotoAndCheck(adminPage, "/admin/settings");
  await expect(adminPage.getByLabel("單筆上限（點）")).toHaveValue("1000");
  await screenshots(adminPage, "settings");
  await adminContext.close();
});
