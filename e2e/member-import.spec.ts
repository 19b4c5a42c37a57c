import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { testUserId } from "../server/line/local-provider";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { IMPORT_FIXTURE, localLineUserId } from "./fixtures/import/people";
import { latestSmsCode, STRONG_PASSWORD } from "./support/members";
import { DESKTOP, PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Issue 35, "Done when": an admin moves a brand's members in. From the console home (nav 匯入會員) the admin
 * imports a small Firebase export (users.json, memberList.json and hash.json, the passwords hashed by the npm
 * `firebase-scrypt` package: e2e/fixtures/import/make-fixtures.ts) and then a Big5 CSV of another CRM (encoding
 * left on 自動判斷), each through its dry run (試算), start (開始匯入), progress bar and result. Then the members:
 * the Firebase member logs in with the old password and sees the points the CSV row with the same phone brought
 * (a merge); the LINE member of the Firebase file logs in with the local LINE provider and is that member; a CSV
 * member claims the account with an SMS code (the welcome link on the login page). At their first visit each of
 * them accepts the terms and the privacy notice before the member center. Last, the same files imported
 * again: nothing created, every row unchanged, the balances as they were.
 */
const DIR = path.resolve(import.meta.dirname, "fixtures/import");
const FILES = {
  users: path.join(DIR, "users.json"),
  members: path.join(DIR, "memberList.json"),
  hash: path.join(DIR, "hash.json"),
  csv: path.join(DIR, "members-big5.csv"),
};
const { firebaseMember, lineMember, csv } = IMPORT_FIXTURE;

/** The run page at the desktop and phone sizes: axe on the phone too, no sideways scrolling, a screenshot each. */
const screenshots = (page: Page, name: string) =>
  screenshotSizes(page, name, {
    sizes: [
      ["1280x800", DESKTOP],
      ["390x844", PHONE],
    ],
    axe: "phone",
  });

/** A figure of the dry-run report or the result ("1,200" → 1200), by its test id (import-report-create …). */
async function figure(page: Page, testId: string): Promise<number> {
  const cell = page.getByTestId(testId);
  await expect(cell).toBeVisible();
  return Number(((await cell.textContent()) ?? "").replace(/[^\d]/g, ""));
}

/** After 開始匯入: the progress bar while it runs (unless it is already done), then the result. */
async function waitForResult(page: Page): Promise<void> {
  const result = page.getByTestId("import-result");
  const progress = page.getByRole("progressbar", { name: "匯入進度" });
  await expect(progress.or(result)).toBeVisible({ timeout: 30_000 });
  await expect(result).toBeVisible({ timeout: 120_000 });
  await expect(progress).toHaveCount(0);
  await expect(page.getByText("已完成").first()).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page);
}

/** The Firebase files, uploaded and checked (the dry run's report on the run page). */
async function uploadFirebase(page: Page) {
  await expect(page).toHaveURL(/\/admin\/imports\/firebase$/);
  await expect(page.getByRole("heading", { level: 1, name: "從原系統匯入" })).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page);
  await page.getByLabel("登入帳號 users.json").setInputFiles(FILES.users);
  await page.getByLabel("會員資料 memberList").setInputFiles(FILES.members);
  await page.getByLabel(/^密碼雜湊參數 hash\.json/).setInputFiles(FILES.hash);
  // A sample login from the old system: the dry run proves the hash key right with it.
  await page.getByLabel("手機或 Email").fill(firebaseMember.phoneLocal);
  await page.getByLabel("密碼", { exact: true }).fill(firebaseMember.password);
  await page.getByRole("button", { name: "讀取檔案並試算" }).click();
  await expect(page).toHaveURL(/\/admin\/imports\/[^/]+$/, { timeout: 60_000 });
  await expect(page).not.toHaveURL(/\/admin\/imports\/(firebase|csv)$/);
  await showReport(page);
}

/** The dry run's report on the run page. */
async function showReport(page: Page) {
  const report = page.getByTestId("import-report");
  await expect(report).toBeVisible({ timeout: 60_000 });
  await expect(report.getByRole("heading", { name: "試算結果" })).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page);
}

