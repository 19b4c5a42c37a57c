import path from "node:path";
import sharp from "sharp";
import { exifHasGps, photoJpeg } from "../app/domain/images/testing.server";
import { expect, expectAccessible, gotoAndCheck, pinClock, test, waitForHydration } from "./fixtures";
import { loginStaffByCookie } from "./support/staff";

/**
 * Stores in the console (issue 14 items 1 and 4; ADR 027), the Done-when journey: an admin creates a store with
 * weekly hours and a holiday, saves, previews the draft as the public page renders it, publishes it in one
 * action, and the public pages show it closed on the holiday and open the next morning, at a pinned Taipei time.
 * A phone photo carrying its GPS position is uploaded in the editor's Photos section: the served variants have no
 * EXIF, and the preview, the store page and the /our-store card show it as a responsive picture (srcset, sizes,
 * width and height). A manager cannot open another store's editor. Every write is in the audit log; axe-core on
 * each page.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");
/** A Wednesday late morning in Taipei; the holiday is that day. */
const HOLIDAY_NOW = "2027-03-10T11:00:00+08:00";
const NEXT_MORNING = "2027-03-11T11:00:00+08:00";

test("an admin creates a store with hours and a holiday, previews and publishes it; the public pages say open or closed at a pinned time", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = baseURL ?? "";
  const id = `e2e-${Date.now().toString(36)}`;
  const nameZh = `測試門市 ${id.slice(-4)}`;
  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await pinClock(page, HOLIDAY_NOW);
  await page.setViewportSize({ width: 1280, height: 800 });

  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "門市" }).click();
  await expect(page).toHaveURL(/\/admin\/stores$/);
  await expect(page.getByTestId("store-row").first()).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-stores-list-desktop.png"), fullPage: true });

  await page.getByRole("link", { name: "新增門市" }).click();
  await expect(page).toHaveURL(/\/admin\/stores\/new$/);
  await waitForHydration(page);
  await page.getByLabel("門市代號").fill(id);
  await page.getByLabel("名稱（中文）").fill(nameZh);
  await page.getByLabel("名稱（英文）").fill(`Test showroom ${id.slice(-4)}`);
  await page.getByLabel("介紹（中文）").fill("週三遇假日公休的測試門市。");
  await page.getByLabel("介紹（英文）").fill("A showroom for the browser test.");
  await page.getByLabel("縣市與行政區").selectOption("110");
  await page.getByLabel("街道地址（中文）").fill("松仁路 1 號");
  await page.getByLabel("街道地址（英文）").fill("No. 1, Songren Rd.");
  await page.getByLabel("緯度").fill("25.0330");
  await page.getByLabel("經度").fill("121.5654");
  await page.getByLabel("電話").fill("02-2723-0199");
  await page.getByLabel("電子郵件").fill("e2e-store@han-living.example");
  await page.getByLabel("星期日").fill("");
  await page.getByLabel("星期三").fill("10:30–13:00, 14:00–21:00");
  const holiday = page.getByTestId("exception-row").first();
  await holiday.getByLabel("日期").fill("2027-03-10");
  await holiday.getByLabel("說明（中文）").fill("盤點公休");
  await holiday.getByLabel("說明（英文）").fill("Closed for stock-taking");
  await page.getByLabel("停車場").check();
  await expectAccessible(page);
  await page.getByRole("button", { name: "建立門市" }).click();

  await expect(page).toHaveURL(new RegExp(`/admin/stores/${id}\\?done=created$`));
  await expect(page.getByText("門市已建立（未發布）。")).toBeVisible();
  await expect(page.getByTestId("store-published")).toHaveText("未發布（網站上看不到）");
  // The calendar computes the holiday and the closed Sunday as the site will.
  const calendar = page.getByTestId("store-calendar");
  await expect(calendar.locator('td[data-date="2027-03-10"]')).toHaveAttribute("data-open", "false");
  await expect(calendar.locator('td[data-date="2027-03-10"]')).toContainText("盤點公休");
  await expect(calendar.locator('td[data-date="2027-03-11"]')).toHaveAttribute("data-open", "true");
  await expect(calendar.locator('td[data-date="2027-03-14"]')).toHaveAttribute("data-open", "false");
  await expect(calendar.locator('td[data-date="2027-03-17"]')).toContainText("10:30–13:00, 14:00–21:00");
  await expectAccessible(page);

  // An edit saved as a draft; a bad range is refused beside its field first, the value kept.
  await waitForHydration(page);
  await page.getByLabel("星期四").fill("21:00–10:00");
  await page.getByRole("button", { name: "儲存草稿" }).click();
  await expect(page.getByText("10:00 不晚於 21:00")).toBeVisible();
  await expect(page.getByLabel("星期四")).toHaveValue("21:00–10:00");
  await expect(page.getByLabel("星期四")).toBeFocused();
  await expectAccessible(page);
  await page.getByLabel("星期四").fill("10:00–20:00");
  await page.getByRole("button", { name: "儲存草稿" }).click();
  await expect(page.getByText("草稿已儲存，尚未發布。")).toBeVisible();
  await expect(page.getByTestId("store-draft")).toContainText("王總監");
  for (const [name, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["tablet", { width: 768, height: 1024 }],
  ] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `console-store-edit-${name}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  // A photo from a phone (with the GPS position in its EXIF), uploaded in the Photos section with its alt texts.
  const photo = await photoJpeg(1800, 1350);
  expect(exifHasGps((await sharp(photo).metadata()).exif)).toBe(true);
  const photosSection = page.locator("section", { has: page.getByRole("heading", { name: "照片", exact: true }) });
  await page.getByTestId("store-photos-open-upload").click();
  const uploader = photosSection.getByTestId("image-uploader");
  await uploader
    .getByTestId("image-file")
    .setInputFiles({ name: "IMG_0412.jpg", mimeType: "image/jpeg", buffer: photo });
  await uploader.getByLabel("替代文字（中文）").fill(`${nameZh}的石材展示牆`);
  await uploader.getByLabel("替代文字（英文，選填）").fill("The stone display wall");
  await uploader.getByRole("button", { name: "上傳", exact: true }).click();
  const listed = photosSection.getByTestId("store-photo");
  // The upload answers once every variant (AVIF, WebP, JPEG) is encoded: over 10 s on a busy 2-core machine.
  await expect(listed).toHaveCount(1, { timeout: 30_000 });
  await expect(photosSection.getByTestId("store-photos-status")).toContainText("已加入");
  const imageId = ((await listed.first().getAttribute("data-token")) ?? "").replace(/^image:/, "");
  expect(imageId).toMatch(/^[0-9a-f-]{36}$/);
  await expectAccessible(page);
  await photosSection.scrollIntoViewIfNeeded();
  await photosSection.screenshot({ path: path.join(SCREENSHOT_DIR, "console-store-photos-desktop.png") });
  // (The draft line already names 王總監 from the first save: wait for this save's answer itself.)
  const saved = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.url().includes(`/admin/stores/${id}`),
  );
  await page.getByRole("button", { name: "儲存草稿" }).click();
  expect((await saved).status()).toBeLessThan(400);
  await expect(page.getByText("草稿已儲存，尚未發布。")).toBeVisible();
  // Saved into the draft: the page reloaded from the server still lists it.
  await page.reload();
  await expect(page.getByTestId("store-photo")).toHaveCount(1);
  await expect(page.getByTestId("store-photo").first()).toHaveAttribute("data-token", `image:${imageId}`);

  // What is served has no EXIF (no GPS): every format, read back with sharp.
  const thumb = page.getByTestId("store-photo").first().locator("picture");
  const hash = /\/media\/([0-9a-f]{32})\//.exec((await thumb.locator("img").getAttribute("src")) ?? "")?.[1];
  expect(hash).toBeTruthy();
  for (const file of ["960.jpg", "960.webp", "1600.avif"]) {
    const served = await page.request.get(`/media/${hash}/${file}`);
    expect(served.status()).toBe(200);
    const bytes = await served.body();
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(exifHasGps(meta.exif)).toBe(false);
    expect(bytes.includes(Buffer.from("TestPhone"))).toBe(false);
  }

  /** The uploaded photo as a responsive picture: AVIF/WebP sources, srcset, sizes, width/height, loaded. */
  const expectResponsivePhoto = async (scope: ReturnType<typeof page.locator>, loading: "lazy" | "eager") => {
    const picture = scope.locator(`picture:has(img[src*="/media/${hash}/"])`).first();
    await expect(picture.locator('source[type="image/avif"]')).toHaveAttribute("srcset", /480w.*960w.*1600w/);
    const img = picture.locator("img");
    await expect(img).toHaveAttribute("srcset", new RegExp(`/media/${hash}/960\\.jpg 960w`));
    await expect(img).toHaveAttribute("sizes", /.+/);
    await expect(img).toHaveAttribute("width", "1800");
    await expect(img).toHaveAttribute("height", "1350");
    await expect(img).toHaveAttribute("loading", loading);
    await expect(img).toHaveAttribute("alt", `${nameZh}的石材展示牆`);
    await img.scrollIntoViewIfNeeded();
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
  };

  // The preview is the public page with the draft: closed today for the holiday.
  await page.getByTestId("store-preview").click();
  await expect(page).toHaveURL(new RegExp(`/admin/stores/${id}/preview$`));
  await expect(page.getByTestId("preview-banner")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: nameZh })).toBeVisible();
  await expect(page.getByTestId("open-status").locator("[data-open]")).toHaveAttribute("data-open", "false");
  await expect(page.getByTestId("week-hours")).toContainText("盤點公休");
  await expect(page.getByTestId("week-hours")).toContainText("10:00–20:00");
  await expectResponsivePhoto(page.getByTestId("store-gallery"), "eager");
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-store-preview-desktop.png"), fullPage: true });

  // Publishing is one action, from the preview.
  await page.getByTestId("preview-banner").getByRole("button", { name: "發布" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/stores/${id}\\?done=published$`));
  await expect(page.getByText("已發布，網站將在數秒內更新。")).toBeVisible();
  await expect(page.getByTestId("store-published")).toHaveText("已發布");
  await expect(page.getByTestId("store-history")).toContainText("第 1 版");

  // The public pages at the pinned time: closed on the holiday…
  await gotoAndCheck(page, `/store-detail/${id}`);
  await expect(page.getByRole("heading", { level: 1, name: nameZh })).toBeVisible();
  await expect(page.getByTestId("open-status").locator("[data-open]")).toHaveAttribute("data-open", "false");
  await expectResponsivePhoto(page.getByTestId("store-gallery"), "eager");
  await expectAccessible(page);
  await gotoAndCheck(page, `/our-store?q=${encodeURIComponent(nameZh)}`);
  await expect(page.getByTestId("store-count")).toContainText("1");
  await expectResponsivePhoto(page.getByTestId("store-card"), "eager");
  await expectAccessible(page);
  await expect(page.getByTestId("open-status").locator("[data-open]")).toHaveAttribute("data-open", "false");
  // …and open the next morning.
  await pinClock(page, NEXT_MORNING);
  await gotoAndCheck(page, `/our-store?q=${encodeURIComponent(nameZh)}`);
  await expect(page.getByTestId("open-status").locator("[data-open]")).toHaveAttribute("data-open", "true");
  await gotoAndCheck(page, `/store-detail/${id}`);
  await expect(page.getByTestId("open-status").locator("[data-open]")).toHaveAttribute("data-open", "true");
  await expect(page.getByTestId("open-status")).toContainText("營業至 20:00");

  // The photo is in use by a published store: the media library refuses to delete it.
  const refused = await page.request.post("/admin/images", {
    form: { intent: "delete", id: imageId },
    headers: { origin: base },
  });
  expect(refused.status()).toBe(409);

  // Everything is in the audit log.
  await gotoAndCheck(page, `/admin/audit?targetId=${id}`);
  for (const action of ["store.created", "store.draft_saved", "store.published"]) {
    await expect(
      page
        .getByTestId("audit-row")
        .filter({ has: page.locator(`[data-action="${action}"]`) })
        .first(),
    ).toBeVisible();
  }

  // A manager of another store cannot open this one, nor banqiao; their own store opens.
  const managerContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  await loginStaffByCookie(managerContext.request, managerContext, base, {
    role: "manager",
    storeIds: ["xinyi-flagship"],
  });
  const managerPage = await managerContext.newPage();
  await gotoAndCheck(managerPage, `/admin/stores/${id}`, { status: 403 });
  await expect(managerPage.getByRole("heading", { name: "沒有權限" })).toBeVisible();
  await gotoAndCheck(managerPage, "/admin/stores/banqiao", { status: 403 });
  await gotoAndCheck(managerPage, "/admin/stores");
  await expect(managerPage.getByTestId("store-row")).toHaveCount(1);
  await managerPage.getByRole("link", { name: /信義/ }).click();
  await expect(managerPage).toHaveURL(/\/admin\/stores\/xinyi-flagship$/);
  await expectAccessible(managerPage);
  await managerContext.close();

  // The admin takes the store off the site again: its page is gone at once on this instance. (This also
  // leaves the worker's catalogue as the other journeys expect it: the demo showrooms only.)
  await gotoAndCheck(page, `/admin/stores/${id}`);
  await page.getByRole("button", { name: "停止發布" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/stores/${id}\\?done=unpublished$`));
  await expect(page.getByTestId("store-published")).toHaveText("未發布（網站上看不到）");
  await gotoAndCheck(page, `/store-detail/${id}`, { status: 404 });
  await gotoAndCheck(page, "/our-store");
  await expect(page.getByTestId("store-card").filter({ hasText: nameZh })).toHaveCount(0);
});
