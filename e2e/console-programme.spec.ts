import path from "node:path";
import { photoJpeg } from "../app/domain/images/testing.server";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { adjustPoints, bookHistory } from "./support/member-history";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * Rewards and programme rules in the console (issue 14 items 5 and 6): an admin creates a reward (a refused
 * first try keeps what was typed) and a member redeems it in the member center at once; the admin then
 * changes the silver threshold from a later date and sees the impact preview before saving. axe-core on
 * every page; desktop and tablet screenshots.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

async function shoot(page: import("@playwright/test").Page, name: string) {
  for (const [size, viewport] of [
    ["desktop", { width: 1280, height: 800 }],
    ["tablet", { width: 768, height: 1024 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("an admin creates a reward and a member redeems it; a new silver threshold with its impact preview", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const name = `手工陶杯 ${Date.now() % 100_000}`;
  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "陳經理" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin");
  const nav = page.getByRole("navigation", { name: "後台導覽" });
  await nav.getByRole("link", { name: "兌換商品" }).click();
  await expect(page).toHaveURL(/\/admin\/rewards$/);
  await expectAccessible(page);
  await page.getByRole("link", { name: "新增兌換商品" }).click();
  await expect(page).toHaveURL(/\/admin\/rewards\/new$/);
  await waitForHydration(page);

  // A first try without a name: the error sits beside the field, the rest stays as typed.
  await page.getByLabel("所需點數").fill("120");
  await page.getByLabel("庫存", { exact: true }).fill("3");
  await page.getByLabel("每位會員上限").fill("1");
  await page.getByRole("button", { name: "建立" }).click();
  const nameField = page.getByLabel("名稱");
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  await expect(nameField).toBeFocused();
  await expect(page.getByText("此欄位必填")).toBeVisible();
  await expect(page.getByLabel("所需點數")).toHaveValue("120");
  await expectAccessible(page);
  await shoot(page, "console-reward-new-error");

  await nameField.fill(name);
  await page.getByLabel("類型").selectOption("gift");

  // Its picture, uploaded in the form with its alt texts (the reward keeps a reference to the image).
  const imageField = page.getByTestId("reward-image-field");
  await expect(imageField).toContainText("沒有圖片");
  await imageField.getByTestId("reward-image-open-upload").click();
  const uploader = imageField.getByTestId("image-uploader");
  await uploader
    .getByTestId("image-file")
    .setInputFiles({ name: "cup.jpg", mimeType: "image/jpeg", buffer: await photoJpeg(900, 900) });
  await uploader.getByLabel("替代文字（中文）").fill("手工陶杯的照片");
  await uploader.getByLabel("替代文字（英文，選填）").fill("A handmade cup");
  await uploader.getByRole("button", { name: "上傳", exact: true }).click();
  // The upload answers once every variant is encoded: allow for a busy machine.
  await expect(imageField.getByTestId("reward-image-status")).toContainText("已選擇圖片「手工陶杯的照片」", {
    timeout: 30_000,
  });
  await expect(imageField.getByTestId("reward-image-chosen").locator("img")).toHaveAttribute("alt", "手工陶杯的照片");
  await expectAccessible(page);
  await imageField.screenshot({ path: path.join(SCREENSHOT_DIR, "console-reward-image-desktop.png") });
  await page.getByRole("button", { name: "建立" }).click();
  await expect(page).toHaveURL(/\/admin\/rewards\/[0-9a-f-]{36}\?created=1$/);
  await expect(page.getByText("已建立兌換商品，會員中心已可兌換")).toBeVisible();
  await expect(page.getByTestId("reward-stock")).toHaveText("目前庫存：3");
  await expect(page.getByTestId("reward-image-chosen")).toContainText("手工陶杯的照片");
  await expectAccessible(page);
  await shoot(page, "console-reward-edit");

  // The picture can also come from the media library: removed, then picked again by searching its alt text.
  await waitForHydration(page);
  const editField = page.getByTestId("reward-image-field");
  await editField.getByTestId("reward-image-remove").click();
  await expect(editField.getByTestId("reward-image-status")).toHaveText("已移除圖片，儲存後生效。");
  await expect(editField).toContainText("沒有圖片");
  await editField.getByTestId("reward-image-open-library").click();
  const library = editField.getByTestId("reward-image-library");
  await library.getByRole("searchbox").fill("陶杯");
  await library.getByRole("button", { name: "搜尋" }).click();
  await expect(library.getByTestId("library-image")).toHaveCount(1);
  await expectAccessible(page);
  await library.getByRole("button", { name: "將「手工陶杯的照片」用於此兌換商品" }).click();
  await expect(editField.getByTestId("reward-image-status")).toHaveText("已選擇圖片「手工陶杯的照片」，儲存後生效。");
  await page.getByRole("button", { name: "儲存變更" }).click();
  await expect(page.getByText("已儲存，會員中心已更新")).toBeVisible();
  await expect(page.getByTestId("reward-image-chosen").locator("img")).toHaveAttribute("alt", "手工陶杯的照片");

  // The member sees it at once and redeems it.
  const phone = newPhone();
  const member = await createMember(page.request, { phoneNumber: phone.e164, name: "黃怡君" });
  await adjustPoints(page.request, member.userId, 300);
  // NT$46,000 spent yesterday: basic today, silver under a NT$45,000 threshold.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  await bookHistory(page.request, member.userId, {
    purchases: [{ receiptNumber: `P-${member.memberNumber}`, netAmount: 46_000, at: yesterday }],
  });
  const memberContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    viewport: { width: 390, height: 844 },
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  await loginByCookie(memberContext.request, memberContext, base, member.userId);
  const memberPage = await memberContext.newPage();
  await gotoAndCheck(memberPage, "/member-center");
  // The member center shows the uploaded picture (a responsive <picture>, loaded).
  const card = memberPage.getByTestId("reward").filter({ hasText: name });
  const cardImage = card.getByTestId("reward-image").locator("img");
  await expect(cardImage).toHaveAttribute("alt", "手工陶杯的照片");
  await cardImage.scrollIntoViewIfNeeded();
  await expect
    .poll(() => cardImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await memberPage.getByRole("link", { name: `兌換：${name}` }).click();
  const dialog = memberPage.getByRole("dialog", { name: "確認兌換" });
  await expect(dialog).toContainText(`將使用 120 點兌換「${name}」。`);
  await dialog.getByTestId("confirm-redeem").click();
  await expect(dialog.getByRole("status")).toHaveText("兌換成功！優惠券已放入您的優惠券夾。");
  await memberContext.close();

  // The console shows the redemption in the stock.
  await page.reload();
  await expect(page.getByTestId("reward-stock")).toHaveText("目前庫存：2");
  await expect(page.getByText("已兌換 1（已使用 0），已取消 0，已收回 0")).toBeVisible();
  await page.getByRole("link", { name: "回到兌換商品列表" }).click();
  await page.getByRole("searchbox", { name: "搜尋名稱" }).fill(name);
  await page.getByRole("button", { name: "套用" }).click();
  await expect(page).toHaveURL(/\?q=/);
  await expect(page.getByTestId("reward-row")).toHaveCount(1);
  await expect(page.getByTestId("reward-issued")).toHaveText("1");
  await expectAccessible(page);
  await shoot(page, "console-rewards-list");

  // The silver threshold from a later date, with the impact preview first.
  await nav.getByRole("link", { name: "點數規則" }).click();
  await expect(page).toHaveURL(/\/admin\/rules$/);
  await waitForHydration(page);
  await expectAccessible(page);
  const later = new Date(Date.now() + 30 * 86_400_000).toLocaleDateString("sv-SE", { timeZone: "Asia/Taipei" });
  await page.getByLabel("銀卡門檻（12 個月消費 NT$）").fill("45000");
  await page.getByLabel("生效日").fill(later);
  await page.getByLabel("變更說明").fill("銀卡門檻調降");
  await expect(page.getByRole("button", { name: "儲存新版本" })).toHaveCount(0);
  await page.getByRole("button", { name: "預覽影響" }).click();
  const impact = page.getByTestId("impact");
  await expect(impact).toBeVisible();
  await expect(impact.getByTestId("impact-proposed")).toContainText("一般會員 → 銀卡會員");
  await expect(impact.getByTestId("impact-proposed")).toContainText(/升級 [1-9]\d* 人/);
  await expect(impact.getByTestId("impact-points")).toContainText("目前規則");
  await expect(page.getByLabel("銀卡門檻（12 個月消費 NT$）")).toHaveValue("45000");
  await expectAccessible(page);
  await shoot(page, "console-rules-preview");
  await page.getByRole("button", { name: "儲存新版本" }).click();
  await expect(page).toHaveURL(/\/admin\/rules\?saved=\d+$/);
  await expect(page.getByText(/已儲存版本 #\d+，自 .+ 起生效/)).toBeVisible();
  const scheduled = page.getByTestId("rules-version").filter({ hasText: "已排定" });
  await expect(scheduled).toContainText("45,000");
  await expect(scheduled).toContainText("銀卡門檻調降");
  await expectAccessible(page);
  await shoot(page, "console-rules");

  // Everything is in the audit log.
  await nav.getByRole("link", { name: "稽核紀錄" }).click();
  for (const action of ["rules.scheduled", "reward.created"]) {
    await expect(
      page
        .getByTestId("audit-row")
        .filter({ has: page.locator(`[data-action="${action}"]`) })
        .first(),
    ).toBeVisible();
  }
});