/** The Big5 CSV, uploaded with the encoding left on 自動判斷, mapped and previewed; returns the report. */
async function uploadCsv(page: Page, options: { screenshots?: boolean } = {}) {
  await expect(page).toHaveURL(/\/admin\/imports\/csv$/);
  await expect(page.getByRole("heading", { level: 1, name: "匯入 CSV" })).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page);
  await page.getByLabel("CSV 檔案").setInputFiles(FILES.csv);
  await page.getByLabel("來源代號").fill(csv.source);
  await expect(page.getByLabel("編碼")).toHaveValue(/auto|^$/);
  await page.getByRole("button", { name: "上傳並對應欄位" }).click();

  // The mapping step: the headers, read from Big5 (自動判斷 found it), each guessed to its target.
  await expect(page.getByTestId("import-mapping-form")).toBeVisible({ timeout: 60_000 });
  await waitForHydration(page);
  const guessed: [string, string][] = [
    ["會員編號", "externalId"],
    ["姓名", "nameZh"],
    ["手機", "phoneNumber"],
    ["點數", "points"],
    ["點數到期日", "pointsLastDay"],
    ["生日", "birthday"],
  ];
  for (const [header, target] of guessed) {
    await expect(page.getByLabel(`欄位「${header}」`, { exact: true })).toHaveValue(target);
  }
  // The preview: the rows as they will be stored, Chinese names read correctly from Big5 (許 and 功 carry a
  // backslash byte in Big5, which a reader that splits bytes breaks).
  const preview = page.getByTestId("import-preview");
  await expect(preview).toBeVisible();
  await expect(preview.getByText(csv.claimer.name)).toBeVisible();
  await expect(preview.getByText(csv.third.name)).toBeVisible();
  await expect(preview.getByText(firebaseMember.name)).toBeVisible();
  await expectAccessible(page);
  if (options.screenshots) await screenshots(page, "import-csv-mapping");
  await page.getByRole("button", { name: "試算", exact: true }).click();
  await showReport(page);
}

/** The imports list, from the console's navigation. */
async function openImports(page: Page) {
  await gotoAndCheck(page, "/admin");
  const entry = page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "匯入會員" });
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page).toHaveURL(/\/admin\/imports$/);
  await expect(page.getByRole("heading", { level: 1, name: "匯入會員" })).toBeVisible();
  await waitForHydration(page);
  await expectAccessible(page);
}

async function memberPage(browser: Browser, baseURL: string, viewport = { width: 390, height: 844 }) {
  const context = await browser.newContext({
    baseURL,
    locale: "zh-TW",
    timezoneId: "Asia/Taipei",
    viewport,
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  return { context, page: await context.newPage() };
}

/** On the local provider's authorize page: the "other" test user of that name, agreed. */
async function authorizeAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/__line\/oauth2\/v2\.1\/authorize\?/);
  await page.getByRole("radio", { name: "其他測試使用者" }).check();
  await page.getByLabel("其他測試使用者的名稱").fill(name);
  await page.getByRole("button", { name: "同意並登入" }).click();
}

// A step that cannot happen fails within a minute, with its locator, instead of at the end of the test's budget.
test.use({ actionTimeout: 30_000, navigationTimeout: 60_000 });

// A failure shows what the server printed (an error page in the console says little).
test.afterEach(async ({ appServer }, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach("server-output", { body: appServer.output(), contentType: "text/plain" });
  }
});

/**
 * The first visit of an imported member: the terms and the privacy notice first (ADR 038 "Consents"), with the
 * sign-up step 1 checkbox; accepting continues to the member center.
 */
async function acceptTermsFirst(member: Page) {
  await expect(member).toHaveURL(/\/accept-terms\?redirectTo=%2Fmember-center$/);
  await expect(member.getByRole("heading", { level: 1 })).toHaveText("請閱讀並同意會員條款與隱私權政策");
  await waitForHydration(member);
  await expectAccessible(member);
  await member.getByRole("checkbox").check();
  await member.getByRole("button", { name: "同意並繼續" }).click();
  await expect(member).toHaveURL(/\/member-center$/);
}

