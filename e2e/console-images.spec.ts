import path from "node:path";
import { blankPng, photoJpeg } from "../app/domain/images/testing.server";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { loginStaffByCookie } from "./support/staff";

/**
 * The media library (issue 14 item 3, ADR 028) the way an admin uses it: through the console navigation, pick a
 * photo (setInputFiles, as the file picker or the camera gives it), see its preview, write the alt texts, upload,
 * and find it in the library, served as AVIF/WebP/JPEG; a file that is not a usable picture gets its message
 * beside the file field. axe-core on every state.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

test("an admin uploads a phone photo with alt texts and finds it in the library", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const altZh = `大理石展示牆 ${Date.now()}`;
  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "圖片庫" }).click();
  await expect(page).toHaveURL(/\/admin\/images$/);
  await waitForHydration(page);
  const uploader = page.getByTestId("image-uploader");
  await expect(uploader).toBeVisible();
  await expectAccessible(page);

  // Not a picture: the message is beside the file field, the alt text typed is kept.
  await page.getByLabel("替代文字（中文）").fill(altZh);
  await page.getByTestId("image-file").setInputFiles({
    name: "photo.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("%PDF-1.7\n%%EOF\n"),
  });
  await page.getByTestId("image-upload").click();
  await expect(uploader.getByText("這不是圖片檔案（僅接受 JPEG、PNG、WebP 或 HEIC）")).toBeVisible();
  await expect(page.getByTestId("image-file")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("替代文字（中文）")).toHaveValue(altZh);
  await expectAccessible(page);

  // Too many pixels.
  await page.getByTestId("image-file").setInputFiles({
    name: "huge.png",
    mimeType: "image/png",
    buffer: blankPng(30_000, 30_000),
  });
  await page.getByTestId("image-upload").click();
  await expect(uploader.getByText("圖片像素過多（上限 5,000 萬像素），請縮小後再上傳")).toBeVisible();

  // A real photo: preview first (a blob: URL the CSP allows), then the upload.
  await page.getByTestId("image-file").setInputFiles({
    name: "IMG_0001.jpg",
    mimeType: "image/jpeg",
    buffer: await photoJpeg(1600, 1200),
  });
  const preview = page.getByTestId("image-preview");
  await expect(preview).toBeVisible();
  await expect(preview).toHaveAttribute("src", /^blob:/);
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.getByLabel("替代文字（英文，選填）").fill("Marble display wall");
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-images-upload.png"), fullPage: true });
  await page.getByTestId("image-upload").click();
  // Processing a photo takes a moment (more on a busy machine).
  await expect(page.getByTestId("image-uploaded")).toContainText(altZh, { timeout: 60_000 });

  const card = page.getByTestId("image").filter({ hasText: altZh });
  await expect(card).toBeVisible();
  await expect(card.getByText("Marble display wall")).toBeVisible();
  const img = card.locator("img");
  await expect(img).toHaveAttribute("loading", "lazy");
  await expect(img).toHaveAttribute("width", "1600");
  await expect(img).toHaveAttribute("height", "1200");
  await expect(card.locator('source[type="image/avif"]')).toHaveAttribute(
    "srcset",
    /\/media\/[0-9a-f]{32}\/480\.avif 480w/,
  );
  await expect
    .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 15_000 })
    .toBeGreaterThan(0);
  expect(await img.evaluate((el: HTMLImageElement) => el.currentSrc)).toMatch(/\/media\/[0-9a-f]{32}\/\d+\.avif$/);
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-images-desktop.png"), fullPage: true });

  // Search by the English alt text.
  await page.getByRole("searchbox", { name: "搜尋替代文字" }).fill("Marble display");
  await page.getByRole("button", { name: "搜尋", exact: true }).click();
  await expect(page).toHaveURL(/q=Marble/);
  await expect(page.getByTestId("image").filter({ hasText: altZh })).toBeVisible();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-images-phone.png"), fullPage: true });
  await expectAccessible(page);
});
