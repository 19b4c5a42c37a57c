import { readFile } from "node:fs/promises";
import path from "node:path";
import type { BrowserContext, Page } from "@playwright/test";
import { expect, test, waitForHydration } from "./fixtures";
import { createMember, loginByCookie, newPhone, STRONG_PASSWORD } from "./support/members";

/**
 * "Come back after login" (issue 11, item 1). A member who is logged out reaches a members-only
 * page by an in-app link (a client-side navigation: React Router asks for
 * `/member-center.data?_routes=…`), logs in, and must land on that page working, whichever way
 * they log in. The address carried through the login page must be the page's own, never the data
 * request's.
 */

type MemberPage = {
  path: string;
  /** A page (logged in) that shows an in-app link to `path`. */
  from: string;
  /** What must be true of the member before `from` shows that link. */
  prepare?: (page: Page, me: { userId: string }) => Promise<void>;
};

/** Every members-only page of app/routes.ts (resource routes such as the data export are downloads). */
const MEMBER_PAGES: MemberPage[] = [
  { path: "/member-center", from: "/member-center/edit-info" },
  { path: "/member-center/points", from: "/member-center" },
  { path: "/member-center/edit-info", from: "/member-center" },
  { path: "/member-center/security", from: "/member-center" },
  { path: "/member-center/linked-logins", from: "/member-center" },
  { path: "/member-center/privacy", from: "/member-center" },
  { path: "/member-center/delete-account", from: "/member-center/privacy" },
  { path: "/member-center/change-phone", from: "/member-center/edit-info" },
  // The showroom pages (issue 37): reached from the member center and from their own lists.
  { path: "/member-center/appointments", from: "/member-center" },
  { path: "/member-center/quotes", from: "/member-center" },
  { path: "/member-center/quotes/new", from: "/member-center/quotes" },
  { path: "/member-center/samples", from: "/member-center" },
  { path: "/member-center/samples/new", from: "/member-center" },
  // Invite friends (issue 38, ADR 053) and trade accounts (ADR 057).
  { path: "/member-center/invite", from: "/member-center" },
  { path: "/member-center/trade", from: "/member-center" },
  {
    path: "/member-center/verify-email",
    from: "/member-center/edit-info",
    // The link shows while an e-mail change waits for its code.
    prepare: async (page) => {
      await page.goto("/member-center/edit-info");
      await page.getByRole("textbox", { name: "電子郵件" }).fill(`pending${Date.now()}@example.com`);
      await page.getByRole("button", { name: "儲存變更" }).click();
      await expect(page).toHaveURL(/\/member-center\/verify-email$/);
    },
  },
  {
    path: `/member-center/confirm-identity?redirectTo=${encodeURIComponent("/member-center/security")}`,
    from: "/member-center/security",
    // The security page links here once the login is older than 15 minutes.
    prepare: async (page, me) => {
      const aged = await page.request.post("/__test/sessions/age", { data: { userId: me.userId, minutes: 20 } });
      expect(aged.ok()).toBe(true);
    },
  },
];

/** Fails the test on any 5xx the browser receives, document or data request. */
function watchForServerErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("response", (response) => {
    if (response.status() >= 500) errors.push(`${response.status()} ${response.url()}`);
  });
  return errors;
}

function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** The login page was reached with the page's own address as the way back, nothing React Router added. */
async function expectLoginPageFor(page: Page, target: string) {
  await expect(page).toHaveURL(/\/member-login(\?|$)/);
  const redirectTo = new URL(page.url()).searchParams.get("redirectTo") ?? "/member-center";
  expect(redirectTo).toBe(target);
  await waitForHydration(page);
}

async function logInWithPassword(page: Page, phoneLocal: string) {
  await page.getByLabel("手機號碼").fill(phoneLocal);
  await page.getByLabel("密碼").fill(STRONG_PASSWORD);
  await page.getByRole("button", { name: "登入", exact: true }).click();
}

/** Landed on the page, and it works: its own heading, no error page, no 5xx along the way. */
async function expectWorkingPage(page: Page, target: string, errors: string[]) {
  await expect.poll(() => pathOf(page)).toBe(target);
  await expect(page.locator("main h1").first()).toBeVisible();
  await expect(page.getByText("系統發生錯誤")).toHaveCount(0);
  await expect(page.getByText("Internal Server Error")).toHaveCount(0);
  expect(errors).toEqual([]);
}

/** Logged out from the home page, the header's 會員專區 leads to the login page and back. */
async function tapMemberAreaFromHome(page: Page) {
  await page.goto("/");
  await waitForHydration(page);
  await page.getByRole("link", { name: "會員專區" }).first().click();
  await expectLoginPageFor(page, "/member-center");
}

/**
 * While logged in, open `from`; the session then ends elsewhere (cookies gone, as after logging
 * out in another tab); the member taps the in-app link to `target`.
 */
async function tapLinkAfterSessionEnded(page: Page, context: BrowserContext, from: string, target: string) {
  await page.goto(from);
  await waitForHydration(page);
  await context.clearCookies();
  await page
    .locator(`main a[href="${target.replace(/"/g, '\\"')}"]`)
    .first()
    .click();
  await expectLoginPageFor(page, target);
}

