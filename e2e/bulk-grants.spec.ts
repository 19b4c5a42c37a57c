import type { Page } from "@playwright/test";
import { expect, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { createMember, newPhone } from "./support/members";
import { DESKTOP, PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Bulk point grants (issue 35 item 5, ADR 038), as people reach them from the console's navigation: a manager
 * grants points to a CSV of members (dry run, total, sent, applied by the job); a second grant that would pass
 * the manager limit for the day waits; another admin finds it under 點數核准 and approves it; the members'
 * balances show both.
 */

const screenshots = (page: Page, name: string) =>
  screenshotSizes(page, name, {
    sizes: [
      ["1280x800", DESKTOP],
      ["390x844", PHONE],
    ],
  });

async function newGrant(page: Page, fileName: string, csv: string) {
  await page.getByRole("link", { name: "新增批次贈點" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "新增批次贈點" })).toBeVisible();
  await waitForHydration(page);
  await page.getByLabel("贈點原因").fill("週年慶回饋");
  await page.getByLabel("CSV 檔案").setInputFiles({ name: fileName, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "試算" }).click();
  await expect(page).toHaveURL(/\/admin\/grants\/[0-9a-f-]{36}$/);
  await waitForHydration(page);
  return new URL(page.url()).pathname.split("/").at(-1) as string;
}

test("a manager grants points from a CSV; a second grant over the day's limit waits; another admin approves it", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const [a, b, c] = await Promise.all(
    ["陳怡君", "林家豪", "黃淑芬"].map((name) => createMember(page.request, { phoneNumber: newPhone().e164, name })),
  );
  if (!a || !b || !c) throw new Error("members not created");
  await loginStaffByCookie(page.request, page.context(), baseURL ?? "", {
    role: "manager",
    storeIds: ["xinyi-flagship"],
    displayName: "張店長",
  });

  // From the console's home, through the navigation.
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "批次贈點" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "批次贈點" })).toBeVisible();

  // The dry run: the total of the rows that will book, the refused row with its reason, what is left today.
  const first = await newGrant(
    page,
    "anniversary.csv",
    `會員編號,點數\n${a.memberNumber},300\n${b.memberNumber},400\nHL99999999,5\n`,
  );
  await expect(page.getByTestId("grant-total")).toHaveText("700");
  await expect(page.getByTestId("grant-rejected")).toContainText("找不到這位會員");
  await expect(page.getByTestId("grant-limit")).toContainText("今天還可直接贈出 1,000 點");
  await screenshots(page, "grant-checked");
  await page.getByTestId("grant-submit").click();
  await expect(page.getByText("已送出，開始贈點。")).toBeVisible();
  // The page follows the job (it reloads every 2 s) until the result.
  await expect(page.getByText("已贈點 700 點")).toBeVisible({ timeout: 60_000 });
  await screenshots(page, "grant-done");

  // A second grant the same day: 500 more would pass the limit of 1,000, so it waits for another admin.
  await page.getByRole("link", { name: "批次贈點" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "批次贈點" })).toBeVisible();
  const second = await newGrant(page, "second.csv", `會員編號,點數\n${c.memberNumber},500\n`);
  expect(second).not.toBe(first);
  await expect(page.getByTestId("grant-limit")).toContainText("今天還可直接贈出 300 點");
  await expect(page.getByText("今天已直接贈出的點數加上這次會超過上限")).toBeVisible();
  await expect(page.getByTestId("grant-submit")).toHaveText("送審");
  await page.getByTestId("grant-submit").click();
  await expect(page.getByText("今天直接贈出的點數已達上限，已送審，等待另一位管理員核准。")).toBeVisible();
  await expect(page.getByTestId("grant-approve")).toHaveCount(0);

  // Another admin, in their own browser, finds it under 點數核准 and approves it.
  const adminContext = await browser.newContext({ baseURL });
  try {
    const admin = await adminContext.newPage();
    await loginStaffByCookie(admin.request, adminContext, baseURL ?? "", { role: "admin", displayName: "王總監" });
    await gotoAndCheck(admin, "/admin");
    await admin.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "點數核准" }).click();
    await expect(admin.getByRole("heading", { level: 1, name: "點數核准" })).toBeVisible();
    const waiting = admin.locator(`[data-testid="approval-grant"][data-grant-id="${second}"]`);
    await expect(waiting).toContainText("共 500 點");
    await expect(waiting).toContainText("張店長");
    await screenshots(admin, "approvals-grants");
    await waiting.getByTestId("approval-grant-open").click();
    await expect(admin).toHaveURL(new RegExp(`/admin/grants/${second}$`));
    await waitForHydration(admin);
    await admin.getByTestId("grant-approve").click();
    await expect(admin.getByText("已核准，開始贈點。")).toBeVisible();
    await expect(admin.getByText("已贈點 500 點")).toBeVisible({ timeout: 60_000 });

    // The members' balances, on their console pages.
    for (const [m, points] of [
      [a, "300 點"],
      [b, "400 點"],
      [c, "500 點"],
    ] as const) {
      await gotoAndCheck(admin, `/admin/members/${m.memberId}/adjust`);
      await expect(admin.getByTestId("adjust-balance")).toHaveText(points);
    }
  } finally {
    await adminContext.close();
  }
});
