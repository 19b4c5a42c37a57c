import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  gotoAndCheck,
  latestOutboxMessage,
  pinClock,
  test,
  waitForHydration,
} from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Showroom appointments, the member's side (issue 37 part 1), at phone size as a person walks it: favourites two
 * materials, books a design consultation at 信義旗艦 from the store page, gets the confirmation by LINE (the local
 * fake) with the calendar file, reschedules and cancels; bad input answers 4xx.
 */

// Monday 7 December 2026, 10:00 in Taipei.
const NOW = "2026-12-07T10:00:00+08:00";
const MATERIALS = ["kyoto-mist-porcelain", "hualien-white-marble"];

test.use({ viewport: PHONE });

async function favourite(page: Page, id: string) {
  await gotoAndCheck(page, `/material-detail/${id}`);
  await waitForHydration(page);
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.ok());
  await page.getByRole("button", { name: "收藏" }).click();
  await saved;
}

test.describe("booking a showroom appointment", () => {
  test("a member books a design consultation from the store page, gets the confirmation, reschedules and cancels", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    await pinClock(page, NOW);
    const { userId } = await createMember(request, { phoneNumber: newPhone().e164, name: "陳預約" });
    const linked = await request.post(`/__test/members/${userId}/line`, { data: { name: "陳預約" } });
    const { lineUserId } = (await linked.json()) as { lineUserId: string };
    await loginByCookie(request, context, baseURL as string, userId);
    for (const id of MATERIALS) await favourite(page, id);

    // The store page leads to the booking.
    await gotoAndCheck(page, "/store-detail/xinyi-flagship");
    await page.getByTestId("book-visit").click();
    await expect(page.getByTestId("booking-store")).toHaveText("信義旗艦店");
    await page.getByRole("link", { name: /設計諮詢/ }).click();
    await expect(page.getByTestId("appointment-times")).toBeVisible();
    await page.getByTestId("appointment-days").getByRole("link", { name: /12\/9/ }).click();
    await expect(page.getByRole("link", { name: /12\/9/ })).toHaveAttribute("aria-current", "date");
    await page.getByText("14:00", { exact: true }).click();
    const materials = page.getByTestId("appointment-materials").getByRole("checkbox");
    await expect(materials).toHaveCount(2);
    await materials.nth(0).check();
    await materials.nth(1).check();
    await page.getByLabel("備註（選填）").fill("想看大理石與地磚的搭配");
    await screenshotSizes(page, "appointments-book", { restore: PHONE });
    await page.getByRole("button", { name: "確認預約" }).click();

    // The confirmation: what, where, when (Taipei), the calendar file and Google's link.
    await expect(page.getByRole("heading", { name: "預約完成" })).toBeVisible();
    await expect(page.getByTestId("appointment-when")).toContainText("14:00–15:00");
    await expect(page.getByText("京霧 石英磚", { exact: false })).toBeVisible();
    const ics = page.getByRole("link", { name: "下載行事曆檔（.ics）" });
    const file = await page.request.get((await ics.getAttribute("href")) as string);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toContain("text/calendar");
    const body = await file.text();
    expect(body).toContain("BEGIN:VEVENT\r\n");
    expect(body).toContain("DTSTART:20261209T060000Z");
    await expect(page.getByRole("link", { name: "加入 Google 日曆" })).toHaveAttribute(
      "href",
      /calendar\.google\.com.*20261209T060000Z/,
    );
    await screenshotSizes(page, "appointments-confirmed", { restore: PHONE });
    const reference = (await page.locator("dd").first().textContent()) ?? "";
    expect(reference).toMatch(/^[2-9A-Z]{8}$/);

    // The confirmation by LINE (the local fake), with the calendar file's link.
    await request.post("/__test/appointments/messages", { data: { at: NOW } });
    const sent = await request.get(`/__line/messaging/sent?to=${lineUserId}`);
    expect(JSON.stringify(await sent.json())).toContain(reference);
    expect(JSON.stringify(await sent.json())).toContain("calendar.ics");

    // Reschedule to another day and time.
    await waitForHydration(page);
    await page
      .locator("#reschedule")
      .getByRole("link", { name: /12\/10/ })
      .click();
    await expect(page.locator("#reschedule").getByRole("link", { name: /12\/10/ })).toHaveAttribute(
      "aria-current",
      "date",
    );
    await page.locator("#reschedule").getByText("15:30", { exact: true }).click();
    await page.getByRole("button", { name: "確認改期" }).click();
    await expect(page.getByTestId("appointment-when")).toContainText("15:30–16:30");
    await expect(page.getByTestId("appointment-when")).toContainText("10");

    // 我的預約 lists it as upcoming.
    await gotoAndCheck(page, "/member-center/appointments");
    await expect(page.getByTestId("appointment-item")).toHaveCount(1);
    await screenshotSizes(page, "appointments-list", { restore: PHONE });
    await page.getByTestId("appointment-item").click();

    // Cancel (confirmed in the dialog): the place is given back, the list keeps it as cancelled.
    await waitForHydration(page);
    page.once("dialog", (dialog) => dialog.accept());
    await page.getByRole("button", { name: "取消預約" }).click();
    await expect(page.getByTestId("appointment-status")).toHaveText("已取消");
    await expect(page.getByRole("button", { name: "取消預約" })).toHaveCount(0);
    await gotoAndCheck(page, "/member-center/appointments");
    await expect(page.getByRole("heading", { name: "過去的預約" })).toBeVisible();
    await expect(page.getByTestId("appointment-item")).toContainText("已取消");
    await expectAccessible(page);
  });

  test("bad input: a time outside the slots, a forged store, another member's booking, a NUL byte", async ({
    page,
    request,
    context,
    baseURL,
  }) => {
    await pinClock(page, NOW);
    const { userId } = await createMember(request, { phoneNumber: newPhone().e164 });
    await loginByCookie(request, context, baseURL as string, userId);
    await gotoAndCheck(page, "/appointments/book?store=xinyi-flagship&kind=visit&date=2026-12-09");
    await waitForHydration(page);
    // A forged hidden time: the message beside the field, the page keeps what was typed.
    await page.getByText("14:00", { exact: true }).click();
    await page.getByLabel("備註（選填）").fill("保留這段文字");
    await page.evaluate(() => {
      const checked = document.querySelector<HTMLInputElement>('input[name="time"]:checked');
      if (checked) checked.value = "14:10";
    });
    await page.getByRole("button", { name: "確認預約" }).click();
    await expect(page.getByText("這個時間不開放預約，請從列出的時間中選擇。")).toBeVisible();
    await expect(page.getByLabel("備註（選填）")).toHaveValue("保留這段文字");
    await expectAccessible(page);

    const post = (form: Record<string, string>) =>
      page.request.post("/appointments/book", { form, headers: { "x-test-now": NOW }, maxRedirects: 0 });
    const valid = { store: "xinyi-flagship", kind: "visit", date: "2026-12-09", time: "14:00" };
    expect((await post({ ...valid, store: "../etc" })).status()).toBe(400);
    expect((await post({ ...valid, store: "no-such-store" })).status()).toBe(400);
    expect((await post({ ...valid, kind: "massage" })).status()).toBe(400);
    expect((await post({ ...valid, date: "2026-12-06" })).status()).toBe(400);
    expect((await post({ ...valid, date: "2027-03-01" })).status()).toBe(400);
    expect((await post({ ...valid, time: "14:00\u0000" })).status()).toBeLessThan(500);
    expect((await post({ ...valid, note: "a\u0000b", materials: "forged-material" })).status()).toBe(400);
    expect(
      (
        await post({
          ...valid,
          kind: "measuring",
          date: "2026-12-09",
          time: "10:00",
          city: "tokyo",
          district: "x",
          street: "y",
        })
      ).status(),
    ).toBe(400);

    // Another member's booking is not found.
    const other = await createMember(request, { phoneNumber: newPhone().e164 });
    const otherPage = await context.browser()?.newContext();
    const otherTab = await otherPage?.newPage();
    if (!otherTab || !otherPage) throw new Error("no browser");
    await loginByCookie(request, otherPage, baseURL as string, other.userId);
    await otherTab.setExtraHTTPHeaders({ "x-test-now": NOW });
    await otherTab.goto("/appointments/book?store=xinyi-flagship&kind=visit&date=2026-12-11");
    await otherTab.getByText("11:00", { exact: true }).click();
    await otherTab.getByRole("button", { name: "確認預約" }).click();
    await expect(otherTab.getByRole("heading", { name: "預約完成" })).toBeVisible();
    const theirs = new URL(otherTab.url()).pathname;
    await otherPage.close();
    expect((await page.request.get(theirs)).status()).toBe(404);
    expect((await page.request.get(`${theirs}/calendar.ics`)).status()).toBe(404);
    expect((await page.request.post(theirs, { form: { intent: "cancel" } })).status()).toBe(404);
    expect((await page.request.get("/member-center/appointments/not-a-uuid")).status()).toBe(404);
  });
});

