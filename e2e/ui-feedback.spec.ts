import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, latestSmsCode, loginByCookie, newPhone, STRONG_PASSWORD } from "./support/members";

/** Steps 1 and 2 of the phone sign-up, ending on step 3 (/signup/create-member-info). */
async function reachSignupStep3(page: Page) {
  const phone = newPhone();
  await gotoAndCheck(page, "/signup/phone-verification");
  await page.getByLabel("手機號碼").fill(phone.local);
  await page.getByRole("checkbox").click();
  const send = page.getByRole("button", { name: "取得驗證碼" });
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await send.click();
  const code = await latestSmsCode(page, phone.e164);
  await page.getByLabel("6 位數驗證碼").fill(code);
  await page.getByRole("button", { name: "驗證並繼續" }).click();
  await expect(page).toHaveURL(/\/signup\/password-setting$/);
  await waitForHydration(page);
  await page.getByLabel("新密碼", { exact: true }).fill(STRONG_PASSWORD);
  await page.getByLabel("再次輸入密碼").fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "下一步" }).click();
  await expect(page).toHaveURL(/\/signup\/create-member-info$/);
  await waitForHydration(page);
}

/** Whether two boxes overlap (touching edges do not count). */
function overlaps(
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test.describe("a refused form takes the member to the problem", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("sign-up step 3 moves the focus to the first field in error and announces it", async ({ page }) => {
    await reachSignupStep3(page);
    // The district list already shows the postal code; it is not repeated under the field.
    await page.getByLabel("縣市").selectOption("臺北市");
    await page.getByLabel("鄉鎮市區").selectOption({ label: "106 大安區" });
    await expect(page.getByText("106", { exact: true })).toHaveCount(0);

    // Two errors, far above the button: the name (first) and the tax id.
    await page.getByLabel("統一編號").fill("12345678");
    const submit = page.getByRole("button", { name: "完成註冊" });
    await submit.scrollIntoViewIfNeeded();
    await submit.click();
    const name = page.getByLabel("姓名");
    await expect(name).toBeFocused();
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toBeInViewport();
    const announcer = page.getByTestId("live-announcer");
    await expect(announcer).toHaveText("有 2 個欄位需要修正，請從「姓名」開始");
    await expect(announcer).toHaveAttribute("aria-live", "polite");
    await expectAccessible(page);

    // Fixed the name; the tax id is still wrong: the focus goes there.
    await name.fill("林小美");
    await submit.click();
    const taxId = page.getByLabel("統一編號");
    await expect(taxId).toBeFocused();
    await expect(taxId).toBeInViewport();
    await expect(announcer).toHaveText("請修正「統一編號」欄位");
    // Its error is tied to it, so a screen reader reads it again on focus.
    const describedBy = (await taxId.getAttribute("aria-describedby")) ?? "";
    const errorId = describedBy.split(" ").find((id) => id.endsWith("-error")) ?? "missing";
    await expect(page.locator(`[id="${errorId}"]`)).toHaveText("統一編號格式不正確");
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: "test-results/screenshots/signup-step3-error-phone.png",
      fullPage: true,
      animations: "disabled",
    });
  });
});

