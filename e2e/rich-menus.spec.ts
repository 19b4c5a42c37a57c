import type { Page } from "@playwright/test";
import { pngOf } from "../app/domain/line/rich-menu-testing";
import { testUserId } from "../server/line/local-provider";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { DESKTOP, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * The LINE rich menus by member state (issue 38 part 3, ADR 049): an admin publishes the "not linked" and the member
 * menus; a member links LINE and the local LINE fake shows the member menu linked to their LINE user.
 */
const png = (width: number, height: number) => Buffer.from(pngOf(width, height));

async function fillMenu(page: Page, title: string, chatBarText: string) {
  await page.getByLabel("選單名稱（僅後台可見）").fill(title);
  await page.getByLabel("選單列文字").fill(chatBarText);
  const rows = page.getByTestId("rich-menu-area");
  await rows.nth(0).getByLabel("區域 1 X").fill("0");
  await rows.nth(0).getByLabel("區域 1 Y").fill("0");
  await rows.nth(0).getByLabel("區域 1 寬").fill("1250");
  await rows.nth(0).getByLabel("區域 1 高").fill("843");
  await rows.nth(0).getByLabel("點擊後").selectOption("card");
  await rows.nth(1).getByLabel("區域 2 X").fill("1250");
  await rows.nth(1).getByLabel("區域 2 Y").fill("0");
  await rows.nth(1).getByLabel("區域 2 寬").fill("1250");
  await rows.nth(1).getByLabel("區域 2 高").fill("843");
  await rows.nth(1).getByLabel("點擊後").selectOption("uri");
  await rows.nth(1).getByLabel("網址或文字").fill("https://han-living.example/our-store");
}

test("an admin sets the not-linked and member rich menus; linking LINE gives the member's LINE user the member menu", async ({
  page,
  baseURL,
  context,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? "";
  await loginStaffByCookie(page.request, context, base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize(DESKTOP);
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "LINE 圖文選單" }).click();
  await expect(page).toHaveURL(/\/admin\/rich-menus$/);
  await waitForHydration(page);
  await expectAccessible(page);
  await screenshotSizes(page, "console-rich-menus");

  // The not-linked menu: first with an image of the wrong shape and a chat bar text too long — told beside the
  // fields, what was typed kept.
  await page.getByRole("link", { name: "設定「未綁定會員」的選單" }).click();
  await expect(page).toHaveURL(/\/admin\/rich-menus\/unlinked$/);
  await waitForHydration(page);
  await fillMenu(page, "歡迎加入會員", "加入會員享好禮喔");
  await page.getByLabel("選單列文字").fill("一二三四五六七八九十一二三四五");
  await page.getByLabel("選單圖片").setInputFiles({ name: "menu.png", mimeType: "image/png", buffer: png(2500, 2500) });
  await page.getByTestId("rich-menu-publish").click();
  await expect(page.getByText("圖片的寬高比（寬 ÷ 高）至少要 1.45")).toBeVisible();
  await expect(page.getByText("最多 14 個字", { exact: true })).toBeVisible();
  await expect(page.getByLabel("選單名稱（僅後台可見）")).toHaveValue("歡迎加入會員");
  await expect(page.getByTestId("rich-menu-area").nth(1).getByLabel("網址或文字")).toHaveValue(
    "https://han-living.example/our-store",
  );
  await screenshotSizes(page, "console-rich-menu-errors");

  await page.getByLabel("選單列文字").fill("加入會員");
  await page.getByLabel("選單圖片").setInputFiles({ name: "menu.png", mimeType: "image/png", buffer: png(2500, 843) });
  await page.getByTestId("rich-menu-publish").click();
  await expect(page).toHaveURL(/\/admin\/rich-menus\?published=unlinked$/);
  await expect(page.getByText("已發布「未綁定會員」的圖文選單")).toBeVisible();

  // The member menu.
  await page.getByRole("link", { name: "設定「會員（預設）」的選單" }).click();
  await waitForHydration(page);
  await fillMenu(page, "會員選單", "會員專區");
  await page.getByLabel("選單圖片").setInputFiles({ name: "menu.png", mimeType: "image/png", buffer: png(2500, 843) });
  await page.getByTestId("rich-menu-publish").click();
  await expect(page).toHaveURL(/\/admin\/rich-menus\?published=member$/);
  await expect(page.getByTestId("rich-menu-row").filter({ hasText: "會員（預設）" })).toContainText("會員選單");
  await expectAccessible(page);
  await page.getByRole("link", { name: "編輯「會員（預設）」的選單" }).click();
  await waitForHydration(page);
  await screenshotSizes(page, "console-rich-menu-editor");

  // A member links LINE: the fake shows the member menu linked to their LINE user.
  const name = `richmenu-${process.pid}-${Date.now().toString(36)}`;
  const lineUserId = testUserId(name);
  const member = await context.browser()?.newContext({ baseURL: base });
  if (!member) throw new Error("no browser");
  const memberPage = await member.newPage();
  const { userId } = await createMember(memberPage.request, { phoneNumber: newPhone().e164, name: "陳美玲" });
  await loginByCookie(memberPage.request, member, base, userId);
  const before = await (await memberPage.request.get(`/__line/messaging/richmenu/users/${lineUserId}`)).json();
  expect(before).toMatchObject({ linked: null, name: "歡迎加入會員" });
  await gotoAndCheck(memberPage, "/member-center/linked-logins");
  await waitForHydration(memberPage);
  await memberPage.getByRole("button", { name: "連結 LINE" }).click();
  await expect(memberPage).toHaveURL(/\/__line\/oauth2\/v2\.1\/authorize\?/);
  await memberPage.getByRole("radio", { name: "其他測試使用者" }).check();
  await memberPage.getByLabel("其他測試使用者的名稱").fill(name);
  await memberPage.getByRole("button", { name: "同意並登入" }).click();
  await expect(memberPage.getByText("已連結 LINE 帳號")).toBeVisible();
  await expect
    .poll(
      async () => (await (await memberPage.request.get(`/__line/messaging/richmenu/users/${lineUserId}`)).json()).name,
      {
        timeout: 30_000,
      },
    )
    .toBe("會員選單");
  await member.close();
});
