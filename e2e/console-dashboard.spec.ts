import path from "node:path";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { bookHistory } from "./support/member-history";
import { createMember, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The console dashboard (issue 15, item 4): a small known history in a month nobody else books in (picked at
 * random per run, long ago), the figures on the page worked out here; a manager sees only their store's figures,
 * is refused another store's (page and CSV) and the member export; axe-core clean; screenshots.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

test("admins see every store, a manager only theirs; the figures match a known history", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const year = 2001 + Math.floor(Math.random() * 18);
  const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, "0");
  const at = (day: string, time = "11:00:00") => `${year}-${month}-${day}T${time}+08:00`;
  const from = `${year}-${month}-01`;
  const to = `${year}-${month}-28`;
  const a = await createMember(page.request, { phoneNumber: newPhone().e164, name: "陳報表" });
  const b = await createMember(page.request, { phoneNumber: newPhone().e164, name: "林報表" });
  const tag = `${Date.now()}`;
  await bookHistory(page.request, a.userId, {
    welcomeAt: null,
    purchases: [
      { storeId: "xinyi-flagship", receiptNumber: `D-${tag}-1`, netAmount: 12_000, at: at("03") },
      { storeId: "xinyi-flagship", receiptNumber: `D-${tag}-2`, netAmount: 3_500, at: at("20") },
    ],
  });
  await bookHistory(page.request, b.userId, {
    welcomeAt: null,
    // 23:30 in Taipei on the 27th (15:30 UTC): a Taipei day inside the range either way.
    purchases: [
      { storeId: "taichung-flagship", receiptNumber: `D-${tag}-3`, netAmount: 8_000, at: at("27", "23:30:00") },
    ],
  });
  const query = `from=${from}&to=${to}`;

  // An admin: every store.
  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, `/admin?${query}`);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1, name: "營運總覽" })).toBeVisible();
  await expect(page.getByTestId("kpi-net-sales")).toContainText("NT$23,500");
  await expect(page.getByTestId("kpi-net-sales")).toContainText("消費筆數 3");
  const stores = page.locator('[data-panel="stores"] tbody tr');
  await expect(stores).toHaveCount(2);
  await expect(stores.nth(0)).toContainText("信義旗艦店");
  await expect(stores.nth(0)).toContainText("NT$15,500");
  await expect(stores.nth(1)).toContainText("NT$8,000");
  await expect(page.locator('[data-panel="liability"]')).toBeVisible();
  // uPlot is loaded on this page only, after hydration.
  await expect(page.locator('[data-panel="sales"] .uplot')).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-dashboard-desktop.png"), fullPage: true });
  const adminCsv = await page.request.get(`/admin/dashboard/export?panel=stores&${query}`);
  expect(adminCsv.status()).toBe(200);
  const adminText = await adminCsv.text();
  expect(adminText).toContain('"xinyi-flagship","信義旗艦店",2,15500,0,15500');
  expect(adminText).toContain("taichung-flagship");

  // A bad range: said next to the field, no figures, a 400.
  await gotoAndCheck(page, `/admin?from=${to}&to=${from}`, { status: 400 });
  await expect(page.getByText("結束日期不能早於開始日期")).toBeVisible();
  await expect(page.getByTestId("dashboard-kpis")).toHaveCount(0);
  await expectAccessible(page);

  // A manager of the Xinyi flagship.
  const managerContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  await loginStaffByCookie(managerContext.request, managerContext, base, {
    role: "manager",
    storeIds: ["xinyi-flagship"],
    displayName: "周店長",
  });
  const manager = await managerContext.newPage();
  await gotoAndCheck(manager, `/admin?${query}`);
  await expect(manager.getByTestId("kpi-net-sales")).toContainText("NT$15,500");
  await expect(manager.getByTestId("kpi-net-sales")).toContainText("消費筆數 2");
  await expect(manager.locator('[data-panel="stores"] tbody tr')).toHaveCount(1);
  await expect(manager.getByText("台中七期旗艦店")).toHaveCount(0);
  await expect(manager.locator('[data-panel="liability"]')).toHaveCount(0);
  await expectAccessible(manager);
  await manager.screenshot({ path: path.join(SCREENSHOT_DIR, "console-dashboard-manager.png"), fullPage: true });
  // Another store in the URL: refused, no figures.
  const foreign = await gotoAndCheck(manager, `/admin?${query}&store=taichung-flagship`, { status: 403 });
  expect(await foreign.text()).not.toContain("8,000");
  const foreignCsv = await managerContext.request.get(
    `/admin/dashboard/export?panel=stores&${query}&store=taichung-flagship`,
  );
  expect(foreignCsv.status()).toBe(403);
  const ownCsv = await managerContext.request.get(`/admin/dashboard/export?panel=stores&${query}`);
  const ownText = await ownCsv.text();
  expect(ownText).toContain("xinyi-flagship");
  expect(ownText).not.toContain("taichung-flagship");
  // Programme-wide panels are not theirs either.
  expect((await managerContext.request.get(`/admin/dashboard/export?panel=liability&${query}`)).status()).toBe(404);
  // And the member CSV stays an admin's.
  expect((await managerContext.request.get("/admin/members/export")).status()).toBe(403);

  // Phone size.
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoAndCheck(page, `/admin?${query}`);
  await waitForHydration(page);
  await expect(page.locator('[data-panel="points"] .uplot')).toBeVisible();
  await expectAccessible(page);
  // Wide tables scroll inside their card; the page itself never scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "console-dashboard-phone.png"), fullPage: true });
  await managerContext.close();
});
