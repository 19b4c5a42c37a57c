import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test } from "./fixtures";
import { addReward } from "./support/member-history";
import { createMember, newPhone } from "./support/members";
import { loginStaffByCookie } from "./support/staff";

/**
 * The console shell on a phone, a tablet and a desktop: below `lg` a compact top bar whose 選單 button opens
 * the whole navigation (grouped, the current page marked, keyboard and screen-reader friendly, closed again by
 * a navigation or Escape, working before hydration too); on a desktop the grouped sidebar. Every console page
 * an admin can see fits a 390×844 phone without sideways scrolling and passes axe-core.
 */
const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");
const PHONE = { width: 390, height: 844 };

async function expectNoSidewaysScroll(page: Page, what: string) {
  const { overflow, culprits } = await page.evaluate(() => {
    // For the message: elements past the window's right edge that no scrolling box clips (an absolutely
    // positioned one escapes a scroll box that is not its containing block).
    const wide = [...document.body.querySelectorAll<HTMLElement>("*")].filter((el) => {
      if (el.getBoundingClientRect().right <= window.innerWidth + 0.5) return false;
      const clip = el.parentElement?.closest<HTMLElement>(".overflow-x-auto, .overflow-hidden, .overflow-auto");
      return !clip || getComputedStyle(el).position === "absolute";
    });
    const top = wide.filter((el) => !wide.includes(el.parentElement as HTMLElement)).slice(0, 3);
    return {
      overflow: document.documentElement.scrollWidth - window.innerWidth,
      culprits: top.map((el) => `${el.tagName.toLowerCase()}.${el.className}`.slice(0, 160)),
    };
  });
  expect(overflow, `horizontal overflow on ${what} (px); wide elements: ${culprits.join(" | ")}`).toBeLessThanOrEqual(
    0,
  );
}

async function shot(page: Page, name: string, fullPage = true) {
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage, animations: "disabled" });
}

