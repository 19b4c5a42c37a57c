import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { adjustPoints } from "./support/member-history";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * A spend the member confirms with a code (issue 36, ADR 052), on a phone: the clerk comes from the console's home
 * through its menu to the counter, finds the member by the phone number they say (no card scanned), enters
 * NT$3,280 with 500 points; the counter asks for the member's code, the member's member center shows the store's
 * request with the code; a wrong code is refused beside the field, the right one books, and the receipt shows the
 * points. axe on every step; screenshots at 390×844.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");
const PHONE = { width: 390, height: 844 };

async function shot(page: Page, name: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow of ${name} (px)`).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `checkout-points-code-${name}-phone.png`),
    fullPage: true,
    animations: "disabled",
  });
}

test("a member found by phone confirms a spend of 500 points with the code in their member center", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const base = baseURL ?? "";
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "林佳穎" });
  await adjustPoints(page.request, created.userId, 1000);
  const memberContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: PHONE,
  });
  await loginByCookie(page.request, memberContext, base, created.userId);
  const member = await memberContext.newPage();

  const counterContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: PHONE,
    hasTouch: true,
  });
  await loginStaffByCookie(page.request, counterContext, base, {
    role: "staff",
    storeIds: ["banqiao"],
    displayName: "陳櫃台",
  });
  const counter = await counterContext.newPage();

  // From the console's home, through the menu, to the counter; the member found by the phone number they say.
  await gotoAndCheck(counter, "/admin");
  await counter.locator("summary").filter({ hasText: "選單" }).click();
  await counter.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "櫃檯", exact: true }).click();
  await expect(counter).toHaveURL(/\/admin\/counter$/);
  await waitForHydration(counter);
  await counter.getByLabel("手機號碼或會員編號").fill(phone.e164);
  await counter.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(counter.getByTestId("member-name")).toHaveText("林佳穎");
  await expect(counter).toHaveURL(/\/admin\/counter\/member\/[0-9a-f-]{36}$/);

  await counter.getByRole("link", { name: "登錄消費" }).click();
  await expect(counter.getByRole("heading", { level: 1, name: "登錄消費" })).toBeVisible();
  await waitForHydration(counter);
  await counter.getByLabel("發票或收據號碼").fill("PC-20261206");
  await counter.getByLabel("消費淨額（新台幣元）").fill("3280");
  await counter.getByLabel("點數折抵（點）").fill("500");
  await expect(counter.getByTestId("points-to-pay")).toHaveText("應付金額 NT$ 2,780");
  await expect(counter.getByTestId("spend-code")).toContainText("未掃描會員卡");
  // Booking without the code: refused beside the code field, what was typed kept.
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByText("未掃描會員卡，折抵點數需要會員的確認碼")).toBeVisible();
  await expect(counter.getByLabel("點數折抵（點）")).toHaveValue("500");
  await waitForHydration(counter);
  await counter.getByRole("button", { name: "傳送確認碼給會員" }).click();
  await expect(counter.getByTestId("spend-code-sent")).toContainText("折抵 500 點");
  await shot(counter, "sent");

  // The member's member center: the store's request and the code.
  await gotoAndCheck(member, "/member-center");
  const request = member.getByTestId("spend-code-request");
  await expect(request).toContainText("板橋");
  await expect(request).toContainText("500 點");
  await expect(request).toContainText("NT$ 3,280");
  const code = ((await member.getByTestId("spend-code-value").textContent()) ?? "").trim();
  expect(code).toMatch(/^\d{6}$/);
  await shot(member, "member-center");

  // A wrong code first, then the right one: the receipt shows the points.
  await waitForHydration(counter);
  const wrong = code === "000000" ? "000001" : "000000";
  await counter.getByLabel("會員確認碼（6 位數）").fill(wrong);
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByText("確認碼不正確，請會員再看一次")).toBeVisible();
  await expect(counter.getByLabel("會員確認碼（6 位數）")).toHaveValue(wrong);
  await waitForHydration(counter);
  await counter.getByLabel("會員確認碼（6 位數）").fill(code);
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByTestId("purchase-done")).toBeVisible();
  await expect(counter.getByTestId("points-spent")).toContainText("−500");
  await expect(counter.getByTestId("points-spent")).toContainText("折抵 NT$ 500");
  await expect(counter.getByTestId("amount-paid")).toContainText("2,780");
  await expect(counter.getByTestId("points-earned")).toContainText("+27");
  await shot(counter, "receipt");

  // The code is used: the member center no longer shows the request.
  await gotoAndCheck(member, "/member-center");
  await expect(member.getByTestId("spend-code-request")).toHaveCount(0);
  await memberContext.close();
  await counterContext.close();
});
