import path from "node:path";
import type { Page } from "@playwright/test";
import { base32Decode, hotp, totpStep } from "../app/domain/staff/totp";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { STRONG_PASSWORD } from "./support/members";

/**
 * The console's foundation (issue 13, ADR 020): an invitation, the password, the authenticator app
 * (the test computes the codes from the secret the page shows), the shell, the 403 view, logout and login.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

function code(secret: string, offsetSteps = 0): string {
  return hotp(base32Decode(secret.replace(/\s/g, "")), totpStep(new Date()) + offsetSteps);
}

async function invite(page: Page, input: { contact: string; displayName: string; role: string; storeIds?: string[] }) {
  const res = await page.request.post("/__test/staff-invitations", { data: input });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { path: string }).path;
}

/** Accepts an invitation with a new password and enrols the authenticator; returns its secret. */
async function acceptAndEnrol(page: Page, invitationPath: string): Promise<string> {
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

test("a clerk logs out and in again with password and code, and meets the 403 view at another store", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = `clerk-${Date.now()}@example.com`;
  const secret = await acceptAndEnrol(
    page,
    await invite(page, { contact: email, displayName: "陳店員", role: "staff", storeIds: ["xinyi-flagship"] }),
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
  // /admin/counter is not built yet: the console's own 404 view, inside the shell.
  await expect(page.getByTestId("console-not-found")).toBeVisible();
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
