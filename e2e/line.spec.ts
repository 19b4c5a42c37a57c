import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, latestSmsCode, loginByCookie, newPhone, STRONG_PASSWORD } from "./support/members";

/** A unique LINE test user for each test (the local provider derives its LINE user id from the name). */
let userCounter = 0;
function lineUserName(label: string) {
  userCounter += 1;
  return `${label}-${process.pid}-${Date.now().toString(36)}-${userCounter}`;
}

/** On the local provider's authorize page: choose (or name) a test user and agree. */
async function authorizeAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/__line\/oauth2\/v2\.1\/authorize\?/);
  await page.getByRole("radio", { name: "其他測試使用者" }).check();
  await page.getByLabel("其他測試使用者的名稱").fill(name);
  await page.getByRole("button", { name: "同意並登入" }).click();
}

async function logout(page: Page) {
  await page.context().clearCookies();
}

test.describe("LINE login (web, local provider)", () => {
  test("a new visitor signs up with LINE, verifies a phone in step 3 and reaches the member center", async ({
    page,
  }) => {
    const name = lineUserName("signup");
    const phone = newPhone();
    await gotoAndCheck(page, "/signup/phone-verification");
    await waitForHydration(page);
    await page.getByRole("button", { name: "使用 LINE 註冊" }).click();

    // The authorize request carries state, nonce, PKCE S256, the scopes and zh-TW.
    const authorize = new URL(page.url());
    expect(authorize.searchParams.get("scope")).toBe("openid profile email");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorize.searchParams.get("ui_locales")).toBe("zh-TW");
    expect(authorize.searchParams.get("nonce")).toMatch(/^[\w-]{32}$/);
    expect(authorize.searchParams.get("state")).toMatch(/^[\w-]{32}$/);
    await expectAccessible(page);
    await authorizeAs(page, name);

    await expect(page).toHaveURL(/\/signup\/create-member-info$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("驗證手機號碼");
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByLabel("手機號碼").fill(phone.local);
    await page.getByRole("checkbox").click();
    const send = page.getByRole("button", { name: "取得驗證碼" });
    await expect(send).toBeEnabled({ timeout: 20_000 });
    await send.click();
    const code = await latestSmsCode(page, phone.e164);
    await page.getByLabel("6 位數驗證碼").fill(code);
    await page.getByRole("button", { name: "驗證並繼續" }).click();

    await expect(page.getByLabel("姓名")).toBeVisible();
    await page.getByLabel("姓名").fill("王小明");
    await page.getByRole("button", { name: "完成註冊" }).click();
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByText("歡迎加入漢生活會員！")).toBeVisible();
    await expect(page.getByTestId("header-member")).toContainText("王小明");

    await page.goto("/member-center/linked-logins");
    await expect(page.getByTestId("login-phone")).toHaveText(phone.local);
    await expect(page.getByTestId("login-line")).toContainText("已連結");
    // LINE is this member's only way in (no password): unlinking is not offered.
    await expect(page.getByTestId("login-line")).toContainText("唯一的登入方式");
    await waitForHydration(page);
    await expectAccessible(page);

    // Signed out, LINE signs the member in again.
    await logout(page);
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(page, name);
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByText("登入成功，歡迎回來")).toBeVisible();
  });

  test("a member links LINE, signs in with it, gets 會員已註冊過 on LINE sign-up, and unlinks it", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const name = lineUserName("link");
    const phone = newPhone();
    const { userId } = await createMember(request, { phoneNumber: phone.e164, name: "陳美玲" });
    await loginByCookie(request, context, baseURL as string, userId);

    await gotoAndCheck(page, "/member-center/linked-logins");
    await expect(page.getByTestId("login-line")).toContainText("尚未連結");
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByRole("button", { name: "連結 LINE" }).click();
    await authorizeAs(page, name);
    await expect(page).toHaveURL(/\/member-center\/linked-logins$/);
    await expect(page.getByText("已連結 LINE 帳號")).toBeVisible();
    await expect(page.getByTestId("login-line")).toContainText("已連結");

    // LINE sign-in of the existing member.
    await logout(page);
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(page, name);
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByTestId("header-member")).toContainText("陳美玲");

    // LINE sign-up with an identity that is already a member's: 會員已註冊過, signed in anyway.
    await logout(page);
    await page.goto("/signup/phone-verification");
    await page.getByRole("button", { name: "使用 LINE 註冊" }).click();
    await authorizeAs(page, name);
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByText("會員已註冊過")).toBeVisible();
    await expect(page.getByTestId("header-member")).toContainText("陳美玲");

    // Unlink (the member has a password, so another way in remains).
    await page.goto("/member-center/linked-logins");
    await page.getByRole("button", { name: "取消連結" }).click();
    await expect(page.getByText("已取消連結 LINE 帳號")).toBeVisible();
    await expect(page.getByTestId("login-line")).toContainText("尚未連結");

    // Now that LINE identity is nobody's: LINE sign-in fails.
    await logout(page);
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(page, name);
    await expect(page).toHaveURL(/\/member-login\?line=signup-offer$/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();
  });

  test("deleting a LINE-linked account revokes the LINE token, and LINE no longer signs anyone in", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const name = lineUserName("delete");
    const { userId } = await createMember(request, { phoneNumber: newPhone().e164, name: "林志豪" });
    await loginByCookie(request, context, baseURL as string, userId);
    await page.goto("/member-center/linked-logins");
    await waitForHydration(page);
    await page.getByRole("button", { name: "連結 LINE" }).click();
    await authorizeAs(page, name);
    await expect(page.getByTestId("login-line")).toContainText("已連結");

    const minted = await request.post("/__line/dev/liff-id-token", { data: { name } });
    const { sub } = (await minted.json()) as { sub: string };
    const revokedBefore = (await (await request.get("/__line/dev/revocations")).json()) as { revoked: string[] };
    expect(revokedBefore.revoked).not.toContain(sub);

    await page.goto("/member-center/delete-account");
    await waitForHydration(page);
    await page.getByLabel("我了解刪除後無法復原").check();
    await page.getByLabel("密碼").fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "永久刪除我的帳號" }).click();
    await expect(page.getByText("您的會員帳號已刪除")).toBeVisible();

    const revokedAfter = (await (await request.get("/__line/dev/revocations")).json()) as { revoked: string[] };
    expect(revokedAfter.revoked).toContain(sub);
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(page, name);
    await expect(page).toHaveURL(/\/member-login\?line=signup-offer$/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();
  });

  test("LINE sign-in without a member: 會員登入失敗, back to member-login with an offer to sign up with LINE", async ({
    page,
  }) => {
    await gotoAndCheck(page, "/member-login");
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(page, lineUserName("nobody"));
    await expect(page).toHaveURL(/\/member-login\?line=signup-offer$/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();
    await expect(page.getByTestId("line-signup-offer").getByRole("button", { name: "使用 LINE 註冊" })).toBeVisible();
    await expect(page.getByTestId("header-member")).toHaveCount(0);
    await waitForHydration(page);
    await expectAccessible(page);
  });

  test("deny on LINE's page, a forged state and a replayed callback are refused", async ({ page }) => {
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await expect(page).toHaveURL(/\/__line\/oauth2\/v2\.1\/authorize\?/);
    await page.getByRole("button", { name: "拒絕" }).click();
    await expect(page).toHaveURL(/\/member-login\?line=signup-offer$/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();

    // A callback whose state is not the one this browser started with.
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    const state = new URL(page.url()).searchParams.get("state");
    await page.goto(`/auth/line/callback?code=forged&state=${state}x`);
    await expect(page).toHaveURL(/\/member-login/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();

    // A successful callback URL used a second time (the code and the flow are single use).
    let callbackUrl = "";
    page.on("request", (r) => {
      if (r.url().includes("/auth/line/callback?code=")) callbackUrl = r.url();
    });
    await page.goto("/member-login");
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(page, lineUserName("replay"));
    await expect(page.getByText("會員登入失敗")).toBeVisible();
    expect(callbackUrl).not.toBe("");
    await page.goto(callbackUrl);
    await expect(page).toHaveURL(/\/member-login/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();
  });
});

test("LINE sign-up whose verified phone is already a member's: LINE moves to that member after the SMS code", async ({
  page,
  request,
}) => {
  const name = lineUserName("existing-phone");
  const phone = newPhone();
  await createMember(request, { phoneNumber: phone.e164, name: "黃志明" });
  await page.goto("/signup/phone-verification");
  await page.getByRole("button", { name: "使用 LINE 註冊" }).click();
  await authorizeAs(page, name);
  await expect(page).toHaveURL(/\/signup\/create-member-info$/);
  await page.getByLabel("手機號碼").fill(phone.local);
  await page.getByRole("checkbox").click();
  const send = page.getByRole("button", { name: "取得驗證碼" });
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await send.click();
  const code = await latestSmsCode(page, phone.e164);
  await page.getByLabel("6 位數驗證碼").fill(code);
  await page.getByRole("button", { name: "驗證並繼續" }).click();
  await expect(page.getByText("此手機號碼已是會員")).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page);
  await page.getByRole("button", { name: "連結 LINE 並登入" }).click();
  await expect(page).toHaveURL(/\/member-center$/);
  await expect(page.getByText("已連結 LINE 帳號")).toBeVisible();
  await expect(page.getByTestId("header-member")).toContainText("黃志明");

  // From now on LINE signs in that member.
  await logout(page);
  await page.goto("/member-login");
  await page.getByRole("button", { name: "LINE 登入" }).click();
  await authorizeAs(page, name);
  await expect(page).toHaveURL(/\/member-center$/);
  await expect(page.getByTestId("header-member")).toContainText("黃志明");
});

test.describe("LINE login inside the LINE app (LIFF, @line/liff-mock)", () => {
  test.use({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Line/14.19.0" });

  test("a linked member signs in with the ES256 ID token LIFF hands out; the same token is refused again", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const name = lineUserName("liff");
    const phone = newPhone();
    const { userId } = await createMember(request, { phoneNumber: phone.e164, name: "張書豪" });
    // Link LINE through the web flow first (the member center), then sign out.
    await loginByCookie(request, context, baseURL as string, userId);
    await page.goto("/member-center/linked-logins");
    await waitForHydration(page);
    // Outside LIFF mock data the LINE button takes the web path even in the LINE app's browser.
    await page.getByRole("button", { name: "連結 LINE" }).click();
    await authorizeAs(page, name);
    await expect(page.getByText("已連結 LINE 帳號")).toBeVisible();
    await logout(page);

    // The ID token LIFF would give this LINE user (ES256, minted by the local provider).
    const minted = await request.post("/__line/dev/liff-id-token", { data: { name } });
    expect(minted.ok()).toBe(true);
    const { idToken } = (await minted.json()) as { idToken: string };
    await page.addInitScript((token) => {
      window.__LIFF_MOCK__ = { getIDToken: token, isLoggedIn: true };
    }, idToken);

    const liffChunks: string[] = [];
    page.on("request", (r) => {
      if (/\/assets\/liff/.test(r.url())) liffChunks.push(r.url());
    });
    await page.goto("/member-login");
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => Boolean(window.__hanLiff))).toBe(true);
    expect(liffChunks.length).toBeGreaterThan(0);
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByTestId("header-member")).toContainText("張書豪");

    // Replaying the same raw token is refused (accepted once).
    await logout(page);
    await page.goto("/member-login");
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => Boolean(window.__hanLiff))).toBe(true);
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await expect(page).toHaveURL(/\/member-login/);
    await expect(page.getByText("會員登入失敗")).toBeVisible();
  });

  test("a LIFF post without an ID token gets lineLiffIdToken 不存在 and creates nothing", async ({ page }) => {
    await page.addInitScript(() => {
      window.__LIFF_MOCK__ = { getIDToken: null, isLoggedIn: true };
    });
    await page.goto("/member-login");
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => Boolean(window.__hanLiff))).toBe(true);
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await expect(page).toHaveURL(/\/member-login$/);
    await expect(page.getByText("lineLiffIdToken 不存在")).toBeVisible();
  });
});