test.describe("toasts", () => {
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`never cover the header and its navigation at ${viewport.width}×${viewport.height}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await gotoAndCheck(page, "/test-crud");
      await page.getByRole("button", { name: "顯示成功通知" }).click();
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: "這是一則測試通知" });
      const header = await page.getByRole("banner").boundingBox();
      // Sampled through the whole entrance (every animation frame until it has settled), not only at rest.
      const boxes = await toast.evaluate(
        (element) =>
          new Promise<{ x: number; y: number; width: number; height: number }[]>((resolve) => {
            const seen: { x: number; y: number; width: number; height: number }[] = [];
            const sample = () => {
              const r = element.getBoundingClientRect();
              seen.push({ x: r.x, y: r.y, width: r.width, height: r.height });
              const settled =
                element.getAttribute("data-mounted") === "true" &&
                element.getAnimations().every((a) => a.playState !== "running");
              if (settled && seen.length > 2) resolve(seen);
              else requestAnimationFrame(sample);
            };
            sample();
          }),
      );
      expect(header).not.toBeNull();
      for (const box of boxes) {
        expect(overlaps(header!, box), `toast ${JSON.stringify(box)} over header ${JSON.stringify(header)}`).toBe(
          false,
        );
      }
      const box = boxes.at(-1)!;
      if (viewport.width < 600) expect(box!.y).toBeGreaterThan(viewport.height / 2);
    });
  }
});

test.describe("account pages on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the tab strip scrolls, shows there is more, and keeps the current tab in view; legends sit inside their cards", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    const { userId } = await createMember(request, { phoneNumber: newPhone().e164, name: "王小明" });
    await loginByCookie(request, context, baseURL!, userId);

    await gotoAndCheck(page, "/member-center/edit-info");
    const tabs = page.getByRole("navigation", { name: "帳號設定" });
    await expect(tabs.getByRole("link", { name: "會員資料" })).toBeInViewport({ ratio: 1 });
    // The last tab does not fit: a fade with a chevron says there is more to the right.
    await expect(page.getByTestId("account-tabs-more")).toHaveCSS("opacity", "1");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "the page itself never scrolls sideways").toBeLessThanOrEqual(0);

    // Each section's title is inside its card, not cut into the border.
    for (const title of ["基本資料", "發票資訊（選填）", "地址（選填）", "優惠訊息"]) {
      const legend = page.locator("fieldset > legend", { hasText: title });
      const box = await legend.boundingBox();
      const card = await legend.locator("xpath=..").boundingBox();
      expect(box!.y, title).toBeGreaterThan(card!.y + 8);
    }
    // The selects are drawn like the text fields (the brand's chevron, the same box), not as grey platform controls.
    const city = page.getByRole("combobox", { name: "縣市" });
    const street = page.getByRole("textbox", { name: "街道地址" });
    await expect(city).toHaveCSS("appearance", "none");
    await expect(city).toHaveCSS("background-image", /url\("data:image\/svg\+xml/);
    for (const property of ["border-top-left-radius", "border-top-color", "background-color", "font-size"]) {
      expect(await city.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property), property).toBe(
        await street.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), property),
      );
    }
    // The note on changing the e-mail is the e-mail field's own description.
    await expect(page.getByRole("textbox", { name: "電子郵件" })).toHaveAccessibleDescription(
      /變更電子郵件時，我們會寄驗證碼到新地址/,
    );

    await tabs.getByRole("link", { name: "隱私與資料" }).click();
    await expect(page).toHaveURL(/\/member-center\/privacy$/);
    await expect(tabs.getByRole("link", { name: "隱私與資料" })).toBeInViewport({ ratio: 1 });
    await expect(tabs.getByRole("link", { name: "隱私與資料" })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);
  });
});

test.describe("error pages", () => {
  test("the zh-TW 404 says it in Chinese first, with the English line beside it; English shows English only", async ({
    page,
    context,
    baseURL,
  }) => {
    await gotoAndCheck(page, "/no/such/page", { status: 404 });
    const view = page.getByTestId("not-found");
    await expect(view.getByRole("heading", { level: 1, name: "找不到頁面" })).toBeVisible();
    await expect(view.getByTestId("error-local")).toHaveText("找不到您要的頁面：/no/such/page");
    await expect(view.getByTestId("error-english")).toHaveText("Page not found: /no/such/page");
    await expect(view.getByTestId("error-english")).toHaveAttribute("lang", "en");

    await context.addCookies([{ name: "locale", value: "en", url: baseURL! }]);
    await gotoAndCheck(page, "/no/such/page", { status: 404 });
    await expect(view.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await expect(view.getByTestId("error-local")).toHaveText("Page not found: /no/such/page");
    await expect(view.getByTestId("error-english")).toHaveCount(0);
  });

  test("the zh-TW 500 page adds the Chinese sentence before Internal Server Error", async ({ page }) => {
    await gotoAndCheck(page, "/test-crud");
    await page.getByRole("button", { name: "觸發伺服器錯誤" }).click();
    const view = page.getByTestId("server-error");
    await expect(view.getByTestId("error-local")).toHaveText("伺服器發生錯誤，我們已記錄這個問題。");
    await expect(view.getByTestId("error-english")).toHaveText("Internal Server Error");
    await expectAccessible(page);
  });

  test("a form body that is not a form gets the bad-request view, not the server error", async ({ page }) => {
    await gotoAndCheck(page, "/member-login");
    const response = await page.request.post("/member-login", {
      headers: { "Content-Type": "application/json", Origin: new URL(page.url()).origin },
      data: { phone: "0912345678" },
    });
    expect([400, 415]).toContain(response.status());
    const html = await response.text();
    expect(html).toContain('data-testid="bad-request"');
    expect(html).toContain("無法處理這個請求");
  });
});
