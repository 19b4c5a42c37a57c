import { expect, expectAccessible, test, waitForHydration } from "./fixtures";
import { createMember, memberOnPhone, newPhone } from "./support/members";
import { PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * The walk-in sample loan at the counter (issue 37 part 3, ADR 046), on a phone as a clerk walks it: from the
 * console's navigation to the counter, the member's card typed in by a hand scanner, "借出樣品" on the member's
 * page, two samples ticked and handed out; a typed member number offers no loan. The member then sees both due
 * back in 14 days. The store is 竹北門市 (no other journey lends there). Pages checked with axe, photographed on a
 * phone and a laptop.
 */
const STORE = "zhubei";

test("a clerk scans the member's card at the counter and hands out two samples; the member sees them due back", async ({
  page,
  browser,
  context,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const stamp = Date.now() % 100_000;
  await loginStaffByCookie(page.request, context, base, {
    role: "staff",
    storeIds: [STORE],
    displayName: `竹北樣品${stamp}`,
  });
  const created = await createMember(page.request, { phoneNumber: newPhone().e164, name: "周借樣" });

  // From the console's home to the counter by the navigation, on a phone.
  await page.setViewportSize(PHONE);
  await page.goto("/admin");
  await waitForHydration(page);
  await page.getByText("選單", { exact: true }).click();
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "櫃檯" }).first().click();
  await expect(page).toHaveURL(/\/admin\/counter$/);
  await waitForHydration(page);

  // A typed member number finds the member, but lends nothing: no loan button.
  await page.getByLabel("手機號碼或會員編號").fill(created.memberNumber);
  await page.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/counter/member/${created.memberId}$`));
  await expect(page.getByTestId("member-name")).toHaveText("周借樣");
  await expect(page.getByRole("link", { name: "借出樣品" })).toHaveCount(0);

  // The member's card, typed in by a hand scanner: the loan is offered.
  await page.goto("/admin/counter");
  await waitForHydration(page);
  const tokenRes = await page.request.post("/__test/card-tokens", { data: { memberNumber: created.memberNumber } });
  const { token } = (await tokenRes.json()) as { token: string };
  await page.getByLabel("手機號碼或會員編號").fill(token);
  await page.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/counter/member/${created.memberId}\\?scan=`));
  await page.getByRole("link", { name: "借出樣品" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/counter/member/${created.memberId}/samples\\?scan=`));
  await expect(page.getByRole("heading", { level: 1, name: "借出樣品給 周借樣" })).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByTestId("lend-open-count")).toHaveText("借用中與申請中：0 / 5 件");

  // Sent with nothing ticked: told beside the boxes.
  await page.getByTestId("lend-submit").click();
  await expect(page.locator("#materials-error")).toHaveText("請至少勾選一件樣品。");
  const summary = page.getByRole("alert").filter({ hasText: "請依欄位旁的說明修正後再送出。" });
  await expect(summary).toBeVisible();
  const boxes = page.getByTestId("lend-materials").getByRole("checkbox");
  await expect(boxes.first()).toHaveAttribute("aria-invalid", "true");
  await expect(boxes.first()).toHaveAttribute("aria-describedby", "materials-error");
  await expectAccessible(page);
  // Ticking one answers it at once, before any send: the error, the summary above the form and the boxes' invalid
  // marks go.
  await boxes.first().check();
  await expect(page.locator("#materials-error")).toHaveCount(0);
  await expect(summary).toHaveCount(0);
  await expect(boxes.first()).not.toHaveAttribute("aria-invalid", /.*/);
  await expect(boxes.first()).not.toHaveAttribute("aria-describedby", /.*/);
  await expect(page.getByTestId("lend-materials")).not.toHaveAttribute("aria-describedby", /.*/);
  await expectAccessible(page);

  // Two ticked and handed out.
  expect(await boxes.count()).toBeGreaterThanOrEqual(2);
  const names: string[] = [];
  for (const i of [0, 1]) {
    const box = boxes.nth(i);
    const id = (await box.getAttribute("id")) ?? "";
    names.push((await page.locator(`label[for="${id}"]`).innerText()).trim());
    await box.check();
  }
  await screenshotSizes(page, "counter-samples-lend", { restore: PHONE });
  await page.getByTestId("lend-submit").click();
  await expect(page.getByText(/^已交付 2 件樣品，應還日 \d{4}\/\d{2}\/\d{2}。$/)).toBeVisible();
  await expect(page.getByTestId("lend-open-count")).toHaveText("借用中與申請中：2 / 5 件");
  await expect(page.getByTestId("lend-materials")).toContainText(`${names[0]}· 已申請或借用中`);
  await expectAccessible(page);
  await screenshotSizes(page, "counter-samples-lent", { restore: PHONE });

  // The member, on their phone: both out, due back in 14 Taipei days.
  const due = new Intl.DateTimeFormat("zh-TW", {
    timeZone: "Asia/Taipei",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + 14 * 86_400_000));
  const { context: memberContext, page: phone } = await memberOnPhone(browser, page.request, base, created.userId);
  await phone.goto("/member-center/samples");
  const out = phone.getByTestId("samples-out");
  await expect(out.getByRole("listitem")).toHaveCount(2);
  for (const name of names) await expect(out).toContainText(name);
  await expect(out.getByRole("listitem").first()).toContainText(`請於 ${due} 前歸還`);
  await expectAccessible(phone);
  await memberContext.close();
});
