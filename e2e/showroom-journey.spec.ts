import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, pinClock, test, waitForHydration } from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { PHONE } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * The showroom journey of issue 37 end to end, at phone size, as people walk it: a member saves two materials, books
 * a design consultation at 信義旗艦店 from the store page (the earliest free time of a day no other spec uses) and
 * gets the confirmation by LINE (the local fake) with the calendar file; asks for samples and a quote from the
 * favourites. On the day, the store's clerk sees the appointment on the counter, checks the member in by the card
 * (typed in by a hand scanner), hands out the two samples, answers the quote and books a purchase; that evening the
 * member sees the samples due back and the quote answered; the admin's dashboard shows the kept visit and the
 * purchase that followed it. Every actor's requests carry the app's test clock (X-Test-Now), so "today" is that day.
 */

const STORE = "xinyi-flagship";
const MATERIALS = [
  { id: "kyoto-mist-porcelain", name: "京霧 石英磚" },
  { id: "seaside-white-subway", name: "海岸白 地鐵磚" },
];
const AMOUNT = 8_765;

test.use({ viewport: PHONE });

/** A Taipei calendar day `days` after today (YYYY-MM-DD). */
function taipeiDayAfter(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Taipei" }).format(new Date(Date.now() + days * 86_400_000));
}

function zhDate(instant: Date): string {
  return new Intl.DateTimeFormat("zh-TW", {
    timeZone: "Asia/Taipei",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(instant);
}

async function favourite(page: Page, id: string) {
  await gotoAndCheck(page, `/material-detail/${id}`);
  await waitForHydration(page);
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.ok());
  await page.getByRole("button", { name: "收藏", exact: true }).click();
  await expect(page.getByRole("button", { name: "已收藏" })).toBeVisible();
  await saved;
}

/** The console's menu on a phone (a disclosure), then one of its pages. */
async function openConsolePage(page: Page, name: string) {
  await page.locator("summary").filter({ hasText: "選單" }).click();
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name, exact: true }).click();
}

/** The member's live card token, read off their own card page at the member's clock. */
async function cardToken(page: Page): Promise<string> {
  await gotoAndCheck(page, "/member-center");
  const token = (await page.getByTestId("card-qr").getAttribute("data-token")) ?? "";
  expect(token).not.toBe("");
  return token;
}