test.describe("a guest", () => {
  test("books a visit with a phone verified by an SMS code; a wrong code is told beside the field", async ({
    page,
    context,
  }) => {
    await pinClock(page, NOW);
    const phone = newPhone();
    await gotoAndCheck(page, "/appointments/book?store=xinyi-flagship&kind=visit&date=2026-12-10");
    await page.getByRole("link", { name: "沒有會員？以手機號碼預約" }).click();
    await expect(page.getByLabel("手機號碼")).toBeVisible();
    await waitForHydration(page);
    await page.getByText("11:30", { exact: true }).click();
    await page.getByLabel("姓名").fill("林訪客");
    await page.getByLabel("手機號碼").fill(phone.local);
    await page.getByRole("button", { name: "傳送驗證碼" }).click();
    await expect(page.getByText(`驗證碼已傳送到 ${phone.local}`)).toBeVisible();
    // The code, read from the development outbox in another tab, as a phone would show it.
    const outbox = await context.newPage();
    const sms = await latestOutboxMessage(outbox, { to: phone.e164, channel: "sms" });
    await outbox.close();
    const code = /\d{6}/.exec(sms.body)?.[0] as string;
    expect(sms.body).toContain("門市預約驗證碼");

    await page.getByLabel("簡訊驗證碼").fill("000000");
    await page.getByRole("button", { name: "確認預約" }).click();
    await expect(page.getByText("驗證碼不正確或已過期，請重新輸入。")).toBeVisible();
    await expect(page.getByLabel("姓名")).toHaveValue("林訪客");
    await page.getByText("11:30", { exact: true }).click();
    await page.getByLabel("簡訊驗證碼").fill(code);
    await page.getByRole("button", { name: "確認預約" }).click();
    // The answer is the guest's own page, by a signed link (no member center): the confirmation, kept to come back to.
    await expect(page.getByRole("heading", { name: "預約完成" })).toBeVisible();
    await expect(page).toHaveURL(/\/appointments\/manage\/[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}\?booked=1$/);
    await expect(page.getByTestId("appointment-reference")).toHaveText(/^[2-9A-Z]{8}$/);
    await expect(page.getByTestId("appointment-when")).toContainText("11:30–12:00");
    await expect(page.getByText("這一頁就是您的預約")).toBeVisible();
    await expect(page.getByRole("link", { name: "下載行事曆檔（.ics）" })).toHaveAttribute(
      "href",
      /^data:text\/calendar/,
    );
    await expectAccessible(page);
    await screenshotSizes(page, "appointments-guest-confirmed", { restore: PHONE });

    // Back later in another browser without the link: 查詢預約 from the booking page, the phone verified by a new
    // code (two minutes on: past the resend cooldown), the booking found and opened; moved, then cancelled.
    const link = new URL(page.url()).pathname;
    const later = await context.browser()?.newContext({ locale: "zh-TW", timezoneId: "Asia/Taipei" });
    const phonePage = await later!.newPage();
    await pinClock(phonePage, "2026-12-07T10:02:00+08:00");
    await gotoAndCheck(phonePage, "/appointments/book");
    await phonePage.getByRole("link", { name: "已預約？查詢、改期或取消" }).click();
    await expect(phonePage.getByRole("heading", { name: "查詢預約" })).toBeVisible();
    await expectAccessible(phonePage);
    await waitForHydration(phonePage);
    await phonePage.getByLabel("手機號碼").fill(phone.local);
    await phonePage.getByRole("button", { name: "傳送驗證碼" }).click();
    await expect(phonePage.getByText(`驗證碼已傳送到 ${phone.local}`)).toBeVisible();
    const outbox2 = await later!.newPage();
    let findCode = "";
    await expect(async () => {
      const message = await latestOutboxMessage(outbox2, { to: phone.e164, channel: "sms" }, { timeout: 5000 });
      findCode = /驗證碼為 (\d{6})/.exec(message.body)?.[1] ?? "";
      expect(findCode).not.toBe("");
      expect(findCode).not.toBe(code);
    }).toPass({ timeout: 30_000 });
    await outbox2.close();
    await phonePage.getByLabel("簡訊驗證碼").fill(findCode);
    await phonePage.getByRole("button", { name: "查詢預約" }).click();
    await expect(phonePage.getByTestId("found-appointment")).toHaveCount(1);
    await expectAccessible(phonePage);
    await screenshotSizes(phonePage, "appointments-guest-found", { restore: PHONE });
    await phonePage.getByTestId("found-appointment").click();
    await expect(phonePage).toHaveURL(new RegExp(`${link.replace(/[.]/g, "\\.")}$`));
    await expect(phonePage.getByRole("heading", { name: "預約內容" })).toBeVisible();
    await waitForHydration(phonePage);
    await phonePage.locator("#reschedule").getByText("14:00", { exact: true }).click();
    await phonePage.getByRole("button", { name: "確認改期" }).click();
    await expect(phonePage.getByTestId("appointment-when")).toContainText("14:00–14:30");
    await waitForHydration(phonePage);
    phonePage.once("dialog", (dialog) => dialog.accept());
    await phonePage.getByRole("button", { name: "取消預約" }).click();
    await expect(phonePage.getByTestId("appointment-status")).toHaveText("已取消");
    await screenshotSizes(phonePage, "appointments-guest-cancelled", { restore: PHONE });
    // A changed character of the link is no page (404), for reading and for a change alike.
    const forged = `${link.slice(0, -1)}${link.endsWith("A") ? "B" : "A"}`;
    expect((await phonePage.request.get(forged)).status()).toBe(404);
    expect((await phonePage.request.post(forged, { form: { intent: "cancel" } })).status()).toBe(404);
    await later!.close();
  });
});

