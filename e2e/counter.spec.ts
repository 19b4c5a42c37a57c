import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium, type Page } from "@playwright/test";
import { encode } from "uqr";
import config from "../playwright.config";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { acceptAndEnrol, inviteThroughConsole } from "./support/console";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { PHONE, screenshotSizes, TABLET } from "./support/screenshots";

/**
 * The counter (issue 13 item 5, ADR 022), the "done when" journey: an admin invites a clerk, the
 * clerk enrols TOTP, opens the counter by its links, scans a live member-card QR through Chromium's fake
 * camera, books a purchase, sees the points, refunds half and uses a coupon. Every page is checked with
 * axe; the day list must not scroll sideways on a tablet or a phone.
 */

const WIDTH = 640;
const HEIGHT = 480;

/**
 * One frame of Y4M video (Chromium's fake camera plays it in a loop): the text header, "FRAME", then
 * the raw I420 planes: luminance (the QR code in black on white, centred), and the two colour planes
 * at neutral grey.
 */
function y4mOf(text: string | null): Buffer {
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  if (text) {
    const { size, data } = encode(text, { ecc: "M", border: 0 });
    const module = Math.floor(300 / size);
    const left = Math.floor((WIDTH - size * module) / 2);
    const top = Math.floor((HEIGHT - size * module) / 2);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (!data[y]?.[x]) continue;
        for (let dy = 0; dy < module; dy++) {
          luma.fill(
            16,
            (top + y * module + dy) * WIDTH + left + x * module,
            (top + y * module + dy) * WIDTH + left + (x + 1) * module,
          );
        }
      }
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F30:1 Ip A1:1 C420jpeg\nFRAME\n`, "ascii");
  return Buffer.concat([header, luma, chroma]);
}

const screenshots = (page: Page, name: string) =>
  screenshotSizes(page, `counter-${name}`, {
    sizes: [
      ["tablet", TABLET],
      ["phone", PHONE],
    ],
    restore: TABLET,
  });

test("a clerk scans a member card with the camera, books a purchase, refunds half and uses a coupon", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(600_000);
  const base = baseURL ?? "";
  // An admin invites a clerk of 信義旗艦店; the clerk sets a password and enrols the authenticator.
  const email = `counter-${Date.now()}@example.com`;
  await acceptAndEnrol(
    page,
    await inviteThroughConsole(browser, base, {
      contact: email,
      displayName: "林櫃台",
      role: "staff",
      storeNames: ["信義旗艦店"],
    }),
  );

  // A member with a coupon.
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "張美華" });
  const couponRes = await page.request.post("/__test/coupons", { data: { memberNumber: created.memberNumber } });
  expect(couponRes.ok()).toBe(true);

  // The counter's tablet, with a fake camera that plays a file (first a blank picture).
  const video = path.join(os.tmpdir(), `counter-camera-${testInfo.workerIndex}-${Date.now()}.y4m`);
  writeFileSync(video, y4mOf(null));
  const launch = config.use?.launchOptions ?? {};
  let tablet: Browser | null = null;
  try {
    tablet = await chromium.launch({
      ...launch,
      args: [
        ...(launch.args ?? []),
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    const context = await tablet.newContext({
      baseURL: base,
      locale: "zh-TW",
      timezoneId: "Asia/Taipei",
      viewport: { width: 1024, height: 768 },
      hasTouch: true,
      storageState: await page.context().storageState(),
    });
    const counter = await context.newPage();

    // The clerk opens the counter from the console's navigation.
    await gotoAndCheck(counter, "/admin");
    await counter.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "櫃檯" }).click();
    await expect(counter).toHaveURL(/\/admin\/counter$/);
    await expect(counter.getByRole("heading", { level: 1, name: "櫃檯" })).toBeVisible();
    await expect(counter.getByTestId("counter-day-store")).toContainText("信義旗艦店");
    await expectAccessible(counter);
    // No scanner code before the camera opens.
    const scriptsBefore = await counter.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => /qr-scanner/.test(n)),
    );
    expect(scriptsBefore).toEqual([]);

    // The member shows the card: the test reads the live token off the member's own card page.
    const memberContext = await page.context().browser()?.newContext({ baseURL: base, locale: "zh-TW" });
    if (!memberContext) throw new Error("no browser for the member");
    await loginByCookie(page.request, memberContext, base, created.userId);
    const memberPage = await memberContext.newPage();
    await memberPage.goto("/member-center");
    const token = (await memberPage.getByTestId("card-qr").getAttribute("data-token")) ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{27}\.[A-Za-z0-9_-]{22}$/);
    await memberContext.close();
    writeFileSync(video, y4mOf(token));

    await counter.getByRole("button", { name: "開啟相機掃描會員條碼" }).click();
    // A scanned card carries the scan pass (ADR 052: points without a code; ADR 051: the walk-in sample loan).
    await expect(counter).toHaveURL(/\/admin\/counter\/member\/[0-9a-f-]{36}\?scan=[^&]+$/, { timeout: 20_000 });
    await expect(counter.getByTestId("member-name")).toHaveText("張美華");
    await expect(counter.getByTestId("member-number")).toHaveText(created.memberNumber);
    await expect(counter.getByTestId("member-phone")).toHaveText(`••••-•••-${phone.e164.slice(-3)}`);
    await expect(counter.getByRole("button", { name: "顯示完整號碼" })).toHaveCount(0);
    await expect(counter.getByRole("link", { name: "調整點數" })).toHaveCount(0);
    await expectAccessible(counter);
    const scriptsAfter = await counter.evaluate(() =>
      performance
        .getEntriesByType("resource")
        .map((e) => e.name)
        .filter((n) => /qr-scanner/.test(n)),
    );
    expect(scriptsAfter.length).toBeGreaterThan(0);
    await screenshots(counter, "member");

    // A purchase: the preview, one tap, the confirmation with the points.
    await counter.getByRole("link", { name: "登錄消費" }).click();
    await expect(counter.getByRole("heading", { level: 1, name: "登錄消費" })).toBeVisible();
    await waitForHydration(counter);
    await expect(counter.getByTestId("purchase-store")).toHaveText("信義旗艦店");
    await counter.getByLabel("發票或收據號碼").fill("AB-20261124");
    await counter.getByLabel("消費淨額（新台幣元）").fill("12000");
    await expect(counter.getByTestId("points-preview")).toHaveText("預計累積 120 點");
    await expectAccessible(counter);
    await screenshots(counter, "purchase");
    await counter.getByRole("button", { name: "確認登錄" }).click();
    await expect(counter.getByTestId("purchase-done")).toBeVisible();
    await expect(counter.getByTestId("points-earned")).toContainText("+120");
    // Welcome points (100) + the coupon's 100 spent + 120.
    await expect(counter.getByTestId("new-balance")).toContainText(/\d/);
    await expectAccessible(counter);

    // Refund half: find the receipt, see the points it reverses, confirm.
    await counter.getByRole("link", { name: "回櫃檯" }).last().click();
    await expect(counter).toHaveURL(/\/admin\/counter$/);
    await counter.getByRole("link", { name: /^退貨/ }).click();
    await expect(counter.getByRole("heading", { level: 1, name: "退貨" })).toBeVisible();
    await expectAccessible(counter);
    await counter.getByLabel("發票或收據號碼").fill("AB-20261124");
    await counter.getByRole("button", { name: "查詢" }).click();
    await expect(counter.getByTestId("refund-purchase")).toBeVisible();
    await counter.getByLabel("退貨金額（新台幣元）").fill("6000");
    await counter.getByRole("button", { name: "預覽退點" }).click();
    await expect(counter.getByTestId("reversal")).toHaveText("將扣回 60 點");
    await expectAccessible(counter);
    await screenshots(counter, "refund");
    await counter.getByRole("button", { name: "確認退貨 NT$ 6,000" }).click();
    await expect(counter.getByTestId("refund-done")).toBeVisible();
    await expect(counter.getByTestId("points-reversed")).toHaveText(/−60 點/);
    await expectAccessible(counter);

    // The coupon, picked from the member's list (the member found again by phone, typed as people type it).
    await counter.getByRole("link", { name: "回櫃檯" }).last().click();
    await counter.getByLabel("手機號碼或會員編號").fill(phone.local);
    await counter.getByRole("button", { name: "查詢", exact: true }).click();
    await expect(counter.getByTestId("member-name")).toHaveText("張美華");
    await counter.getByTestId("member-coupons").getByRole("link", { name: /^核銷/ }).first().click();
    await expect(counter.getByTestId("coupon-details")).toContainText("NT$100 折價券");
    await expectAccessible(counter);
    await counter.getByRole("button", { name: "確認核銷" }).click();
    await expect(counter.getByTestId("coupon-done")).toBeVisible();
    await expectAccessible(counter);

    // The day list: this store's purchase, refund and coupon use, with totals and the store's name.
    await counter.getByRole("link", { name: "回櫃檯" }).last().click();
    await expect(counter.getByTestId("total-sales")).toContainText("NT$12,000");
    await expect(counter.getByTestId("total-refunded")).toContainText("NT$6,000");
    await expect(counter.getByTestId("total-coupons")).toContainText("1");
    await expect(counter.getByTestId("day-purchases")).toContainText("AB-20261124");
    await expect(counter.getByTestId("day-coupons")).toContainText(created.memberNumber);
    await screenshots(counter, "day");
    await context.close();
  } finally {
    await tablet?.close();
  }
});

test("an anonymous visitor meets the console login on every counter page", async ({ page }) => {
  for (const pathname of ["/admin/counter", "/admin/counter/refund", "/admin/counter/coupon"]) {
    await gotoAndCheck(page, pathname);
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=/);
    await expect(page.getByRole("heading", { level: 1, name: "後台登入" })).toBeVisible();
  }
});
