import type { Browser, Page } from "@playwright/test";
import { expect, gotoAndCheck, waitForHydration } from "../fixtures";
import { loginStaffByCookie } from "./staff";

/**
 * A clerk of 板橋門市 (a store no other journey books at today: the counter journey counts 信義旗艦店's day exactly)
 * in a desktop browser of their own: finds the member by phone at the counter and opens 登錄消費, left on the
 * purchase form (receipt and amount to fill).
 */
export async function openCounterPurchase(
  browser: Browser,
  page: Page,
  base: string,
  member: { phoneLocal: string; name: string },
  clerkName: string,
): Promise<Page> {
  const counterContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: { width: 1280, height: 800 },
  });
  await loginStaffByCookie(page.request, counterContext, base, {
    role: "staff",
    storeIds: ["banqiao"],
    displayName: clerkName,
  });
  const counter = await counterContext.newPage();
  await gotoAndCheck(counter, "/admin/counter");
  await counter.getByLabel("手機號碼或會員編號").fill(member.phoneLocal);
  await counter.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(counter.getByTestId("member-name")).toHaveText(member.name);
  await counter.getByRole("link", { name: "登錄消費" }).click();
  await waitForHydration(counter);
  return counter;
}