test("the members-only pages listed here are every page under /member-center in app/routes.ts", async () => {
  const routes = await readFile(path.resolve(import.meta.dirname, "../app/routes.ts"), "utf8");
  const block = routes.slice(routes.indexOf('prefix("member-center"'));
  const pages = [...block.slice(0, block.indexOf("]),")).matchAll(/(index|route)\((?:"([^"]+)", )?"([^"]+\.tsx)"/g)]
    .map((m) => (m[1] === "index" ? "/member-center" : `/member-center/${m[2]}`))
    // One booking's or one quote's page (`:id`) is reached from its list, listed here; it has no link of its own.
    .filter((page) => !page.includes("/:"))
    .sort();
  expect(MEMBER_PAGES.map((p) => p.path.split("?")[0]).sort()).toEqual(pages);
});

test.describe("password login comes back to the page", () => {
  test("logged out on the home page: 會員專區 → login → the member center", async ({ page, request }) => {
    const errors = watchForServerErrors(page);
    const phone = newPhone();
    await createMember(request, { phoneNumber: phone.e164, name: "回程會員" });
    await tapMemberAreaFromHome(page);
    await logInWithPassword(page, phone.local);
    await expectWorkingPage(page, "/member-center", errors);
    await expect(page.getByTestId("header-member")).toContainText("回程會員");
  });

  for (const target of MEMBER_PAGES) {
    test(`an in-app link to ${target.path} while logged out → login → that page`, async ({
      page,
      context,
      request,
      baseURL,
    }) => {
      const errors = watchForServerErrors(page);
      const phone = newPhone();
      const me = await createMember(request, { phoneNumber: phone.e164 });
      await loginByCookie(request, context, baseURL as string, me.userId);
      await target.prepare?.(page, me);
      await tapLinkAfterSessionEnded(page, context, target.from, target.path);
      await logInWithPassword(page, phone.local);
      await expectWorkingPage(page, target.path, errors);
    });
  }
});

/** On the local provider's authorize page: name a test user and agree. */
async function authorizeLineAs(page: Page, name: string) {
  await expect(page).toHaveURL(/\/__line\/oauth2\/v2\.1\/authorize\?/);
  await page.getByRole("radio", { name: "其他測試使用者" }).check();
  await page.getByLabel("其他測試使用者的名稱").fill(name);
  await page.getByRole("button", { name: "同意並登入" }).click();
}

test("LINE login (local provider) comes back to the page", async ({ page, context, request, baseURL }) => {
  const errors = watchForServerErrors(page);
  const lineUser = `return-${process.pid}-${Date.now().toString(36)}`;
  const me = await createMember(request, { phoneNumber: newPhone().e164, name: "LINE 回程" });
  await loginByCookie(request, context, baseURL as string, me.userId);
  await page.goto("/member-center/linked-logins");
  await waitForHydration(page);
  await page.getByRole("button", { name: "連結 LINE" }).click();
  await authorizeLineAs(page, lineUser);
  await expect(page.getByTestId("login-line")).toContainText("已連結");
  await context.clearCookies();

  await tapMemberAreaFromHome(page);
  await page.getByRole("button", { name: "LINE 登入" }).click();
  await authorizeLineAs(page, lineUser);
  await expectWorkingPage(page, "/member-center", errors);
  await expect(page.getByTestId("header-member")).toContainText("LINE 回程");

  await tapLinkAfterSessionEnded(page, context, "/member-center", "/member-center/points");
  await page.getByRole("button", { name: "LINE 登入" }).click();
  await authorizeLineAs(page, lineUser);
  await expectWorkingPage(page, "/member-center/points", errors);
});

test("passkey login (virtual authenticator) comes back to the page", async ({ browser, appServer }) => {
  // WebAuthn refuses IP addresses as relying parties: localhost is PUBLIC_BASE_URL's host.
  const origin = appServer.url.replace("127.0.0.1", "localhost");
  const context = await browser.newContext({ baseURL: origin });
  const page = await context.newPage();
  const errors = watchForServerErrors(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const me = await createMember(page.request, { phoneNumber: newPhone().e164, name: "金鑰回程" });
  await loginByCookie(page.request, context, origin, me.userId);
  await page.goto("/member-center/security");
  await waitForHydration(page);
  await page.getByRole("button", { name: "新增通行金鑰" }).click();
  await expect(page.getByText("已新增通行金鑰")).toBeVisible();
  await context.clearCookies();

  await tapMemberAreaFromHome(page);
  await page.getByRole("button", { name: "使用通行金鑰登入" }).click();
  await expectWorkingPage(page, "/member-center", errors);
  await expect(page.getByTestId("header-member")).toContainText("金鑰回程");

  await tapLinkAfterSessionEnded(page, context, "/member-center", "/member-center/security");
  await page.getByRole("button", { name: "使用通行金鑰登入" }).click();
  await expectWorkingPage(page, "/member-center/security", errors);
  await context.close();
});
