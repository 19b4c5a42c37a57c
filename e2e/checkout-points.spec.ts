import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { adjustPoints } from "./support/member-history";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * Paying with points at the counter (issue 36 item 1, ADR 040): a clerk of 板橋門市 finds the member by the card
 * (a hand scanner types the card's token into the find field), books NT$3,280 with 500 points, sees both on the
 * receipt; the member sees the spend in the member center; a partial refund at the counter gives back the right
 * share of the points. axe on every page; the purchase form screenshotted on a phone and a laptop.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

async function screenshot(page: Page, name: string) {
  for (const [label, size] of [
    ["phone", { width: 390, height: 844 }],
    ["laptop", { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow of ${name} on a ${label} (px)`).toBeLessThanOrEqual(0);
    await expectAccessible(page);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `checkout-points-${name}-${label}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }
}

test("a member pays NT$3,280 with 500 points at the counter, sees both, and a partial refund returns the points", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const base = baseURL ?? "";
  // The member, with 1,000 points more than the welcome gift.
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "陳雅婷" });
  await adjustPoints(page.request, created.userId, 1000);
  const memberContext = await browser.newContext({ baseURL: base, locale: "zh-TW", timezoneId: "Asia/Taipei" });
  await loginByCookie(page.request, memberContext, base, created.userId);
  const memberPage = await memberContext.newPage();
  await memberPage.goto("/member-center");
  const token = (await memberPage.getByTestId("card-qr").getAttribute("data-token")) ?? "";
  expect(token).toMatch(/^[A-Za-z0-9_-]{27}\.[A-Za-z0-9_-]{22}$/);

  // The clerk's tablet.
  const counterContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: { width: 1280, height: 800 },
  });
  await loginStaffByCookie(page.request, counterContext, base, {
    role: "staff",
    // A store no other journey books at today: the counter journey counts 信義旗艦店's day totals exactly.
    storeIds: ["banqiao"],
    displayName: "林櫃台",
  });
  const counter = await counterContext.newPage();
  await gotoAndCheck(counter, "/admin/counter");
  await counter.getByLabel("手機號碼或會員編號").fill(token);
  await counter.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(counter.getByTestId("member-name")).toHaveText("陳雅婷");
  const balanceBefore = Number(
    ((await counter.getByTestId("member-balance").textContent()) ?? "").replace(/[^\d]/g, ""),
  );
  expect(balanceBefore).toBeGreaterThanOrEqual(1000);

  // The purchase form: the amount, then how many points may pay, the points, what is left to pay.
  await counter.getByRole("link", { name: "登錄消費" }).click();
  await expect(counter.getByRole("heading", { level: 1, name: "登錄消費" })).toBeVisible();
  await waitForHydration(counter);
  await expect(counter.getByText("輸入金額後顯示最多可折抵的點數")).toBeVisible();
  await counter.getByLabel("發票或收據號碼").fill("PT-20261206");
  await counter.getByLabel("消費淨額（新台幣元）").fill("3280");
  await expect(counter.getByText(/最多可折抵 1,?\d{3} 點/)).toBeVisible();
  // Too many, then a fraction: refused beside the field, what was typed kept.
  await counter.getByLabel("點數折抵（點）").fill("2000");
  await expect(counter.getByTestId("points-to-pay")).toContainText("超過最多可折抵");
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByText("折抵點數超過本筆消費可折抵的上限")).toBeVisible();
  await expect(counter.getByLabel("點數折抵（點）")).toHaveValue("2000");
  await expect(counter.getByLabel("消費淨額（新台幣元）")).toHaveValue("3280");
  await waitForHydration(counter);
  await counter.getByLabel("點數折抵（點）").fill("12.5");
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByText("折抵點數須為整數")).toBeVisible();
  await expect(counter.getByLabel("點數折抵（點）")).toHaveValue("12.5");
  await waitForHydration(counter);

  await counter.getByLabel("點數折抵（點）").fill("500");
  await expect(counter.getByTestId("points-to-pay")).toHaveText("應付金額 NT$ 2,780");
  // Only the NT$2,780 paid in money earns points: 27 at the basic tier.
  await expect(counter.getByTestId("points-preview")).toHaveText("預計累積 27 點");
  await screenshot(counter, "purchase");
  await counter.setViewportSize({ width: 1280, height: 800 });
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByTestId("purchase-done")).toBeVisible();
  await expect(counter.getByTestId("points-spent")).toContainText("−500");
  await expect(counter.getByTestId("points-spent")).toContainText("折抵 NT$ 500");
  await expect(counter.getByTestId("amount-paid")).toContainText("2,780");
  await expect(counter.getByTestId("points-earned")).toContainText("+27");
  const afterPurchase = balanceBefore - 500 + 27;
  await expect(counter.getByTestId("new-balance")).toContainText(afterPurchase.toLocaleString("en-US"));
  await expectAccessible(counter);
  await screenshot(counter, "receipt");

  // The member center: the spend on the purchase, and the points earned.
  await memberPage.goto("/member-center/points");
  const history = memberPage.getByTestId("history");
  await expect(history.getByRole("row", { name: /消費折抵/ })).toContainText("−500");
  await expect(history.getByRole("row", { name: /消費折抵/ })).toContainText("點數折抵 NT$ 500");
  await expect(history.getByRole("row", { name: /消費折抵/ })).toContainText("PT-20261206");
  await expect(history.getByRole("row", { name: /消費累點/ }).filter({ hasText: "+27" })).toHaveCount(1);
  await expectAccessible(memberPage);

  // A partial refund at the counter: half of NT$3,280 gives back 250 of the 500 points and takes back 13 of 27.
  await counter.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(counter, "/admin/counter/refund");
  await counter.getByLabel("發票或收據號碼").fill("PT-20261206");
  await counter.getByRole("button", { name: "查詢" }).click();
  await expect(counter.getByTestId("refund-purchase")).toContainText("點數折抵");
  await counter.getByLabel("退貨金額（新台幣元）").fill("1640");
  await counter.getByRole("button", { name: "預覽退點" }).click();
  await expect(counter.getByTestId("reversal")).toHaveText("將扣回 13 點");
  await expect(counter.getByTestId("points-return")).toHaveText("將退回折抵的 250 點");
  await expectAccessible(counter);
  await counter.getByRole("button", { name: "確認退貨 NT$ 1,640" }).click();
  await expect(counter.getByTestId("refund-done")).toBeVisible();
  await expect(counter.getByTestId("points-returned")).toContainText("+250");
  await expect(counter.getByTestId("refund-balance")).toContainText((afterPurchase + 250 - 13).toLocaleString("en-US"));
  await expectAccessible(counter);

  await memberPage.goto("/member-center/points");
  await expect(memberPage.getByTestId("history").getByRole("row", { name: /退貨退回折抵點數/ })).toContainText("+250");
  await expectAccessible(memberPage);
  await memberContext.close();
  await counterContext.close();
});
