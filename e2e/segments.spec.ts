import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { bookHistory } from "./support/member-history";
import { createMember, newPhone } from "./support/members";
import { DESKTOP, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Saved segments (issue 38 part 6, ADR 056): an admin reaches 會員分群 from the console's home through the
 * navigation, builds a segment from a city and an RFM group, sees its live count, saves it, and starts a new
 * campaign from it with the campaign form's picker. The RFM summary is computed as of a day in January 2021 (the
 * test hook runs the nightly job's function), over purchases no other test makes (2020), so its groups are known:
 * three buyers in 連江縣 — X once the day before (new: R 4, F 1), Y once five days before (lost: R 1, F 1), Z
 * three times (at risk: R 2, F 4) — and a fourth member of 連江縣 without purchases (in no RFM group).
 */
test("an admin builds a segment with its live count, saves it, and uses it in a new campaign", async ({
  page,
  baseURL,
  context,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const request = page.request;
  const city = "連江縣";
  const buyer = async (name: string, purchases: string[]) => {
    const m = await createMember(request, { phoneNumber: newPhone().e164, name, city, marketing: { sms: true } });
    await bookHistory(request, m.userId, {
      purchases: purchases.map((at, i) => ({
        receiptNumber: `SEG-${m.memberNumber}-${i}`,
        netAmount: 1200 + i * 100,
        at: `${at}T14:00:00+08:00`,
      })),
    });
  };
  await buyer("林曉明", ["2021-01-09"]);
  await buyer("吳佳穎", ["2021-01-05"]);
  await buyer("蔡志豪", ["2020-06-01", "2020-10-01", "2021-01-08"]);
  await buyer("鄭雅婷", []);
  const rfm = await request.post("/__test/rfm/refresh", { data: { at: "2021-01-10T02:40:00+08:00" } });
  expect(rfm.ok(), await rfm.text()).toBe(true);
  expect(await rfm.json()).toMatchObject({ asOf: "2021-01-10", members: 3 });

  await loginStaffByCookie(request, context, base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize(DESKTOP);
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "會員分群" }).click();
  await expect(page).toHaveURL(/\/admin\/segments$/);
  await waitForHydration(page);
  await expect(page.getByTestId("rfm-as-of")).toContainText("2021");
  await expectAccessible(page);

  await page.getByRole("link", { name: "新增分群" }).click();
  await expect(page).toHaveURL(/\/admin\/segments\/new$/);
  await waitForHydration(page);
  const count = page.getByTestId("segment-count");
  await page.getByLabel("居住縣市").selectOption(city);
  await expect(count).toHaveText("4 位會員");
  await page.getByLabel("RFM 群組").selectOption({ label: "新顧客" });
  await expect(count).toHaveText("1 位會員");
  await page.getByLabel("RFM 群組").selectOption({ label: "流失風險" });
  await expect(count).toHaveText("1 位會員");
  await page.getByLabel("RFM 群組").selectOption("");
  await page.getByLabel("消費頻率（F）").selectOption({ label: "1 分" });
  await expect(count).toHaveText("2 位會員");
  await page.getByLabel("分群名稱").fill("馬祖近期新客");
  await page.getByLabel("消費頻率（F）").selectOption("");
  await page.getByLabel("RFM 群組").selectOption({ label: "新顧客" });
  await expect(count).toHaveText("1 位會員");
  await screenshotSizes(page, "console-segment-builder");
  await page.getByRole("button", { name: "儲存分群" }).click();
  await expect(page).toHaveURL(/\/admin\/segments\/[0-9a-f-]{36}\?created=1$/);
  await expect(page.getByText("已建立分群。")).toBeVisible();
  await expect(count).toHaveText("1 位會員");

  // A second segment of the same name is told beside the field, what was typed kept.
  await page.goto("/admin/segments/new");
  await waitForHydration(page);
  await page.getByLabel("分群名稱").fill(" 馬祖近期新客 ");
  await page.getByLabel("RFM 群組").selectOption({ label: "已流失" });
  await page.getByRole("button", { name: "儲存分群" }).click();
  await expect(page.getByText("已有同名的分群，請換一個名稱。")).toBeVisible();
  await expect(page.getByLabel("分群名稱")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("RFM 群組")).toHaveValue("lost");
  await expectAccessible(page);

  await page.goto("/admin/segments");
  await waitForHydration(page);
  await expect(page.getByTestId("segment-row").filter({ hasText: "馬祖近期新客" })).toBeVisible();
  await screenshotSizes(page, "console-segments");

  // A new campaign picks the saved segment: its filters fill the audience, the count follows.
  await page.goto("/admin/messages/campaigns/new");
  await waitForHydration(page);
  await page.getByLabel("使用已存的分群").selectOption({ label: "馬祖近期新客" });
  await page.getByRole("button", { name: "套用分群" }).click();
  await expect(page.getByText("已套用分群「馬祖近期新客」的條件。")).toBeVisible();
  await waitForHydration(page);
  await expect(page.getByLabel("居住縣市")).toHaveValue(city);
  await expect(page.getByLabel("RFM 群組")).toHaveValue("new");
  await page.getByLabel("活動名稱").fill("馬祖新客回訪禮");
  await page.getByLabel("簡訊", { exact: true }).fill("感謝您上週的光臨，本月回店再享九折。");
  await expect(page.getByTestId("count-total")).toHaveText("符合條件 1 人");
  await screenshotSizes(page, "console-campaign-from-segment");
  await page.getByRole("button", { name: "儲存草稿" }).click();
  await expect(page).toHaveURL(/\/admin\/messages\/campaigns\/[0-9a-f-]{36}\?created=1$/);
  await expect(page.getByLabel("RFM 群組")).toHaveValue("new");
  await expect(page.getByTestId("count-total")).toHaveText("符合條件 1 人");
});