/** LINE's in-app browser for a LIFF app on an iPhone (as e2e/liff-features.spec.ts). */
const LIFF_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.19.0 LIFF";

test.describe("inside LINE (LIFF, @line/liff-mock)", () => {
  test.use({ userAgent: LIFF_USER_AGENT, viewport: PHONE });

  test("the same booking from the store page works inside LINE and is recorded as booked in LIFF", async ({
    page,
    request,
    baseURL,
  }) => {
    await page.addInitScript(() => {
      window.__LIFF_MOCK__ = { isLoggedIn: true, isInClient: true, isApiAvailable: true };
    });
    await pinClock(page, NOW);
    const { userId } = await createMember(request, { phoneNumber: newPhone().e164, name: "王在LINE" });
    await loginByCookie(request, page.context(), baseURL as string, userId);
    await gotoAndCheck(page, "/store-detail/xinyi-flagship");
    await waitForHydration(page);
    await page.getByTestId("book-visit").click();
    await page.getByRole("link", { name: /設計諮詢/ }).click();
    await page
      .getByTestId("appointment-days")
      .getByRole("link", { name: /12\/11/ })
      .click();
    await expect(page.getByRole("link", { name: /12\/11/ })).toHaveAttribute("aria-current", "date");
    await page.getByText("19:00", { exact: true }).click();
    await page.getByRole("button", { name: "確認預約" }).click();
    await expect(page.getByRole("heading", { name: "預約完成" })).toBeVisible();
    await expectAccessible(page);
    const reference = (await page.locator("dd").first().textContent()) ?? "";
    const row = await request.get(`/__test/appointments/${reference}`);
    expect(await row.json()).toMatchObject({ source: "liff", status: "booked" });
    await page.screenshot({ path: "test-results/screenshots/appointments-liff-confirmed-phone.png", fullPage: true });
  });
});