test("visitors outside LINE download no LIFF code", async ({ page }) => {
  const chunks: string[] = [];
  page.on("request", (r) => {
    if (/liff\.client|@line|liff-mock/i.test(r.url())) chunks.push(r.url());
  });
  await page.goto("/member-login");
  await waitForHydration(page);
  await page.goto("/signup/phone-verification");
  await waitForHydration(page);
  expect(chunks).toEqual([]);
});

/** For people to look at (test-results/screenshots/): the LINE pages on a phone and a desktop. */
for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
]) {
  test(`screenshots of the LINE pages at ${viewport.width}x${viewport.height}`, async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const dir = path.resolve(import.meta.dirname, "../test-results/screenshots");
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await page.goto("/member-login");
    await waitForHydration(page);
    await page.screenshot({ path: `${dir}/line-member-login-${viewport.name}.png`, fullPage: true });
    await page.getByRole("button", { name: "LINE 登入" }).click();
    await expect(page).toHaveURL(/\/__line\/oauth2\/v2\.1\/authorize\?/);
    await expectAccessible(page);
    await page.screenshot({ path: `${dir}/line-authorize-${viewport.name}.png`, fullPage: true });
    const { userId } = await createMember(request, {
      phoneNumber: newPhone().e164,
      name: "林小美",
      email: `xiaomei.${viewport.name}.${Date.now()}@example.com`,
    });
    await loginByCookie(request, context, baseURL as string, userId);
    await page.goto("/member-center/linked-logins");
    await waitForHydration(page);
    await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${dir}/line-linked-logins-${viewport.name}.png`, fullPage: true });
  });
}
