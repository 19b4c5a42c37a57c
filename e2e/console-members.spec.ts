import path from "node:path";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The console's member pages (issue 15), the way an admin works: from the console home through the navigation,
 * a search by part of a Chinese name and by a phone typed with dashes, the audited reveal, and a disable that
 * ends the member's session in their own browser; then the audit log shows both.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

test("an admin finds a member by part of the name and by phone, reveals, disables them and sees it in the audit log", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "林雅婷" });

  // The member, logged in on their own phone.
  const memberContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  await loginByCookie(memberContext.request, memberContext, base, created.userId);
  const memberPage = await memberContext.newPage();
  await gotoAndCheck(memberPage, "/member-center");
  await expect(memberPage).toHaveURL(/\/member-center$/);

  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "會員" }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await expectAccessible(page);
  const search = page.getByRole("searchbox", { name: "搜尋會員" });
  await search.fill("雅婷");
  await page.getByRole("button", { name: "搜尋", exact: true }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: created.memberNumber })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-members-desktop.png"), fullPage: true });

  await page.getByRole("searchbox", { name: "搜尋會員" }).fill(phone.local);
  await page.getByRole("button", { name: "搜尋", exact: true }).click();
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  await page.getByRole("link", { name: created.memberNumber }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/members/${created.memberId}$`));
  await waitForHydration(page);
  await expect(page.getByTestId("member-phone")).not.toContainText(phone.local.replace(/-/g, "").slice(0, 7));
  await page.getByRole("button", { name: "顯示完整個資" }).click();
  await expect(page.getByText("已顯示完整個資，這次查看已記錄在稽核紀錄。")).toBeVisible();
  await expect(page.getByTestId("member-phone")).toContainText(phone.e164);
  await expectAccessible(page);

  await page.getByLabel("停用原因").fill("疑似帳號遭盜用");
  await page.getByRole("button", { name: "停用會員" }).click();
  await expect(page.getByTestId("member-disabled")).toBeVisible();
  await expectAccessible(page);
  for (const [name, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["tablet", { width: 1024, height: 768 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `console-member-${name}.png`), fullPage: true });
  }

  // The member's next page is the login.
  await memberPage.reload();
  await expect(memberPage).toHaveURL(/\/member-login/);
  await memberContext.close();

  // The audit log shows the reveal and the disable.
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "稽核紀錄" }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  await expect(page.getByTestId("audit-row").filter({ hasText: "member.disabled" }).first()).toBeVisible();
  await expect(page.getByTestId("audit-row").filter({ hasText: "member.revealed" }).first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-audit-desktop.png"), fullPage: true });
});
