import { expect, expectAccessible, gotoAndCheck, test } from "./fixtures";

test.describe("error page", () => {
  test("a server error shows the localized generic error page without a stack trace", async ({ page }) => {
    await gotoAndCheck(page, "/test-crud");
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === "POST" && new URL(r.url()).pathname.startsWith("/test-crud"),
      ),
      page.getByRole("button", { name: "觸發伺服器錯誤" }).click(),
    ]);
    expect(response.status()).toBe(500);

    const error = page.getByTestId("server-error");
    await expect(error).toBeVisible();
    await expect(error.getByRole("heading", { level: 1, name: "系統發生錯誤" })).toBeVisible();
    await expect(error).toContainText("Internal Server Error");
    await expect(page).toHaveTitle("系統發生錯誤｜漢生活");
    // The production build never shows the error's message or stack.
    await expect(page.locator("pre")).toHaveCount(0);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain("deliberate server error");
    expect(text).not.toMatch(/\bat .+:\d+:\d+/);
    expect(text).not.toContain("Error:");
    // Still inside the layout, with a way back.
    await expect(page.getByRole("banner").getByRole("link", { name: "門市據點" })).toBeVisible();
    await expect(error.getByRole("link", { name: "回到首頁" })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("locale", () => {
  test("the footer switch changes the language, survives a reload and switches back", async ({ page }) => {
    const catalogs: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/i18n/")) catalogs.push(new URL(request.url()).pathname);
    });
    await gotoAndCheck(page, "/our-store");
    await page.evaluate(() => {
      (window as { __e2eDocument?: boolean }).__e2eDocument = true;
    });
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-TW");
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("button", { name: "繁體中文" })).toHaveAttribute("aria-pressed", "true");

    await footer.getByRole("button", { name: "English" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    const nav = page.getByRole("banner").getByRole("navigation", { name: "Main navigation" });
    await expect(nav.getByRole("link", { name: "Showrooms" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Materials" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Showrooms" })).toBeVisible();
    await expect(footer.getByRole("button", { name: "English" })).toHaveAttribute("aria-pressed", "true");
    // The visitor stays on the page they were on, in the same document: the English catalog was loaded
    // before the page changed language (the root's clientLoader).
    await expect(page).toHaveURL(/\/our-store$/);
    expect(await page.evaluate(() => (window as { __e2eDocument?: boolean }).__e2eDocument)).toBe(true);
    // Each language's catalogs once: the shell's and the showroom list's own.
    expect(catalogs.sort()).toEqual([
      expect.stringMatching(/^\/i18n\/en\.[^/]+\.json$/),
      expect.stringMatching(/^\/i18n\/en\/catalog\./),
      expect.stringMatching(/^\/i18n\/zh-TW\.[^/]+\.json$/),
      expect.stringMatching(/^\/i18n\/zh-TW\/catalog\./),
    ]);
    await expectAccessible(page);

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(nav.getByRole("link", { name: "Showrooms" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "Showrooms" })).toBeVisible();
    await expectAccessible(page);

    await footer.getByRole("button", { name: "繁體中文" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hant-TW");
    await expect(
      page.getByRole("banner").getByRole("navigation", { name: "主要導覽" }).getByRole("link", { name: "門市據點" }),
    ).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "門市據點" })).toBeVisible();
    await expectAccessible(page);
  });
});

/**
 * Records, from before the first script runs, every time the overlay enters the DOM and when the
 * last click happened (performance.now()), so a flash of even one frame would be seen.
 */
function installOverlayRecorder() {
  const w = window as unknown as { __overlay: { shownAt: number[]; clickAt: number } };
  w.__overlay = { shownAt: [], clickAt: 0 };
  document.addEventListener(
    "click",
    () => {
      w.__overlay.clickAt = performance.now();
    },
    true,
  );
  let present = false;
  new MutationObserver(() => {
    const now = Boolean(document.querySelector('[data-testid="loading-overlay"]'));
    if (now && !present) w.__overlay.shownAt.push(performance.now());
    present = now;
  }).observe(document, { childList: true, subtree: true });
}

type OverlayRecord = { shownAt: number[]; clickAt: number };
const readOverlay = (page: import("@playwright/test").Page) =>
  page.evaluate(() => (window as unknown as { __overlay: OverlayRecord }).__overlay);

test.describe("loading overlay", () => {
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(installOverlayRecorder);
  });

  test("appears after about 300 ms on a slow submission and goes away when it is done", async ({ page }) => {
    await gotoAndCheck(page, "/test-crud");
    const overlay = page.getByRole("status").filter({ hasText: "請稍候..." });
    await expect(overlay).toHaveCount(0);

    await page.getByRole("button", { name: "模擬慢速回應（3 秒）" }).click();
    await expect(overlay).toBeVisible();
    await expectAccessible(page);
    const during = await readOverlay(page);
    expect(during.shownAt).toHaveLength(1);
    const delay = (during.shownAt[0] as number) - during.clickAt;
    expect(delay, "overlay delay after the click (ms)").toBeGreaterThanOrEqual(280);
    expect(delay, "overlay delay after the click (ms)").toBeLessThan(2000);

    await expect(overlay).toBeHidden({ timeout: 15_000 });
    const after = await readOverlay(page);
    expect(after.shownAt).toHaveLength(1);
    await expect(page.getByRole("button", { name: "模擬慢速回應（3 秒）" })).toBeEnabled();
    await expectAccessible(page);
  });

  test("never flashes on a fast navigation", async ({ page }) => {
    // Between pages without database work (the store list now queries the catalogue, and on a busy
    // CI machine that can take longer than the overlay's delay, which is then correct behaviour).
    await gotoAndCheck(page, "/privacy");
    await page.getByRole("contentinfo").getByRole("link", { name: "會員服務條款" }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { level: 1, name: "會員服務條款" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("contentinfo").getByRole("link", { name: "隱私權政策" }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole("heading", { level: 1, name: "隱私權政策" })).toBeVisible();
    await expectAccessible(page);

    const record = await readOverlay(page);
    expect(record.clickAt, "the clicks were recorded").toBeGreaterThan(0);
    expect(record.shownAt, "times the overlay appeared").toEqual([]);
  });
});

test.describe("toast", () => {
  for (const { button, type } of [
    { button: "顯示成功通知", type: "success" },
    { button: "顯示錯誤通知", type: "error" },
  ]) {
    test(`a ${type} toast survives the redirect, once`, async ({ page }) => {
      await gotoAndCheck(page, "/test-crud");
      await page.getByRole("button", { name: button }).click();
      const toast = page.locator("[data-sonner-toast]").filter({ hasText: "這是一則測試通知" });
      await expect(toast).toBeVisible();
      await expect(toast).toHaveAttribute("data-type", type);
      // Let the entry transition finish so axe measures the final colours.
      await expect(toast).toHaveAttribute("data-mounted", "true");
      await toast.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
      await expect(page).toHaveURL(/\/test-crud$/);
      await expectAccessible(page);

      // One read only: opening the page again does not show it again.
      await gotoAndCheck(page, "/test-crud");
      await expect(page.getByRole("heading", { level: 1, name: "開發診斷" })).toBeVisible();
      await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
    });
  }
});