test("an admin imports a Firebase export and a Big5 CSV; the members log in with their old password, LINE and an SMS code; the same files again change nothing", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(600_000);
  const base = baseURL ?? "";
  // The fixture's LINE member is the local provider's user of that name.
  expect(localLineUserId(lineMember.lineUserName)).toBe(testUserId(lineMember.lineUserName));

  await loginStaffByCookie(page.request, page.context(), base, { role: "admin", displayName: "王總監" });
  await page.setViewportSize({ width: 1280, height: 800 });

  // ——— The Firebase export ———
  await openImports(page);
  await page.getByRole("link", { name: "從原系統匯入" }).click();
  await uploadFirebase(page);
  // The sample login from the old system matched: the hash key is right.
  await expect(page.getByTestId("import-password-check")).toHaveAttribute("data-result", "ok");
  await expect(page.getByTestId("import-password-check")).toContainText("範例密碼相符");
  expect(await figure(page, "import-report-rows")).toBe(2);
  expect(await figure(page, "import-report-create")).toBe(2);
  expect(await figure(page, "import-report-reject")).toBe(0);
  const firebaseRunUrl = page.url();
  await screenshots(page, "import-firebase-report");
  await page.getByRole("button", { name: "開始匯入" }).click();
  await waitForResult(page);
  expect(await figure(page, "import-result-created")).toBe(2);
  expect(await figure(page, "import-result-rejected")).toBe(0);
  await screenshots(page, "import-firebase-result");

  // ——— The Big5 CSV ———
  await openImports(page);
  await page.getByRole("link", { name: "匯入 CSV" }).click();
  await uploadCsv(page, { screenshots: true });
  expect(await figure(page, "import-report-rows")).toBe(3);
  // The first row has the Firebase member's phone: merged into them, with its balance.
  expect(await figure(page, "import-report-create")).toBe(2);
  expect(await figure(page, "import-report-merge")).toBe(1);
  expect(await figure(page, "import-report-reject")).toBe(0);
  expect(await figure(page, "import-report-points")).toBe(csv.mergedPoints + csv.claimer.points + csv.third.points);
  await screenshots(page, "import-csv-report");
  await page.getByRole("button", { name: "開始匯入" }).click();
  await waitForResult(page);
  expect(await figure(page, "import-result-created")).toBe(2);
  expect(await figure(page, "import-result-merged")).toBe(1);
  expect(await figure(page, "import-result-points")).toBe(csv.mergedPoints + csv.claimer.points + csv.third.points);
  await screenshots(page, "import-csv-result");

  // Both runs are in the list.
  await openImports(page);
  await expect(page.getByRole("row").filter({ hasText: "原系統（Firebase）" })).toHaveCount(1);
  await expect(page.getByRole("row").filter({ hasText: csv.source })).toHaveCount(1);
  await screenshots(page, "import-list");

  // The imported members are in the console, the Big5 name stored as read (許 and 功 survived).
  await page.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "會員", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await page.getByRole("searchbox", { name: "搜尋會員" }).fill(csv.third.name);
  await page.getByRole("button", { name: "搜尋", exact: true }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: csv.third.name })).toHaveCount(1);

  // ——— The Firebase member: the old password, and the points of the merged CSV row ———
  {
    const { context, page: member } = await memberPage(browser, base);
    await gotoAndCheck(member, "/member-login");
    await member.getByLabel("手機號碼").fill(firebaseMember.phoneLocal);
    await member.getByLabel("密碼", { exact: true }).fill(firebaseMember.password);
    await member.getByRole("button", { name: "登入", exact: true }).click();
    await acceptTermsFirst(member);
    await expect(member.getByTestId("header-member")).toContainText(firebaseMember.name);
    await expect(member.getByTestId("points-balance")).toHaveText(csv.mergedPoints.toLocaleString("en-US"));
    await waitForHydration(member);
    await expectAccessible(member);
    // The password was upgraded to ours in that login: it still works the next time.
    await context.clearCookies();
    await member.goto("/member-login");
    await waitForHydration(member);
    await member.getByLabel("手機號碼").fill(firebaseMember.phoneLocal);
    await member.getByLabel("密碼", { exact: true }).fill(firebaseMember.password);
    await member.getByRole("button", { name: "登入", exact: true }).click();
    await expect(member).toHaveURL(/\/member-center$/);
    await context.close();
  }

  // ——— The LINE member: LINE login with the local provider, as the imported member ———
  {
    const { context, page: member } = await memberPage(browser, base);
    await gotoAndCheck(member, "/member-login");
    await member.getByRole("button", { name: "LINE 登入" }).click();
    await authorizeAs(member, lineMember.lineUserName);
    await acceptTermsFirst(member);
    await expect(member.getByTestId("header-member")).toContainText(lineMember.name);
    await waitForHydration(member);
    await expectAccessible(member);
    await member.goto("/member-center/linked-logins");
    await expect(member.getByTestId("login-line")).toContainText("已連結");
    await context.close();
  }

  // ——— A CSV member claims the account with an SMS code ———
  {
    const { context, page: member } = await memberPage(browser, base);
    await gotoAndCheck(member, "/member-login");
    await member.getByRole("link", { name: "從原會員系統轉來？第一次登入請用簡訊或電子郵件驗證碼設定密碼" }).click();
    await expect(member).toHaveURL(/\/forget-password\/phone-verification\?welcome=1$/);
    await expect(member.getByRole("heading", { level: 1 })).toHaveText("歡迎加入：手機驗證");
    await waitForHydration(member);
    await expectAccessible(member);
    await member.getByLabel("手機號碼").fill(csv.claimer.phoneLocal);
    const send = member.getByRole("button", { name: "取得驗證碼" });
    await expect(send).toBeEnabled({ timeout: 20_000 });
    await send.click();
    const code = await latestSmsCode(member, csv.claimer.phoneE164);
    await member.getByLabel("6 位數驗證碼").fill(code);
    await member.getByRole("button", { name: "驗證並繼續" }).click();
    await expect(member).toHaveURL(/\/forget-password\/new-password-setting\?welcome=1$/);
    await expect(member.getByRole("heading", { level: 1 })).toHaveText("設定您的密碼");
    await waitForHydration(member);
    await expectAccessible(member);
    await member.getByLabel("新密碼", { exact: true }).fill(STRONG_PASSWORD);
    await member.getByLabel("再次輸入密碼").fill(STRONG_PASSWORD);
    await member.getByRole("button", { name: "設定密碼", exact: true }).click();
    await expect(member).toHaveURL(/\/member-login$/);
    await expect(member.getByText("密碼已設定，歡迎加入！請使用新密碼登入")).toBeVisible();
    await waitForHydration(member);
    await member.getByLabel("手機號碼").fill(csv.claimer.phoneLocal);
    await member.getByLabel("密碼", { exact: true }).fill(STRONG_PASSWORD);
    await member.getByRole("button", { name: "登入", exact: true }).click();
    await acceptTermsFirst(member);
    await expect(member.getByTestId("header-member")).toContainText(csv.claimer.name);
    await expect(member.getByTestId("points-balance")).toHaveText(String(csv.claimer.points));
    await waitForHydration(member);
    await expectAccessible(member);
    await context.close();
  }

  // ——— The same files again: nothing created, nothing booked ———
  await openImports(page);
  await page.getByRole("link", { name: "從原系統匯入" }).click();
  await uploadFirebase(page);
  expect(page.url()).not.toBe(firebaseRunUrl);
  expect(await figure(page, "import-report-create")).toBe(0);
  expect(await figure(page, "import-report-unchanged")).toBe(2);
  await page.getByRole("button", { name: "開始匯入" }).click();
  await waitForResult(page);
  expect(await figure(page, "import-result-created")).toBe(0);
  expect(await figure(page, "import-result-merged")).toBe(0);
  expect(await figure(page, "import-result-unchanged")).toBe(2);

  await openImports(page);
  await page.getByRole("link", { name: "匯入 CSV" }).click();
  await uploadCsv(page);
  expect(await figure(page, "import-report-create")).toBe(0);
  expect(await figure(page, "import-report-unchanged")).toBe(3);
  expect(await figure(page, "import-report-points")).toBe(0);
  await page.getByRole("button", { name: "開始匯入" }).click();
  await waitForResult(page);
  expect(await figure(page, "import-result-created")).toBe(0);
  expect(await figure(page, "import-result-unchanged")).toBe(3);
  expect(await figure(page, "import-result-points")).toBe(0);

  // The balances are as they were.
  {
    const { context, page: member } = await memberPage(browser, base);
    await gotoAndCheck(member, "/member-login");
    await member.getByLabel("手機號碼").fill(firebaseMember.phoneLocal);
    await member.getByLabel("密碼", { exact: true }).fill(firebaseMember.password);
    await member.getByRole("button", { name: "登入", exact: true }).click();
    await expect(member).toHaveURL(/\/member-center$/);
    await expect(member.getByTestId("points-balance")).toHaveText(csv.mergedPoints.toLocaleString("en-US"));
    await context.close();
  }
});
