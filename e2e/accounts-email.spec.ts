import { expect, expectAccessible, gotoAndCheck, latestMailCode, mailTest as test, waitForHydration } from "./fixtures";
import { createMember, latestSmsCode, newPhone, STRONG_PASSWORD } from "./support/members";

test.describe("e-mail", () => {
  test("an e-mail given at sign-up is verified by a code from the real SMTP server, then it logs in", async ({
    page,
    smtp,
  }) => {
    const phone = newPhone();
    const email = `joins${Date.now()}@example.com`;
    await gotoAndCheck(page, "/signup/phone-verification");
    await page.getByLabel("手機號碼").fill(phone.local);
    await page.getByRole("checkbox").click();
    await expect(page.getByRole("button", { name: "取得驗證碼" })).toBeEnabled({ timeout: 20_000 });
    await page.getByRole("button", { name: "取得驗證碼" }).click();
    await page.getByLabel("6 位數驗證碼").fill(await latestSmsCode(page, phone.e164));
    await page.getByRole("button", { name: "驗證並繼續" }).click();
    await expect(page).toHaveURL(/password-setting$/);
    await page.getByLabel("新密碼", { exact: true }).fill(STRONG_PASSWORD);
    await page.getByLabel("再次輸入密碼").fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "下一步" }).click();
    await expect(page).toHaveURL(/create-member-info$/);
    await page.getByLabel("姓名").fill("黃淑芬");
    await page.getByRole("textbox", { name: "電子郵件" }).fill(email);
    await page.getByRole("button", { name: "完成註冊" }).click();

    await expect(page).toHaveURL(/\/member-center\/verify-email$/);
    await expect(page.getByText(email)).toBeVisible();
    await waitForHydration(page);
    await expectAccessible(page);
    const code = await latestMailCode(smtp, email);
    const mail = smtp.received.find((m) => m.to.includes(email));
    expect(mail?.parsed.subject).toBeTruthy();
    expect(mail?.parsed.text).not.toMatch(/https?:\/\//);
    await page.getByLabel("6 位數驗證碼").fill(code);
    await page.getByRole("button", { name: "驗證並繼續" }).click();
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByText("電子郵件已驗證，之後也可以用它登入")).toBeVisible();

    await page.getByRole("button", { name: "登出" }).click();
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/member-login?method=email");
    await page.getByLabel("電子郵件").fill(email);
    await page.getByLabel("密碼").fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("黃淑芬");
  });

  test("forgot password by e-mail: code read from the real SMTP server", async ({ page, request, smtp }) => {
    const phone = newPhone();
    const email = `forgot${Date.now()}@example.com`;
    await createMember(request, { phoneNumber: phone.e164, email });
    await gotoAndCheck(page, "/forget-password/email-verification");
    await page.getByLabel("電子郵件").fill(email);
    await expect(page.getByRole("button", { name: "取得驗證碼" })).toBeEnabled({ timeout: 20_000 });
    await page.getByRole("button", { name: "取得驗證碼" }).click();
    await expect(page.getByText(/若此電子郵件已註冊為會員/)).toBeVisible();
    await page.getByLabel("6 位數驗證碼").fill(await latestMailCode(smtp, email));
    await page.getByRole("button", { name: "驗證並繼續" }).click();
    await expect(page).toHaveURL(/new-password-setting$/);
    const newPassword = "Oak-Parquet-Herringbone-9";
    await page.getByLabel("新密碼", { exact: true }).fill(newPassword);
    await page.getByLabel("再次輸入密碼").fill("something-else-entirely");
    await page.getByRole("button", { name: "設定新密碼" }).click();
    await expect(page.getByText("兩次輸入的密碼不一致")).toBeVisible();
    await page.getByLabel("新密碼", { exact: true }).fill(newPassword);
    await page.getByLabel("再次輸入密碼").fill(newPassword);
    await page.getByRole("button", { name: "設定新密碼" }).click();
    await expect(page).toHaveURL(/\/member-login$/);
    await page.goto("/member-login?method=email");
    await page.getByLabel("電子郵件").fill(email);
    await page.getByLabel("密碼").fill(newPassword);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await expect(page).toHaveURL(/\/member-center$/);
  });
});
