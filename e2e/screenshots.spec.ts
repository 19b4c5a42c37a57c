import path from "node:path";
import { expect, gotoAndCheck, pinClock, test } from "./fixtures";

/**
 * Full-page screenshots of the main pages on a phone and a desktop, for people to look at
 * (test-results/screenshots/). Each page is also checked with axe at that size.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
];

const PAGES = [
  { name: "home", path: "/", status: 200, heading: "讓家，回到材質本身" },
  { name: "our-store", path: "/our-store", status: 200, heading: "門市據點" },
  { name: "store-detail", path: "/store-detail/xinyi-flagship", status: 200, heading: "信義旗艦店" },
  { name: "materials", path: "/materials", status: 200, heading: "建材選品" },
  { name: "material-detail", path: "/material-detail/hualien-white-marble", status: 200, heading: "花蓮白 大理石" },
  { name: "member-login", path: "/member-login", status: 200, heading: "會員登入" },
  { name: "test-crud", path: "/test-crud", status: 200, heading: "開發診斷" },
  { name: "not-found", path: "/no/such/page", status: 404, heading: "找不到頁面" },
];

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.width}x${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const p of PAGES) {
      test(`screenshot ${p.name}`, async ({ page }) => {
        // A weekday afternoon in Taipei, so the open/closed badges are the same on every run.
        await pinClock(page, "2026-11-25T15:00:00+08:00");
        await gotoAndCheck(page, p.path, { status: p.status });
        await expect(page.getByRole("heading", { level: 1, name: p.heading })).toBeVisible();
        // The header's navigation fits: phones get the second row, desktops the inline list.
        await expect(page.getByRole("banner").getByRole("link", { name: "建材選品" })).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, "horizontal overflow (px)").toBeLessThanOrEqual(0);
        await page.evaluate(() => document.fonts.ready);
        // Lazy pictures load only when scrolled near (a quick scroll through missed one now and then on a busy
        // machine, and its picture never started): the full-page shot asks for them all at once.
        await page.evaluate(() => {
          for (const img of document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]')) img.loading = "eager";
        });
        await page.waitForFunction(() => [...document.images].every((img) => img.complete));
        await page.screenshot({
          path: path.join(SCREENSHOT_DIR, `${p.name}-${viewport.width}x${viewport.height}.png`),
          fullPage: true,
          animations: "disabled",
        });
      });
    }
  });
}
