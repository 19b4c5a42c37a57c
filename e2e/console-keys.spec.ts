import path from "node:path";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, newPhone } from "./support/members";
import { PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/** POS API keys in the console (issue 14 item 8): created from the navigation, shown once, revoked → 401. */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

test("an admin creates a POS key for a store, the till uses it, and after revoking it the till gets 401", async ({
  page,
  baseURL,
  playwright,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? "";
  const member = await createMember(page.request, { phoneNumber: newPhone().e164, name: "陳小華" });
  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "POS API 金鑰" }).click();
  await expect(page).toHaveURL(/\/admin\/api-keys$/);
  await waitForHydration(page);
  await expectAccessible(page);
  await page.getByLabel("門市", { exact: true }).selectOption({ label: "信義旗艦店" });
  await page.getByLabel("名稱", { exact: true }).fill("信義 1 號收銀機");
  await page.getByRole("button", { name: "建立金鑰" }).click();
  await expect(page.getByTestId("key-created")).toBeVisible();
  const secret = await page.getByTestId("key-secret").inputValue();
  expect(secret).toMatch(/^hlpos_/);
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-keys-desktop.png"), fullPage: true });

  // The till (no browser: a plain HTTP client with the key).
  const till = await playwright.request.newContext({ baseURL: base });
  const balance = () =>
    till.get(`/api/v1/members/${member.memberNumber}/balance`, { headers: { authorization: `Bearer ${secret}` } });
  expect((await balance()).status()).toBe(200);

  await page.getByRole("button", { name: "撤銷「信義 1 號收銀機」" }).click();
  await expect(page.getByText("金鑰已撤銷，之後的請求都會被拒絕。")).toBeVisible();
  await expect(page.getByTestId("key").filter({ hasText: "信義 1 號收銀機" })).toContainText("已撤銷");
  expect((await balance()).status()).toBe(401);
  await till.dispose();

  // On a phone each key is a card: name, store, key, use, scopes and the action, none of it scrolled out of sight.
  await page.setViewportSize(PHONE);
  const box = page.locator("section[data-table-scroll]").filter({ has: page.getByTestId("keys") });
  expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
  await expect(page.getByRole("table").getByRole("row").filter({ hasText: "信義 1 號收銀機" })).toHaveCount(1);
  await screenshotSizes(page, "console-keys", { sizes: [["phone", PHONE]] });
});
