import path from "node:path";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { acceptAndEnrol, code, invite, inviteThroughConsole } from "./support/console";
import { STRONG_PASSWORD } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The console's foundation (issue 13, ADR 020): an invitation, the password, the authenticator app
 * (the test computes the codes from the secret the page shows), the shell, the 403 view, logout and login.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

test("an invited admin sets a password, enrols TOTP and opens the console on desktop, tablet and phone", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = `owner-${Date.now()}@example.com`;
  await acceptAndEnrol(page, await invite(page, { contact: email, displayName: "王大明", role: "admin" }));
  await expect(page.getByTestId("console-staff-name")).toHaveText("王大明");
  await expect(page.getByTestId("console-role")).toHaveText("管理員");
  await expect(page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "概覽" })).toBeVisible();
  await expect(page.getByTestId("console-permissions").getByText("管理後台人員")).toBeVisible();
  // No public site header in the console.
  await expect(page.getByRole("navigation", { name: "主要導覽" })).toHaveCount(0);
  await expectAccessible(page);

  for (const [name, size] of [
    ["desktop", { width: 1440, height: 900 }],
    ["tablet", { width: 1024, height: 768 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow on a ${name} (px)`).toBeLessThanOrEqual(0);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `console-home-${name}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }
});

test("a clerk invited in the console logs out and in again with password and code, and meets the 403 view at another store", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const email = `clerk-${Date.now()}@example.com`;
  const secret = await acceptAndEnrol(
    page,
    await inviteThroughConsole(
      browser,
      baseURL ?? "",
      { contact: email, displayName: "陳店員", role: "staff", storeNames: ["信義旗艦店"] },
      { screenshotPath: (name) => path.join(SCREENSHOT_DIR, `console-${name}-desktop.png`) },
    ),
  );
  await expect(page.getByTestId("console-store")).toHaveText("信義旗艦店");
  await expect(page.getByTestId("console-permissions").getByText("管理後台人員")).toHaveCount(0);

  await page.getByRole("button", { name: "登出後台" }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await gotoAndCheck(page, "/admin/counter", { status: 200 });
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fcounter$/);

  await page.getByLabel("電子郵件或手機號碼").fill(email);
  await page.getByLabel("密碼").fill("wrong-password-123");
  await page.getByRole("button", { name: "下一步" }).click();
  await expect(page.getByRole("alert")).toHaveText("帳號或密碼錯誤");
  await expect(page.getByLabel("電子郵件或手機號碼")).toHaveValue(email);
  await expectAccessible(page);

  await page.getByLabel("密碼").fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "下一步" }).click();
  await expect(page).toHaveURL(/\/admin\/verify\?redirectTo=/);
  await expectAccessible(page);
  await page.getByLabel("驗證碼").fill("000000");
  await page.getByRole("button", { name: "確認" }).click();
  await expect(page.getByText("驗證碼錯誤或已使用過，請輸入新的驗證碼")).toBeVisible();
  await expectAccessible(page);
  // The enrolment may have used this time step's code (no replay): the next step's code is always new.
  await page.getByLabel("驗證碼").fill(code(secret, 1));
  await page.getByRole("button", { name: "確認" }).click();
  // Back where the login started: the counter.
  await expect(page).toHaveURL(/\/admin\/counter$/);
  await expect(page.getByRole("heading", { level: 1, name: "櫃檯" })).toBeVisible();
  await expectAccessible(page);

  // A switch to a store that is not the clerk's (a forged form): the console's 403 view.
  await page.evaluate(() => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = "/admin/store";
    const fields: [string, string][] = [
      ["storeId", "banqiao"],
      ["redirectTo", "/admin"],
    ];
    for (const [name, value] of fields) {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    form.submit();
  });
  await expect(page.getByTestId("console-forbidden")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "沒有權限" })).toBeVisible();
  await expect(page.getByRole("button", { name: "登出後台" })).toBeVisible();
  await expectAccessible(page);
});

test("an admin moves a clerk to another store and disables them: the clerk's open console ends", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  // The clerk, working in another browser.
  const clerkContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  const clerk = await loginStaffByCookie(clerkContext.request, clerkContext, base, {
    role: "staff",
    storeIds: ["xinyi-flagship"],
    displayName: "吳店員",
  });
  const clerkPage = await clerkContext.newPage();
  await gotoAndCheck(clerkPage, "/admin");
  await expect(clerkPage.getByTestId("console-store")).toHaveText("信義旗艦店");

  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await gotoAndCheck(page, "/admin/staff");
  await page.getByRole("searchbox", { name: "搜尋姓名、電子郵件或手機" }).fill("吳");
  await page.getByRole("button", { name: "篩選" }).click();
  await expect(page).toHaveURL(/\/admin\/staff\?q=%E5%90%B3/);
  await page.getByRole("link", { name: "吳店員" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/staff/${clerk.userId}$`));
  await waitForHydration(page);
  await page.getByRole("checkbox", { name: "板橋" }).check();
  await page.getByRole("checkbox", { name: "信義旗艦店" }).uncheck();
  await page.getByRole("button", { name: "儲存角色與門市" }).click();
  await expect(page.getByText("角色與門市已更新。")).toBeVisible();
  await expectAccessible(page);
  await clerkPage.reload();
  await expect(clerkPage.getByTestId("console-store")).toContainText("板橋");

  await page.getByRole("button", { name: "停用此人員" }).click();
  await expect(page.getByText("已停用，所有後台工作階段已結束。")).toBeVisible();
  await expect(page.getByTestId("staff-disabled")).toBeVisible();
  await expect(page.getByTestId("staff-actions")).toHaveCount(0);
  await expectAccessible(page);
  for (const [name, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["tablet", { width: 1024, height: 768 }],
    ["phone", { width: 390, height: 844 }],
  ] as const) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow on a ${name} (px)`).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `console-staff-member-${name}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }
  // The clerk's next step lands on the console login.
  await clerkPage.reload();
  await expect(clerkPage).toHaveURL(/\/admin\/login/);
  await clerkContext.close();
});