test("on a phone the console is a top bar with a 選單 menu; every page fits 390 px; the desktop keeps a grouped sidebar", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  const base = baseURL ?? "";
  const admin = await loginStaffByCookie(page.request, page.context(), base, {
    role: "admin",
    displayName: "王總監",
  });
  const member = await createMember(page.request, { phoneNumber: newPhone().e164, name: "林雅婷" });
  const rewardId = await addReward(page.request, { name: "NT$300 折價券", amountOff: 300, pointsCost: 300 });

  await page.setViewportSize(PHONE);
  await gotoAndCheck(page, "/admin");
  const menuButton = page.getByText("選單", { exact: true });
  const menu = page.getByTestId("console-menu");
  const nav = page.getByRole("navigation", { name: "後台導覽" });
  // The top bar: who is working and their role; the navigation waits behind 選單.
  await expect(page.getByTestId("console-staff-name")).toHaveText("王總監");
  await expect(page.getByTestId("console-role")).toHaveText("管理員");
  await expect(menuButton).toBeVisible();
  await expect(nav).toBeHidden();
  await expectNoSidewaysScroll(page, "the phone home, menu closed");
  await shot(page, "console-shell-phone-closed", false);

  // Opened: the whole navigation as a grouped list, the current page marked, the store switch and logout.
  await menuButton.click();
  await expect(nav).toBeVisible();
  for (const group of ["日常", "目錄與方案", "管理"]) {
    await expect(nav.getByRole("list", { name: group })).toBeVisible();
  }
  await expect(nav.getByRole("link", { name: "概覽" })).toHaveAttribute("aria-current", "page");
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(menu.getByLabel("目前門市")).toBeVisible();
  await expect(menu.getByRole("button", { name: "登出後台" })).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page, "the phone home, menu open");
  await shot(page, "console-shell-phone-open", false);

  // Escape closes it and gives the focus back to the button; Enter opens it again.
  await page.keyboard.press("Escape");
  await expect(nav).toBeHidden();
  await expect(menuButton).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();

  // The store switch is in the menu: the admin starts working at 信義旗艦店 (the counter pages need a store).
  await expect(page.getByTestId("console-store")).toHaveText("請選擇門市");
  await menu.getByLabel("目前門市").selectOption({ label: "信義旗艦店" });
  await menu.getByRole("button", { name: "切換" }).click();
  await expect(page.getByTestId("console-store")).toHaveText("信義旗艦店");
  await expect(nav).toBeHidden();
  await menuButton.click();

  // A tap on a link: the page changes, the menu closes, and the new page is the marked one.
  await nav.getByRole("link", { name: "會員", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/members$/);
  await expect(page.getByRole("heading", { level: 1, name: "會員" })).toBeVisible();
  await expect(nav).toBeHidden();
  await menuButton.click();
  await expect(nav.getByRole("link", { name: "會員", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "概覽" })).not.toHaveAttribute("aria-current", "page");

  // Every page an admin reaches from the menu, and the pages below them: no sideways scrolling, axe-clean.
  const sections = await nav.getByRole("link").evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  expect(sections.length).toBeGreaterThanOrEqual(12);
  const pages = [
    ...sections,
    `/admin/members/${member.memberId}`,
    `/admin/members/${member.memberId}/adjust`,
    `/admin/counter/member/${member.memberId}`,
    "/admin/counter/refund",
    "/admin/counter/coupon",
    "/admin/stores/new",
    "/admin/stores/xinyi-flagship",
    "/admin/rewards/new",
    `/admin/rewards/${rewardId}`,
    "/admin/staff/invite",
    `/admin/staff/${admin.userId}`,
    "/admin/messages/campaigns/new",
    "/admin/messages/automatic/points-expiring-30",
  ];
  for (const pathname of pages) {
    await gotoAndCheck(page, pathname);
    await expectNoSidewaysScroll(page, pathname);
  }

  // A tablet: still the top bar, with room to breathe.
  await page.setViewportSize({ width: 768, height: 1024 });
  await gotoAndCheck(page, "/admin/members");
  await expect(menuButton).toBeVisible();
  await expectNoSidewaysScroll(page, "a tablet");
  await shot(page, "console-shell-tablet", false);
  await menuButton.click();
  await expect(nav).toBeVisible();
  await expectAccessible(page);
  await shot(page, "console-shell-tablet-open", false);

  // A desktop: the grouped sidebar, no 選單 button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin/members");
  await expect(menuButton).toBeHidden();
  await expect(nav).toBeVisible();
  await expect(nav.getByRole("list", { name: "管理" }).getByRole("link", { name: "稽核紀錄" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "會員", exact: true })).toHaveAttribute("aria-current", "page");
  await expectNoSidewaysScroll(page, "a desktop");
  await shot(page, "console-shell-desktop", false);

  // Before the app's JavaScript runs (or without it), 選單 still opens the navigation.
  const noScript = await browser.newContext({
    baseURL: base,
    locale: "zh-TW",
    viewport: PHONE,
    javaScriptEnabled: false,
    extraHTTPHeaders: { "x-test-hooks-secret": process.env.TEST_HOOKS_SECRET ?? "" },
  });
  try {
    await noScript.addCookies(await page.context().cookies());
    const plain = await noScript.newPage();
    await plain.goto("/admin/members");
    const plainNav = plain.getByRole("navigation", { name: "後台導覽" });
    await expect(plainNav).toBeHidden();
    await plain.getByText("選單", { exact: true }).click();
    await expect(plainNav.getByRole("link", { name: "稽核紀錄" })).toBeVisible();
  } finally {
    await noScript.close();
  }
});

test("at 1440×900 the sidebar keeps 登出後台 in view", async ({ page, baseURL }) => {
  await loginStaffByCookie(page.request, page.context(), baseURL ?? "", { role: "admin" });
  await page.setViewportSize({ width: 1440, height: 900 });
  await gotoAndCheck(page, "/admin");
  const logout = page.getByRole("banner").getByRole("button", { name: "登出後台" }).last();
  await expect(logout).toBeInViewport({ ratio: 1 });
  // The page itself scrolled down: the sidebar stays, 登出後台 with it.
  await page.mouse.wheel(0, 2000);
  await expect(logout).toBeInViewport({ ratio: 1 });
});

test("at 1280×800 the sidebar's list scrolls with a visible cue, 登出後台 stays in view", async ({ page, baseURL }) => {
  await loginStaffByCookie(page.request, page.context(), baseURL ?? "", { role: "admin" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await gotoAndCheck(page, "/admin");
  const list = page.getByTestId("console-sidebar-scroll");
  const logout = page.getByRole("banner").getByRole("button", { name: "登出後台" }).last();
  await expect(logout).toBeInViewport({ ratio: 1 });
  // The admin's list is taller than the room left; the box shows a shadow where more links wait.
  const box = await list.evaluate((el) => ({
    scrolls: el.scrollHeight > el.clientHeight,
    background: getComputedStyle(el).backgroundImage,
  }));
  expect(box.scrolls).toBe(true);
  expect(box.background).toContain("radial-gradient");
  await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(page.getByRole("link", { name: "後台設定" })).toBeInViewport();
  await expect(logout).toBeInViewport({ ratio: 1 });
  await shot(page, "console-shell-desktop-1280", false);
});
