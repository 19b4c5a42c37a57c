import {
  expect,
  expectAccessible,
  gotoAndCheck,
  latestOutboxMessage,
  pinClock,
  test,
  waitForHydration,
} from "./fixtures";
import { adjustPoints } from "./support/member-history";
import { createMember, newPhone } from "./support/members";
import { screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie, totpCode } from "./support/staff";

/**
 * Campaign results (issue 38 part 5, ADR 055), the browser journey: an admin composes a campaign e-mail
 * with a link (reaching the composer through the console's navigation), the member receives it in the e-mail
 * outbox with their own click link, opens it (twice: one click recorded) and lands on the page the admin linked,
 * buys at the counter within the 7 days, and the campaign's page shows 1 delivered, 1 click and 1 attributed
 * purchase with its revenue. A forged link is the 404 page. The delivery runs through the test hook at pinned
 * instants (the instance's own dispatcher runs on the real clock).
 */
test("a campaign e-mail with a link: the member clicks it and buys at the counter; the campaign shows 1 click and 1 purchase", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = baseURL ?? "";
  const request = page.request;
  // The member: reachable by e-mail, with a balance no other journey's member has (the campaign's audience).
  const balance = 20_000 + (Date.now() % 9_000);
  const email = `results-${Date.now()}@example.com`;
  const member = await createMember(request, {
    phoneNumber: newPhone().e164,
    name: "陳怡君",
    email,
    marketing: { email: true },
  });
  await adjustPoints(request, member.userId, balance);

  const admin = await loginStaffByCookie(request, page.context(), base, { role: "admin", displayName: "李行銷" });
  await page.setViewportSize({ width: 1280, height: 800 });
  const sentAt = "2027-09-01T11:00:00+08:00";
  await pinClock(page, sentAt);

  // From the console's home to a new campaign by the navigation.
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "會員訊息" }).click();
  await expect(page).toHaveURL(/\/admin\/messages$/);
  await page.getByRole("link", { name: "新增活動" }).click();
  await waitForHydration(page);
  const name = `秋季新品 ${balance}`;
  const target = `${base}/materials?from=autumn`;
  await page.getByLabel("活動名稱").fill(name);
  await page.getByLabel("點數至少").fill(String(balance));
  await page.getByLabel("點數至多").fill(String(balance));
  await page.getByLabel("電子郵件主旨").fill("秋季新品到店");
  await page.getByLabel("電子郵件內文").fill(`秋季新色到店，看看這裡：${target}\n\n歡迎蒞臨門市。`);
  // The results are measured over 7 days; a control group is refused above half the audience.
  await expect(page.getByLabel("成效計算天數")).toHaveValue("7");
  await page.getByLabel("對照組比例（%）").fill("80");
  await page.getByRole("button", { name: "寄送…" }).click();
  await expect(page.getByText("請輸入 0 到 50 之間的整數")).toBeVisible();
  await expect(page.getByLabel("對照組比例（%）")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("電子郵件主旨")).toHaveValue("秋季新品到店");
  await expectAccessible(page);
  await waitForHydration(page);
  await page.getByLabel("對照組比例（%）").fill("0");
  await page.getByRole("button", { name: "寄送…" }).click();
  const confirm = page.getByTestId("confirm-send");
  await expect(confirm).toContainText("將寄給 1 位會員");
  await confirm.getByLabel("驗證碼").fill(totpCode(admin.totpSecret, 0, new Date(sentAt)));
  await confirm.getByRole("button", { name: "確認寄送" }).click();
  await expect(page.getByText("已開始寄送。")).toBeVisible();
  const campaignPath = new URL(page.url()).pathname;
  const deliver = await request.post("/__test/messages/deliver", { data: { at: "2027-09-01T11:01:00+08:00" } });
  expect(deliver.ok(), await deliver.text()).toBe(true);

  // The e-mail carries the member's own click link instead of the address.
  const mail = await latestOutboxMessage(page, { to: email, channel: "email" });
  expect(mail.subject).toBe("秋季新品到店");
  expect(mail.body).not.toContain("/materials?from=autumn");
  const link = /https?:\/\/[^\s]+\/r\/[A-Za-z0-9_-]{39}/.exec(mail.body)?.[0] ?? "";
  expect(link, mail.body).not.toBe("");

  // The member opens it on their phone the next evening, twice: the page the admin linked, one click recorded.
  const phone = await browser.newContext({ baseURL: base, locale: "zh-TW", timezoneId: "Asia/Taipei" });
  const reader = await phone.newPage();
  await reader.setViewportSize({ width: 390, height: 844 });
  await pinClock(reader, "2027-09-02T20:00:00+08:00");
  for (let i = 0; i < 2; i++) {
    await reader.goto(new URL(link).pathname);
    await expect(reader).toHaveURL(/\/materials\?from=autumn$/);
  }
  // A forged link is the calm 404 page, never a redirect.
  const forged = `/r/${"A".repeat(39)}`;
  await gotoAndCheck(reader, forged, { status: 404 });
  await expect(reader).toHaveURL(new RegExp(`${forged}$`));
  await phone.close();

  // Four days after the e-mail she buys at the counter.
  const desk = await browser.newContext({ baseURL: base, locale: "zh-TW", timezoneId: "Asia/Taipei" });
  await loginStaffByCookie(request, desk, base, { role: "staff", storeIds: ["luodong"], displayName: "張櫃台" });
  const counter = await desk.newPage();
  await counter.setViewportSize({ width: 1280, height: 800 });
  await pinClock(counter, "2027-09-05T15:00:00+08:00");
  await gotoAndCheck(counter, "/admin/counter");
  await counter.getByLabel("手機號碼或會員編號").fill(member.memberNumber);
  await counter.getByRole("button", { name: "查詢", exact: true }).click();
  await expect(counter.getByTestId("member-name")).toHaveText("陳怡君");
  await counter.getByRole("link", { name: "登錄消費" }).click();
  await waitForHydration(counter);
  await counter.getByLabel("發票或收據號碼").fill(`CR-${balance}`);
  await counter.getByLabel("消費淨額（新台幣元）").fill("3280");
  await counter.getByRole("button", { name: "確認登錄" }).click();
  await expect(counter.getByTestId("purchase-done")).toBeVisible();
  await desk.close();

  // The next morning the admin opens the campaign from the list: 1 delivered, 1 click, 1 purchase, NT$3,280.
  await pinClock(page, "2027-09-06T10:00:00+08:00");
  await gotoAndCheck(page, "/admin");
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "會員訊息" }).click();
  // (The confirmation step saved a draft of the same name before the send: the sent one is the one opened.)
  await page
    .getByRole("link", { name })
    .and(page.locator(`[href="${campaignPath}"]`))
    .click();
  await expect(page).toHaveURL(new RegExp(`${campaignPath}$`));
  const outcome = page.getByTestId("campaign-outcome");
  await expect(outcome.getByTestId("outcome-delivered")).toContainText("1");
  await expect(outcome.getByTestId("outcome-clicked")).toContainText("1");
  await expect(outcome.getByTestId("outcome-purchases")).toContainText("1");
  await expect(outcome.getByTestId("outcome-revenue")).toContainText("NT$3,280");
  await expect(outcome.getByTestId("outcome-points")).toContainText("0");
  await expect(outcome).toContainText("這個活動沒有對照組");
  await screenshotSizes(page, "campaign-results");
});