test.describe("the store's appointment settings in the console", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("a manager sets a kind's places and start times for their store; a bad time is told beside the field; another store is 403", async ({
    page,
    baseURL,
  }) => {
    await loginStaffByCookie(page.request, page.context(), baseURL as string, {
      role: "manager",
      storeIds: ["banqiao"],
      displayName: "板橋店長",
    });
    await gotoAndCheck(page, "/admin/stores/banqiao");
    await page.getByRole("link", { name: "預約設定" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("預約設定");
    const visit = page.getByTestId("appointment-kind-visit");
    await visit.getByLabel("同時段人數").fill("4");
    await visit.getByLabel("星期一").fill("10:00, 25:00");
    await visit.getByRole("button", { name: "儲存" }).click();
    await expect(visit.getByText("時間請寫成 HH:MM（例如 10:30），以逗號分隔。")).toBeVisible();
    await expect(visit.getByLabel("同時段人數")).toHaveValue("4");
    await visit.getByLabel("星期一").fill("10:00, 16:00, 11:00");
    await visit.getByRole("button", { name: "儲存" }).click();
    await expect(page.getByText("已儲存預約設定")).toBeVisible();
    await expect(page.getByTestId("appointment-kind-visit").getByLabel("星期一")).toHaveValue("10:00, 11:00, 16:00");
    await screenshotSizes(page, "console-store-appointments");
    expect((await page.request.get("/admin/stores/xinyi-flagship/appointments")).status()).toBe(403);
  });
});
