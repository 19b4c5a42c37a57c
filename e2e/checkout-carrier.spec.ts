import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import sharp from "sharp";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import { expect, expectAccessible, gotoAndCheck, test } from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The e-invoice carrier at the till (issue 36 item 2, ADR 041): the member enters a carrier and 統編 in the
 * member center; the clerk finds the member at the counter and shows the carrier; the barcode on the screen is
 * read back from a screenshot (its pixels, at a phone's and a tablet's size) as the till's scanner would; the
 * member turns sharing off and the counter no longer shows it.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");
const CARRIER = "/AB+1.9-";

// The reader's WebAssembly from the package on disk (by default it would fetch it from a CDN).
prepareZXingModule({
  overrides: {
    wasmBinary: readFileSync(createRequire(import.meta.url).resolve("zxing-wasm/reader/zxing_reader.wasm")).buffer,
  },
});

/**
 * Reads the barcode off a screenshot of the element with an independent reader, as the till's scanner would:
 * ZXing (zxing-wasm, its WebAssembly build loaded from node_modules, no network), asked for Code 39 only. The white
 * quiet zones on both sides are checked on the middle row of pixels too (at least 10 narrow bars wide).
 */
async function readBarcode(element: Locator): Promise<string> {
  const png = await element.screenshot({ animations: "disabled" });
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const row = Math.floor(info.height / 2);
  const dark = (x: number) => (data[row * info.width * info.channels + x * info.channels] ?? 255) < 128;
  let left = 0;
  while (left < info.width && !dark(left)) left++;
  let right = 0;
  while (right < info.width && !dark(info.width - 1 - right)) right++;
  let narrow = info.width;
  for (let x = left, run = 0; x < info.width - right; x++) {
    run++;
    if (dark(x) !== dark(x + 1)) {
      narrow = Math.min(narrow, run);
      run = 0;
    }
  }
  expect(narrow, "narrowest bar (px)").toBeGreaterThanOrEqual(1);
  expect(left, "left quiet zone (px)").toBeGreaterThanOrEqual(10 * narrow - 1);
  expect(right, "right quiet zone (px)").toBeGreaterThanOrEqual(10 * narrow - 1);
  const results = await readBarcodes(new Blob([new Uint8Array(png)]), { formats: ["Code39"], tryHarder: false });
  expect(results.map((r) => r.format)).toEqual(["Code39"]);
  return results[0]?.text ?? "";
}

async function checkAt(page: Page, size: { width: number; height: number }, name: string) {
  await page.setViewportSize(size);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `horizontal overflow at ${size.width}px`).toBeLessThanOrEqual(0);
  await expectAccessible(page);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, `checkout-carrier-${name}-${size.width}x${size.height}.png`),
    fullPage: true,
    animations: "disabled",
  });
}

