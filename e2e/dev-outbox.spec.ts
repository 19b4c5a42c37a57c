import path from "node:path";
import { expect, expectAccessible, gotoAndCheck, latestOutboxMessage, test, waitForHydration } from "./fixtures";

/**
 * Messaging in the browser: the diagnostics page queues a text message and an e-mail through the
 * job queue; the development outbox shows both (the e-mail's HTML in a sandboxed frame).
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

test.use({ viewport: { width: 390, height: 844 } });

test("messages queued on /test-crud arrive in /dev/outbox", async ({ page }) => {
  await gotoAndCheck(page, "/test-crud");
  const messaging = page.getByRole("region", { name: "訊息寄送測試" });
  const recipient = messaging.getByLabel("收件人");

  await recipient.fill("0912 000 777");
  await messaging.getByRole("button", { name: "寄送測試簡訊" }).click();
  await expect(page.getByTestId("message-queued")).toHaveText(/已排入寄送佇列：0912 000 777/);
  await expectAccessible(page);

  await recipient.fill("Member.Test@Example.com");
  await messaging.getByRole("button", { name: "寄送測試電子郵件" }).click();
  await expect(page.getByTestId("message-queued")).toHaveText(/已排入寄送佇列：Member\.Test@Example\.com/);

  // The link goes to the outbox filtered for that recipient; the job may need a moment.
  await page.getByRole("link", { name: "開啟開發用寄件匣" }).click();
  await expect(page).toHaveURL(/\/dev\/outbox\?to=Member\.Test%40Example\.com&channel=email$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("outbox-message")).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await waitForHydration(page);

  const mail = page.getByTestId("outbox-message");
  await expect(mail.getByTestId("outbox-subject")).toHaveText(/^\d{6} 是您的漢生活電子郵件驗證碼$/);
  await expect(mail.getByTestId("outbox-to")).toHaveText("member.test@example.com");
  // The HTML preview renders inside its sandbox: the code stands alone, large, and nothing links.
  const preview = page.frameLocator('[data-testid="outbox-html"]');
  await expect(preview.getByRole("heading", { level: 1, name: "驗證電子郵件" })).toBeVisible();
  const code = preview.getByText(/^\d{6}$/);
  await expect(code).toBeVisible();
  expect(await code.evaluate((el) => getComputedStyle(el).fontSize)).toBe("36px");
  await expect(preview.locator("a, img, script")).toHaveCount(0);
  const subject = await mail.getByTestId("outbox-subject").textContent();
  expect(subject).toContain((await code.textContent()) ?? "missing");
  const frame = page.getByTestId("outbox-html");
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(frame).toHaveAttribute("title", `電子郵件「${subject}」的 HTML 預覽`);
  await expectAccessible(page);

  // axe cannot enter a script-less sandbox: the e-mail's own document is checked on its own page.
  const mailHtml = (await frame.getAttribute("srcdoc")) ?? "";
  const mailPage = await page.context().newPage();
  await mailPage.setContent(mailHtml);
  await expect(mailPage).toHaveTitle(subject ?? "");
  await expectAccessible(mailPage);
  await mailPage.close();

  // What a test of the sign-up will do: read the newest message for a number.
  expect(await latestOutboxMessage(page, { to: "0912000777", channel: "sms" })).toEqual({
    to: "+886912000777",
    subject: null,
    body: "【漢生活】這是開發診斷頁面寄出的測試簡訊，無需回覆。",
  });
  const mailEntry = await latestOutboxMessage(page, { to: "member.test@example.com", channel: "email" });
  expect(mailEntry.subject).toBe(subject);
  expect(mailEntry.body).toMatch(/驗證電子郵件\n\n請輸入以下驗證碼，確認這是您的電子郵件地址：\n\n {4}\d{6}\n/);

  // The whole outbox: both messages, newest first.
  await gotoAndCheck(page, "/dev/outbox");
  await expect(page.getByTestId("sms-provider")).toHaveText("outbox");
  const sms = page.locator('[data-testid="outbox-message"][data-channel="sms"]').filter({ hasText: "+886912000777" });
  await expect(sms.getByTestId("outbox-body")).toHaveText("【漢生活】這是開發診斷頁面寄出的測試簡訊，無需回覆。");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, "horizontal overflow (px)").toBeLessThanOrEqual(0);
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({
    path: path.join(SCREENSHOT_DIR, "dev-outbox-390x844.png"),
    fullPage: true,
    animations: "disabled",
  });
  // Chromium leaves sandboxed (out-of-process) frames blank in full-page captures: the e-mail
  // preview gets a viewport screenshot of its own.
  // Newest first: this test's e-mail heads the list (other journeys of this worker may have left theirs below).
  await page.getByTestId("outbox-html").first().scrollIntoViewIfNeeded();
  await expect(
    page
      .frameLocator('[data-testid="outbox-html"]')
      .first()
      .getByText(/^\d{6}$/),
  ).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, "dev-outbox-email-390x844.png"), animations: "disabled" });
});

test("the outbox filter explains a recipient it cannot read", async ({ page }) => {
  await gotoAndCheck(page, "/dev/outbox?to=12345");
  await expect(page.getByText("請輸入手機號碼（09 開頭）或電子郵件地址。")).toBeVisible();
  await expect(page.getByLabel("收件人")).toHaveValue("12345");
  await page.getByRole("link", { name: "清除篩選" }).click();
  await expect(page).toHaveURL(/\/dev\/outbox$/);
  await expectAccessible(page);
});