test("a member books a consultation, is checked in, borrows samples, gets a quote and buys; the dashboard shows it", async ({
  page,
  browser,
  request,
  context,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = baseURL ?? "";
  // A day 8–27 days ahead: after the fixed days other specs book, and rarely anyone else's.
  const day = taipeiDayAfter(8 + Math.floor(Math.random() * 20));
  const morning = `${day}T09:00:00+08:00`;
  await pinClock(page, morning);

  const { userId, memberNumber } = await createMember(request, { phoneNumber: newPhone().e164, name: "周旅程" });
  const linked = await request.post(`/__test/members/${userId}/line`, { data: { name: "周旅程" } });
  const { lineUserId } = (await linked.json()) as { lineUserId: string };
  await loginByCookie(request, context, base, userId);
  for (const m of MATERIALS) await favourite(page, m.id);

  // The store page leads to the booking: a design consultation, the day's earliest free time.
  await gotoAndCheck(page, `/store-detail/${STORE}`);
  await waitForHydration(page);
  await page.getByTestId("book-visit").click();
  await expect(page.getByTestId("booking-store")).toHaveText("信義旗艦店");
  await page.getByRole("link", { name: /設計諮詢/ }).click();
  const [, month, date] = day.split("-").map(Number);
  await page
    .getByTestId("appointment-days")
    .getByRole("link", { name: new RegExp(`${month}/${date}(?!\\d)`) })
    .click();
  await expect(page.locator('input[name="date"]')).toHaveValue(day);
  const firstTime = page.getByTestId("appointment-times").locator('input[name="time"]').first();
  const time = (await firstTime.getAttribute("value")) ?? "";
  expect(time).toMatch(/^\d{2}:\d{2}$/);
  await page.getByTestId("appointment-times").getByText(time, { exact: true }).click();
  const materials = page.getByTestId("appointment-materials").getByRole("checkbox");
  await expect(materials).toHaveCount(2);
  await materials.nth(0).check();
  await materials.nth(1).check();
  await page.getByLabel("備註（選填）").fill("浴室翻新，想看磁磚");
  await page.getByRole("button", { name: "確認預約" }).click();

  // The confirmation with the calendar file.
  await expect(page.getByRole("heading", { name: "預約完成" })).toBeVisible();
  await expect(page.getByTestId("appointment-when")).toContainText(time);
  const reference = (await page.locator("dd").first().textContent()) ?? "";
  expect(reference).toMatch(/^[2-9A-Z]{8}$/);
  const ics = page.getByRole("link", { name: "下載行事曆檔（.ics）" });
  const file = await page.request.get((await ics.getAttribute("href")) as string);
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toContain("text/calendar");
  expect(await file.text()).toContain("BEGIN:VEVENT\r\n");
  await expectAccessible(page);

  // The confirmation by LINE (the local fake), with the calendar file's link.
  await request.post("/__test/appointments/messages", { data: { at: morning } });
  const sent = JSON.stringify(await (await request.get(`/__line/messaging/sent?to=${lineUserId}`)).json());
  expect(sent).toContain(reference);
  expect(sent).toContain("calendar.ics");

  // From the favourites: both samples to collect at 信義旗艦店, and a quote list.
  await gotoAndCheck(page, "/member-center");
  await page.getByTestId("favourites-samples").click();
  await expect(page).toHaveURL(/\/member-center\/samples\/new$/);
  await waitForHydration(page);
  for (const m of MATERIALS) await page.getByLabel(m.name).check();
  await page.getByRole("radio", { name: "信義旗艦店" }).check();
  await page.getByRole("button", { name: "送出申請" }).click();
  await expect(page).toHaveURL(/\/member-center\/samples$/);
  await expect(page.getByTestId("samples-waiting").getByRole("listitem")).toHaveCount(2);

  await gotoAndCheck(page, "/member-center");
  await page.getByTestId("ask-quote").click();
  await expect(page).toHaveURL(/\/member-center\/quotes\/new$/);
  await waitForHydration(page);
  const [tile, subway] = MATERIALS.map((m) => m.id);
  await page.locator(`input[name="pick.${tile}"]`).check();
  await page.locator(`input[name="qty.${tile}"]`).fill("10");
  await page.locator(`input[name="pick.${subway}"]`).check();
  await page.locator(`select[name="unit.${subway}"]`).selectOption("piece");
  await page.locator(`input[name="qty.${subway}"]`).fill("20");
  await page.getByLabel("詢價門市").selectOption(STORE);
  await page.getByRole("button", { name: "送出報價單" }).click();
  await expect(page).toHaveURL(/\/member-center\/quotes\/[0-9a-f-]{36}$/);
  const quoteReference = (await page.getByTestId("quote-reference").first().textContent())?.trim() ?? "";
  expect(quoteReference).toMatch(/^Q[2-9A-Z]{7}$/);

  // The day of the visit, half an hour into the slot: the member shows the card at the counter.
  const atVisit = new Date(new Date(`${day}T${time}:00+08:00`).getTime() + 30 * 60_000).toISOString();
  await pinClock(page, atVisit);
  const clerkContext = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport: PHONE,
    hasTouch: true,
  });
  const clerk = await clerkContext.newPage();
  await loginStaffByCookie(clerk.request, clerkContext, base, {
    role: "staff",
    storeIds: [STORE],
    displayName: `信義顧問${Date.now() % 100_000}`,
  });
  await pinClock(clerk, atVisit);
  await gotoAndCheck(clerk, "/admin");
  await openConsolePage(clerk, "櫃檯");
  await expect(clerk.getByRole("heading", { level: 1, name: "櫃檯" })).toBeVisible();
  await waitForHydration(clerk);
  const row = clerk.getByTestId("counter-appointments").getByTestId("counter-appointment").filter({
    hasText: reference,
  });
  await expect(row).toContainText("設計諮詢");
  await expect(row).toContainText("周旅程");
  await expect(row).toContainText("京霧 石英磚");
  await expect(row.getByTestId("visit-status")).toHaveText("已預約");

  // The hand scanner types the card's code: checked in.
  await clerk.getByLabel("手機號碼或會員編號").fill(await cardToken(page));
  await clerk.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(clerk).toHaveURL(new RegExp(`/admin/counter/member/[0-9a-f-]{36}\\?checkedIn=${reference}`));
  await expect(clerk.getByTestId("checked-in")).toHaveText(`預約 ${reference} 已報到。`);
  await expect(clerk.getByTestId("member-appointments").getByTestId("visit-status")).toHaveText("已報到");
  await expectAccessible(clerk);

  // Samples: readied, then handed out to the scanned card.
  await openConsolePage(clerk, "樣品借用");
  await expect(clerk).toHaveURL(/\/admin\/samples$/);
  await waitForHydration(clerk);
  for (const m of MATERIALS) {
    const sample = clerk.getByTestId("sample-row").filter({ hasText: m.name }).filter({ hasText: "周旅程" });
    await expect(sample).toHaveCount(1);
    await sample.getByRole("button", { name: /標示已備妥/ }).click();
    await expect(clerk.getByText("已標示為備妥。")).toBeVisible();
    await expect(sample.getByTestId("sample-status")).toHaveText("待領取");
  }
  await clerk.getByLabel("手機號碼或會員編號").fill(await cardToken(page));
  await clerk.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(clerk).toHaveURL(/\/admin\/samples\?member=[0-9a-f-]{36}/);
  const found = clerk.getByTestId("samples-member");
  await expect(found).toContainText(`周旅程（${memberNumber}）的樣品`);
  await found.getByRole("button", { name: "交付 2 件已備妥的樣品" }).click();
  await expect(clerk.getByText("已交付，應還日為 14 天後。")).toBeVisible();
  await expectAccessible(clerk);

  // The quote: answered with a price per line.
  await openConsolePage(clerk, "報價單");
  await expect(clerk).toHaveURL(/\/admin\/quotes/);
  await clerk.getByRole("link", { name: quoteReference }).click();
  await expect(clerk).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}$/);
  await waitForHydration(clerk);
  const prices = clerk.getByTestId("quote-price");
  await expect(prices).toHaveCount(2);
  // The subway tile (saved last) is listed first: 20 pieces × 90; then the porcelain: 10 m² × 1,200.
  await prices.nth(0).fill("90");
  await prices.nth(1).fill("1200");
  await clerk.getByRole("button", { name: "送出回覆" }).click();
  await expect(clerk.getByText("已回覆，會員會收到通知。")).toBeVisible();

  // Before leaving, a purchase at the counter: scanned again, then 登錄消費.
  await openConsolePage(clerk, "櫃檯");
  await waitForHydration(clerk);
  await clerk.getByLabel("手機號碼或會員編號").fill(await cardToken(page));
  await clerk.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(clerk).toHaveURL(/\/admin\/counter\/member\/[0-9a-f-]{36}\?scan=[\w.-]+$/);
  await expect(clerk.getByTestId("member-number")).toHaveText(memberNumber);
  await clerk.getByRole("link", { name: "登錄消費" }).click();
  await expect(clerk.getByRole("heading", { level: 1, name: "登錄消費" })).toBeVisible();
  await waitForHydration(clerk);
  await expect(clerk.getByTestId("purchase-store")).toHaveText("信義旗艦店");
  await clerk.getByLabel("發票或收據號碼").fill(`JR-${Date.now()}`);
  await clerk.getByLabel("消費淨額（新台幣元）").fill(String(AMOUNT));
  await clerk.getByRole("button", { name: "確認登錄" }).click();
  await expect(clerk.getByTestId("purchase-done")).toBeVisible();
  await clerkContext.close();

  // That evening, in the member center: both samples due back in 14 days, the quote answered.
  await pinClock(page, `${day}T20:00:00+08:00`);
  await gotoAndCheck(page, "/member-center/samples");
  const out = page.getByTestId("samples-out");
  await expect(out.getByRole("listitem")).toHaveCount(2);
  const due = zhDate(new Date(new Date(atVisit).getTime() + 14 * 86_400_000));
  await expect(out.getByRole("listitem").first()).toContainText(`請於 ${due} 前歸還`);
  await expectAccessible(page);
  await gotoAndCheck(page, "/member-center/quotes");
  const quote = page.getByTestId("member-quote").filter({ hasText: quoteReference });
  await expect(quote).toBeVisible();
  await quote.click();
  await expect(page.getByTestId("quote-status")).toHaveText("已回覆");
  await expect(page.getByTestId("quote-total")).toContainText("NT$13,800");
  await expectAccessible(page);

  // The admin's dashboard for that day: the kept consultation at 信義旗艦店 and the purchase that followed it.
  const adminContext = await browser.newContext({ baseURL: base, locale: "zh-TW", viewport: PHONE });
  const admin = await adminContext.newPage();
  await loginStaffByCookie(admin.request, adminContext, base, { role: "admin", displayName: "王總監" });
  await gotoAndCheck(admin, `/admin?from=${day}&to=${day}`);
  await waitForHydration(admin);
  const section = admin.getByTestId("dashboard-showroom");
  await expect(section.getByRole("heading", { level: 2, name: "展示廳" })).toBeVisible();
  const booked = admin.locator('[data-panel="appointments"] tbody tr').filter({ hasText: "信義旗艦" });
  await expect(booked.filter({ hasText: "設計諮詢" })).toHaveCount(1);
  const visits = admin
    .locator('[data-panel="visits"] tbody tr')
    .filter({ hasText: "信義旗艦" })
    .filter({ hasText: "設計諮詢" });
  await expect(visits).toHaveCount(1);
  await expect(visits).toContainText(`NT$${AMOUNT.toLocaleString("en-US")}`);
  await expect(admin.getByTestId("kpi-showroom-bought30")).toContainText(`NT$${AMOUNT.toLocaleString("en-US")}`);
  await expectAccessible(admin);
  await adminContext.close();
});