test("the till reads the member's carrier barcode off the counter; the member turns sharing off", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const base = baseURL ?? "";

  // The member enters a carrier, a 統編 and the company in the member center.
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "陳載具" });
  const memberContext = await browser.newContext({ baseURL: base, locale: "zh-TW", timezoneId: "Asia/Taipei" });
  await loginByCookie(page.request, memberContext, base, created.userId);
  const member = await memberContext.newPage();
  await gotoAndCheck(member, "/member-center/edit-info");
  await member.getByLabel("公司名稱").fill("漢生活股份有限公司");
  await member.getByLabel("統一編號").fill("04595257");
  await member.getByLabel("手機條碼載具").fill(CARRIER);
  await member.getByRole("button", { name: "儲存變更" }).click();
  await expect(member.getByText("會員資料已更新")).toBeVisible();
  await gotoAndCheck(member, "/member-center/privacy");
  const share = member.getByLabel("提供載具與統編給門市結帳");
  await expect(share).toBeChecked();
  await expect(member.getByTestId("einvoice-on-record")).toContainText(CARRIER);

  // The clerk finds the member at the counter and shows the carrier.
  const clerkContext = await browser.newContext({ baseURL: base, locale: "zh-TW", timezoneId: "Asia/Taipei" });
  await loginStaffByCookie(page.request, clerkContext, base, {
    role: "staff",
    storeIds: ["xinyi-flagship"],
    displayName: "林櫃台",
  });
  const counter = await clerkContext.newPage();
  await counter.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(counter, "/admin/counter");
  await counter.getByLabel("手機號碼或會員編號").fill(created.memberNumber);
  await counter.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(counter.getByTestId("member-name")).toHaveText("陳載具");
  const panel = counter.getByTestId("einvoice-panel");
  await expect(panel.getByTestId("einvoice-barcode")).toHaveCount(0);
  await panel.getByRole("button", { name: "顯示載具條碼與統編" }).click();
  const barcode = panel.getByRole("img", { name: `手機條碼載具 ${CARRIER} 的條碼` });
  await expect(barcode).toBeVisible();
  await expect(panel.getByTestId("einvoice-carrier")).toHaveText(CARRIER);
  await expect(panel.getByTestId("einvoice-tax-id")).toHaveText("04595257");
  await expect(panel.getByTestId("einvoice-company")).toHaveText("漢生活股份有限公司");

  // The till's scanner reads the bars on the screen, on a tablet and on a phone.
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await checkAt(counter, size, "shown");
    await barcode.scrollIntoViewIfNeeded();
    expect(await readBarcode(barcode), `barcode read at ${size.width}px`).toBe(CARRIER);
  }
  // At the tablet's width each narrow bar is at least 2 screen pixels, the bars at least 96 px tall.
  await counter.setViewportSize({ width: 1280, height: 800 });
  const box = await barcode.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(96);
  expect((box?.width ?? 0) / (10 * 16 - 1 + 20)).toBeGreaterThanOrEqual(2);

  // The member turns sharing off; the counter no longer shows the carrier.
  await share.uncheck();
  await member.getByRole("button", { name: "儲存載具設定" }).click();
  await expect(member.getByText("已關閉：門市結帳時不會讀取您的載具與統編")).toBeVisible();
  await expect(member.getByLabel("提供載具與統編給門市結帳")).not.toBeChecked();
  // The decision is kept like the other consents: the list shows it, the export has its history.
  await expect(
    member.getByTestId("consent-list").getByRole("listitem").filter({ hasText: "提供載具與統編給門市結帳" }),
  ).toContainText("未同意");
  await expectAccessible(member);
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await member.setViewportSize(size);
    await member.screenshot({
      path: path.join(SCREENSHOT_DIR, `checkout-carrier-privacy-${size.width}x${size.height}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }

  // The member's own data export carries the switch; a tampered form is a 400, never a 500.
  const exported = await member.request.get("/member-center/privacy/export");
  const exportedData = (await exported.json()) as {
    profile: { einvoiceSharing: boolean };
    consents: { kind: string; granted: boolean }[];
  };
  expect(exportedData.profile.einvoiceSharing).toBe(false);
  expect(exportedData.consents.filter((c) => c.kind === "einvoice_sharing").map((c) => c.granted)).toEqual([false]);
  for (const form of [
    { intent: "einvoice", einvoiceSharing: "yes" },
    { intent: "share-everything", einvoiceSharing: "on" },
  ]) {
    const tampered = await member.request.post("/member-center/privacy", {
      form,
      headers: { origin: base },
      maxRedirects: 0,
    });
    expect(tampered.status(), JSON.stringify(form)).toBe(400);
  }

  await gotoAndCheck(counter, `/admin/counter/member/${created.memberId}`);
  await counter.getByTestId("einvoice-panel").getByRole("button", { name: "顯示載具條碼與統編" }).click();
  await expect(counter.getByTestId("einvoice-off")).toHaveText("會員已選擇不提供載具與統編給門市結帳");
  await expect(counter.getByTestId("einvoice-barcode")).toHaveCount(0);
  await expect(counter.getByText(CARRIER)).toHaveCount(0);
  await checkAt(counter, { width: 1280, height: 800 }, "off");
  await checkAt(counter, { width: 390, height: 844 }, "off");

  await memberContext.close();
  await clerkContext.close();
});

test("an admin creates a till key with the carrier scope and removes it again; the till's lookup follows", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const base = baseURL ?? "";
  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  const created = await createMember(page.request, { phoneNumber: newPhone().e164, name: "林統編" });
  await gotoAndCheck(page, "/admin/api-keys");
  const name = `載具收銀機 ${Date.now() % 100_000}`;
  await page.getByLabel("門市", { exact: true }).selectOption({ label: "信義旗艦店" });
  await page.getByLabel("名稱", { exact: true }).fill(name);
  await page.getByLabel(/允許讀取會員的電子發票載具與統編/).check();
  await page.getByRole("button", { name: "建立金鑰" }).click();
  const secret = await page.getByTestId("key-secret").inputValue();
  const row = page.getByTestId("key").filter({ hasText: name });
  await expect(row.getByTestId("key-scopes")).toHaveText("基本＋載具");
  const lookup = () =>
    page.request.get(`/api/v1/members/einvoice?memberNumber=${created.memberNumber}`, {
      headers: { authorization: `Bearer ${secret}` },
    });
  expect(await (await lookup()).json()).toMatchObject({ memberNumber: created.memberNumber, sharing: true });

  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await checkAt(page, size, "keys");
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await row.getByRole("button", { name: `取消「${name}」讀取載具與統編` }).click();
  await expect(page.getByText("已更新金鑰權限，立即生效。")).toBeVisible();
  await expect(page.getByTestId("key").filter({ hasText: name }).getByTestId("key-scopes")).toHaveText("基本");
  const refused = await lookup();
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ error: { code: "scope_missing" } });
  await expectAccessible(page);
});
