import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, loginByCookie, newPhone } from "./support/members";
import { DESKTOP, PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Quote lists (issue 37 part 4, ADR 047), as a person walks it at phone size: a member saves two materials, turns
 * them into a quote request with quantities at 信義旗艦店 (a refused first try keeps what was typed), a clerk of
 * that store answers with prices in the console, and the member sees the answer, the printable page and the
 * consultation link. axe-core on every page; screenshots at 390×844 and 1280×800.
 */
const TILE = "kyoto-mist-porcelain";
const SUBWAY = "seaside-white-subway";

async function save(page: Page, materialId: string) {
  await gotoAndCheck(page, `/material-detail/${materialId}`);
  await waitForHydration(page);
  const saved = page.waitForResponse((r) => r.request().method() === "POST" && r.ok());
  await page.getByRole("button", { name: "收藏", exact: true }).click();
  await expect(page.getByRole("button", { name: "已收藏" })).toBeVisible();
  await saved;
}

test("a member asks for a quote from favourites, a clerk answers, the member sees it and prints it", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = baseURL ?? "";
  await page.setViewportSize(PHONE);
  const member = await createMember(page.request, { phoneNumber: newPhone().e164, name: "林詢價" });
  await loginByCookie(page.request, page.context(), base, member.userId);

  await save(page, TILE);
  await save(page, SUBWAY);

  // The favourites become a quote list.
  await gotoAndCheck(page, "/member-center");
  await page.getByTestId("ask-quote").click();
  await expect(page).toHaveURL(/\/member-center\/quotes\/new$/);
  await waitForHydration(page);
  await page.locator(`input[name="pick.${TILE}"]`).check();
  await page.locator(`input[name="qty.${TILE}"]`).fill("0");
  await page.locator(`input[name="note.${TILE}"]`).fill("客廳地坪");
  await page.locator(`input[name="pick.${SUBWAY}"]`).check();
  await page.locator(`select[name="unit.${SUBWAY}"]`).selectOption("piece");
  await page.locator(`input[name="qty.${SUBWAY}"]`).fill("2.5");
  await page.getByLabel("詢價門市").selectOption("xinyi-flagship");
  await page.getByLabel("給門市的訊息（選填）").fill("預計明年三月施工。");
  await page.getByRole("button", { name: "送出報價單" }).click();

  // Refused beside each field; everything typed is still there.
  await expect(page.getByText("數量需大於 0")).toBeVisible();
  await expect(page.getByText("以片計算時請填整數")).toBeVisible();
  await expect(page.locator(`input[name="note.${TILE}"]`)).toHaveValue("客廳地坪");
  await expect(page.getByLabel("給門市的訊息（選填）")).toHaveValue("預計明年三月施工。");
  await expect(page.locator(`input[name="pick.${SUBWAY}"]`)).toBeChecked();
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshotSizes(page, "quotes-new-refused", { sizes: [["phone", PHONE]] });

  await page.locator(`input[name="qty.${TILE}"]`).fill("12.5");
  await page.locator(`input[name="qty.${SUBWAY}"]`).fill("30");
  await screenshotSizes(page, "quotes-new", { restore: PHONE });
  await page.getByRole("button", { name: "送出報價單" }).click();
  await expect(page).toHaveURL(/\/member-center\/quotes\/[0-9a-f-]{36}$/);
  const quoteUrl = new URL(page.url()).pathname;
  const reference = (await page.getByTestId("quote-reference").first().textContent())?.trim() ?? "";
  expect(reference).toMatch(/^Q[2-9A-Z]{7}$/);
  await expect(page.getByTestId("quote-status")).toHaveText("等待回覆");
  await screenshotSizes(page, "quotes-member-requested", { restore: PHONE });
  await gotoAndCheck(page, "/member-center/quotes");
  await expect(page.getByTestId("member-quote")).toContainText(reference);
  await screenshotSizes(page, "quotes-member-list", { restore: PHONE });

  // A clerk of 信義旗艦店 answers in the console, on a phone too.
  const clerkContext = await browser.newContext({ baseURL, viewport: PHONE });
  const clerk = await clerkContext.newPage();
  await loginStaffByCookie(clerk.request, clerkContext, base, {
    role: "staff",
    storeIds: ["xinyi-flagship"],
    displayName: "王顧問",
  });
  await gotoAndCheck(clerk, "/admin/quotes?status=requested&store=xinyi-flagship");
  await screenshotSizes(clerk, "quotes-console-list", { restore: PHONE });
  await clerk.getByRole("link", { name: reference }).click();
  await expect(clerk).toHaveURL(/\/admin\/quotes\/[0-9a-f-]{36}$/);
  await waitForHydration(clerk);
  const prices = clerk.getByTestId("quote-price");
  await expect(prices).toHaveCount(2);
  await prices.nth(0).fill("-100");
  await prices.nth(1).fill("85");
  await clerk.getByRole("button", { name: "送出回覆" }).click();
  await expect(clerk.getByText("單價不可為負數")).toBeVisible();
  await expect(prices.nth(1)).toHaveValue("85");
  // Line 1 is the subway tile (saved last, listed first): 30 pieces × 85; line 2 the porcelain: 12.5 m² × 1,299.
  await prices.nth(0).fill("85");
  await prices.nth(1).fill("1299");
  await clerk.getByLabel("給會員的說明（選填）").fill("含運費，不含施工。");
  await clerk.evaluate(() => window.scrollTo(0, 0));
  await screenshotSizes(clerk, "quotes-console-quote", { restore: PHONE });
  await clerk.getByRole("button", { name: "送出回覆" }).click();
  await expect(clerk.getByText("已回覆，會員會收到通知。")).toBeVisible();
  await expect(clerk.getByTestId("quote-status")).toHaveText("已回覆");
  await gotoAndCheck(clerk, `${new URL(clerk.url()).pathname}/print`);
  await expect(clerk.getByRole("button", { name: "列印" })).toBeVisible();
  await screenshotSizes(clerk, "quotes-console-print", { restore: PHONE });
  await clerkContext.close();

  // The member sees the answer, the printable page and the consultation link.
  await gotoAndCheck(page, quoteUrl);
  await expect(page.getByTestId("quote-status")).toHaveText("已回覆");
  await expect(page.getByTestId("quote-total")).toContainText("NT$18,788");
  await expect(page.getByTestId("quote-staff-message")).toContainText("含運費，不含施工。");
  await expect(page.getByTestId("quote-book")).toHaveAttribute(
    "href",
    "/appointments/book?store=xinyi-flagship&kind=consultation",
  );
  await screenshotSizes(page, "quotes-member-answered", { restore: PHONE });
  await page.getByTestId("quote-printable").click();
  await expect(page).toHaveURL(/\/print$/);
  await waitForHydration(page);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(reference);
  await expect(page.getByRole("button", { name: "列印或存成 PDF" })).toBeVisible();
  await expectAccessible(page);
  await screenshotSizes(page, "quotes-member-print", { restore: PHONE });
  // On paper: the table, without the buttons.
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "列印或存成 PDF" })).toBeHidden();
  await expect(page.getByRole("table")).toContainText("NT$18,788");
  await page.emulateMedia({ media: "screen" });
});
