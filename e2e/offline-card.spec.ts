import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The offline member card (issue 36 item 4, ADR 043), the "done when": the member opens the card online
 * (the phone gets its own secret, the service worker keeps the page), goes offline and reloads: the card opens and
 * shows a code computed on the phone; a clerk at the counter (another browser) accepts it; the member removes the
 * device in security, and a fresh code from that phone is refused. axe on the card; screenshots at 390×844.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

/** The QR's text: the card also writes it out for screen readers and keeps it on the QR (data-code). */
async function qrText(page: Page): Promise<string> {
  const qr = page.locator("#card-qr");
  await expect(qr).toBeVisible();
  await expect(qr.locator("svg path")).toHaveCount(1);
  const text = (await qr.getAttribute("data-code")) ?? "";
  expect(text).toMatch(/^HLD1\.[A-Za-z0-9_-]{22}\.\d+\.\d{8}$/);
  await expect(page.locator("#card-code-text")).toHaveText(text);
  return text;
}

/** Waits for the next 30-second step, so the phone draws a code the counter has not seen. */
async function nextCode(page: Page, previous: string): Promise<string> {
  await expect(page.locator("#card-qr")).not.toHaveAttribute("data-code", previous, { timeout: 35_000 });
  return qrText(page);
}

test("the member card opens offline, the counter accepts its code, and refuses it after the device is removed", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const phone = newPhone();
  const created = await createMember((await browser.newContext({ baseURL })).request, {
    phoneNumber: phone.e164,
    name: "林離線",
  });

  // The member's phone.
  const phoneContext = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true });
  await loginByCookie(phoneContext.request, phoneContext, baseURL!, created.userId);
  const card = await phoneContext.newPage();
  await card.goto("/member-center");
  await card.getByTestId("card-offline-link").click();
  await expect(card).toHaveURL(/\/member-center\/card$/);
  const online = await qrText(card);
  await expect(card.getByText(/餘額更新於 \d{4}/)).toBeVisible();
  // The page installs: a manifest, and a service worker that controls the page once it is ready.
  await expect(card.locator('link[rel="manifest"]')).toHaveAttribute(
    "href",
    "/member-center/card/manifest.webmanifest",
  );
  await card.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await card.reload();
  await expect.poll(() => card.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  await qrText(card);

  // No network: the card still opens from the worker's cache and draws a code on the phone.
  await phoneContext.setOffline(true);
  await card.reload();
  await expect(card.getByText("目前離線：條碼仍可使用，餘額可能不是最新。")).toBeVisible();
  const offline = await qrText(card);
  expect(offline.split(".").slice(0, 2)).toEqual(online.split(".").slice(0, 2));
  await expect(card.getByText(/餘額更新於 \d{4}/)).toBeVisible();
  // The rest of the site is not kept: the member center itself does not open offline.
  const centre = await phoneContext.newPage();
  await expect(centre.goto("/member-center")).rejects.toThrow();
  await centre.close();
  await expectAccessible(card);
  await card.screenshot({ path: path.join(SCREENSHOT_DIR, "offline-card-phone.png"), fullPage: true });
  await card.setViewportSize({ width: 1280, height: 800 });
  await expect.poll(() => card.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
  await card.screenshot({ path: path.join(SCREENSHOT_DIR, "offline-card-desktop.png"), fullPage: true });
  await card.setViewportSize({ width: 390, height: 844 });

  // The clerk's tablet: the counter takes the code as a handheld scanner types it.
  const counterContext = await browser.newContext({ baseURL });
  await loginStaffByCookie(counterContext.request, counterContext, baseURL!, {
    role: "staff",
    storeIds: ["xinyi-flagship"],
    displayName: "陳店員",
  });
  const counter = await counterContext.newPage();
  await counter.goto("/admin/counter");
  const findByCode = async (code: string) => {
    await counter.goto("/admin/counter");
    await counter.getByLabel("手機號碼或會員編號").fill(code);
    await counter.getByRole("button", { name: "查詢", exact: true }).click();
  };
  await findByCode(offline);
  // A scanned card carries the scan pass (ADR 052: points without a code; ADR 051: the walk-in sample loan).
  await expect(counter).toHaveURL(/\/admin\/counter\/member\/[0-9a-f-]{36}\?scan=[^&]+$/);
  await expect(counter.getByTestId("member-number")).toHaveText(created.memberNumber);
  // The same code again (a screenshot shown twice): refused.
  await findByCode(offline);
  await expect(counter.getByText("此條碼已使用過，請會員出示下一個條碼")).toBeVisible();

  // Back online, the member removes this phone in security.
  await phoneContext.setOffline(false);
  const security = await phoneContext.newPage();
  await security.goto("/member-center/security");
  const list = security.getByTestId("card-device-list");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await list.scrollIntoViewIfNeeded();
  await security.screenshot({ path: path.join(SCREENSHOT_DIR, "offline-card-security-phone.png"), fullPage: true });
  await list.getByRole("button", { name: /^移除 .* 的離線會員卡$/ }).click();
  await expect(security.getByText("尚未在任何手機開啟離線會員卡。")).toBeVisible();
  await expectAccessible(security);
  await security.close();

  // The phone, offline again, still draws codes from its old secret: the counter refuses them.
  await phoneContext.setOffline(true);
  const refused = await nextCode(card, offline);
  await findByCode(refused);
  await expect(counter.getByText("此手機的會員卡已移除，請會員連線後重新開啟會員卡")).toBeVisible();
  await expectAccessible(counter);

  await counterContext.close();
  await phoneContext.close();
});

test("the card page without a session goes to the login page", async ({ page }) => {
  await page.goto("/member-center/card");
  await expect(page).toHaveURL(/\/member-login/);
});
