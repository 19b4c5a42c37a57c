import type { Browser, Page } from "@playwright/test";
import { base32Decode, hotp, totpStep } from "../../app/domain/staff/totp";
import { expect, expectAccessible, gotoAndCheck, waitForHydration } from "../fixtures";
import { STRONG_PASSWORD } from "./members";
import { loginStaffByCookie } from "./staff";

/** Staff accounts in browser tests: invitations (as an admin makes them), the password and TOTP enrolment. */

/** The TOTP code of a secret (as the page shows it, spaces allowed) at this time step (or a later one). */
export function code(secret: string, offsetSteps = 0): string {
  return hotp(base32Decode(secret.replace(/\s/g, "")), totpStep(new Date()) + offsetSteps);
}

/** An invitation, as `npm run staff:create-admin` (admins) or an admin would make it; its path. */
export async function invite(
  page: Page,
  input: { contact: string; displayName: string; role: string; storeIds?: string[] },
): Promise<string> {
  const res = await page.request.post("/__test/staff-invitations", { data: input });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { path: string }).path;
}

/**
 * An invitation as an admin makes it in the console, the way a person does: a signed-in admin (by cookie)
 * opens the console, taps 人員與權限 in the navigation, then 邀請人員, fills the form and reads the link
 * the page shows once. The admin's own browser context is closed afterwards; returns the link's path.
 */
export async function inviteThroughConsole(
  browser: Browser,
  baseURL: string,
  input: { contact: string; displayName: string; role: "staff" | "manager" | "admin"; storeNames?: string[] },
  options: { screenshotPath?: (name: string) => string } = {},
): Promise<string> {
  const context = await browser.newContext({
    baseURL,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  try {
    await loginStaffByCookie(context.request, context, baseURL, { role: "admin", displayName: "王總監" });
    const page = await context.newPage();
    await gotoAndCheck(page, "/admin");
    await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "人員與權限" }).click();
    await expect(page).toHaveURL(/\/admin\/staff$/);
    await expect(page.getByRole("heading", { level: 1, name: "人員與權限" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "邀請人員" }).click();
    await expect(page).toHaveURL(/\/admin\/staff\/invite$/);
    await waitForHydration(page);
    await page.getByLabel("電子郵件或手機號碼").fill(input.contact);
    await page.getByLabel("顯示名稱").fill(input.displayName);
    await page
      .getByLabel("角色")
      .selectOption({ label: { staff: "門市人員", manager: "店長", admin: "管理員" }[input.role] });
    for (const name of input.storeNames ?? []) await page.getByRole("checkbox", { name }).check();
    await expectAccessible(page);
    if (options.screenshotPath) {
      await page.screenshot({ path: options.screenshotPath("staff-invite"), fullPage: true, animations: "disabled" });
    }
    await page.getByRole("button", { name: "建立邀請連結" }).click();
    await expect(page.getByTestId("invitation-created")).toBeVisible();
    await expectAccessible(page);
    const link = await page.getByTestId("invitation-link").inputValue();
    expect(link).toMatch(/\/admin\/invitation\/[A-Za-z0-9_-]+$/);
    // The list shows the invitation as open until it is accepted.
    await page.getByRole("link", { name: "回到人員列表" }).click();
    await expect(page.getByTestId("invitation").filter({ hasText: input.displayName })).toBeVisible();
    if (options.screenshotPath) {
      await page.screenshot({ path: options.screenshotPath("staff-list"), fullPage: true, animations: "disabled" });
    }
    return new URL(link).pathname;
  } finally {
    await context.close();
  }
}

/** Accepts an invitation with a new password and enrols the authenticator; returns its secret. */
export async function acceptAndEnrol(page: Page, invitationPath: string): Promise<string> {
  await gotoAndCheck(page, invitationPath);
  await expect(page.getByRole("heading", { level: 1, name: "加入漢生活後台" })).toBeVisible();
  await page.getByLabel("設定密碼").fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "接受邀請" }).click();
  await expect(page).toHaveURL(/\/admin\/enrol$/);
  await waitForHydration(page);
  await expect(page.getByRole("img", { name: "驗證器 App 的設定 QR Code" })).toBeVisible();
  await expectAccessible(page);
  const secret = (await page.getByTestId("totp-secret").textContent()) ?? "";
  await page.getByLabel("驗證碼").fill(code(secret));
  await page.getByRole("button", { name: "完成設定" }).click();
  await expect(page.getByTestId("recovery-codes").getByRole("listitem")).toHaveCount(10);
  await expectAccessible(page);
  await page.getByRole("link", { name: "我已保存，進入後台" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  return secret;
}
