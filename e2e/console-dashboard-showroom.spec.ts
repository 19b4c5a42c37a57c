import path from "node:path";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { bookHistory } from "./support/member-history";
import { createMember, newPhone } from "./support/members";
import { PHONE, SCREENSHOT_DIR, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * The dashboard's 展示廳 section (ADR 048): appointments of a month of the year 2000 nobody else books in (a random
 * month, at 花蓮 and 台南, which no other spec's purchases use), a kept visit followed by a purchase; the figures on
 * the page and in the CSV; zh-TW and English; axe-core clean; phone and desktop screenshots.
 */
test("the showroom section shows appointments by store and kind and the purchases after a visit", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const base = baseURL ?? "";
  const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, "0");
  const at = (day: string, time = "11:00:00") => `2000-${month}-${day}T${time}+08:00`;
  const query = `from=2000-${month}-01&to=2000-${month}-28`;
  const a = await createMember(page.request, { phoneNumber: newPhone().e164, name: "陳展示" });
  const b = await createMember(page.request, { phoneNumber: newPhone().e164, name: "林展示" });
  const seed = await page.request.post("/__test/report-appointments", {
    data: [
      { userId: a.userId, storeId: "hualien", kind: "visit", startsAt: at("03"), status: "checked_in" },
      { userId: b.userId, storeId: "hualien", kind: "consultation", startsAt: at("04"), status: "no_show" },
      { userId: a.userId, storeId: "tainan", kind: "visit", startsAt: at("10"), status: "cancelled" },
      // 23:30 on the 28th in Taipei (15:30 UTC): the range's last Taipei day.
      { userId: b.userId, storeId: "tainan", kind: "visit", startsAt: at("28", "23:30:00"), status: "checked_in" },
    ],
  });
  expect(seed.status()).toBe(200);
  // A quote at 台南 answered on the 3rd, followed by the purchase there on the 5th.
  const quote = await page.request.post("/__test/report-quote", {
    data: { userId: a.userId, storeId: "tainan", askedAt: at("02"), answeredAt: at("03") },
  });
  expect(quote.status()).toBe(200);
  await bookHistory(page.request, a.userId, {
    welcomeAt: null,
    purchases: [{ storeId: "tainan", receiptNumber: `SH-${Date.now()}`, netAmount: 6_000, at: at("05") }],
  });

  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await gotoAndCheck(page, `/admin?${query}`);
  await waitForHydration(page);
  const section = page.getByTestId("dashboard-showroom");
  await expect(section.getByRole("heading", { level: 2, name: "展示廳" })).toBeVisible();
  await expect(page.getByTestId("kpi-showroom-kept")).toContainText("2");
  await expect(page.getByTestId("kpi-showroom-kept")).toContainText("預約 4・未到 1・取消 1");
  await expect(page.getByTestId("kpi-showroom-bought30")).toContainText("50%");
  await expect(page.getByTestId("kpi-showroom-bought30")).toContainText("NT$6,000");
  const rows = page.locator('[data-panel="appointments"] tbody tr');
  await expect(rows).toHaveCount(4);
  await expect(rows.nth(0)).toContainText("花蓮");
  await expect(rows.nth(0)).toContainText("參觀");
  await expect(rows.nth(1)).toContainText("設計諮詢");
  await expect(rows.nth(3)).toContainText("合計");
  await expect(page.locator('[data-panel="visits"] tbody tr')).toHaveCount(3);
  // Samples and quotes: their panels after these (samples out now may be anyone's).
  await expect(section.getByRole("heading", { level: 3, name: "樣品借用" })).toBeVisible();
  const quoteRows = page.locator('[data-panel="quotes"] tbody tr');
  await expect(quoteRows).toHaveCount(2);
  await expect(quoteRows.nth(0)).toContainText("台南");
  await expect(quoteRows.nth(0)).toContainText("100% (1)");
  await expect(quoteRows.nth(0)).toContainText("NT$6,000");
  await expectAccessible(page);
  await screenshotSizes(page, "console-dashboard-showroom");
  for (const [label, size] of [
    ["desktop", { width: 1280, height: 800 }],
    ["phone", PHONE],
  ] as const) {
    await page.setViewportSize(size);
    await section.screenshot({ path: path.join(SCREENSHOT_DIR, `console-dashboard-showroom-section-${label}.png`) });
  }

  const csv = await page.request.get(`/admin/dashboard/export?panel=appointments&${query}`);
  expect(csv.status()).toBe(200);
  const text = await csv.text();
  expect(text).toContain('"tainan"');
  expect(text).toContain('"","total","",4,0,2,1,1');
  const quotes = await page.request.get(`/admin/dashboard/export?panel=quotes&${query}`);
  expect(quotes.status()).toBe(200);
  expect(await quotes.text()).toContain('"","total",1,1,1,1,1,6000,0');

  // English.
  await page.context().addCookies([{ name: "locale", value: "en", url: base }]);
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, `/admin?${query}`);
  await expect(section.getByRole("heading", { level: 2, name: "Showroom" })).toBeVisible();
  await expect(page.getByTestId("kpi-showroom-kept")).toContainText("Booked 4 · no-show 1 · cancelled 1");
  await expect(page.locator('[data-panel="appointments"] tbody tr').nth(1)).toContainText("Design consultation");
  await expect(section.getByRole("heading", { level: 3, name: "Quotes and the purchases after them" })).toBeVisible();
  await expectAccessible(page);
});
