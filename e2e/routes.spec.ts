import { expect, expectAccessible, gotoAndCheck, test } from "./fixtures";

/** Every page of the URL table (PRODUCT.md §2) answers inside the default layout. */
const PAGES = [
  "/",
  "/our-store",
  "/materials",
  "/member-login",
  "/signup/phone-verification",
  "/forget-password",
  "/forget-password/email-verification",
  "/forget-password/phone-verification",
  "/forget-password/new-password-setting",
  "/privacy",
  "/terms",
  "/test-crud",
  "/dev/outbox",
  "/appointments/book",
];

for (const path of PAGES) {
  test(`${path} answers 200 with header and footer`, async ({ page }) => {
    await gotoAndCheck(page, path);
    const header = page.getByRole("banner");
    await expect(header.getByRole("link", { name: "漢生活" })).toBeVisible();
    const nav = header.getByRole("navigation", { name: "主要導覽" });
    for (const name of ["首頁", "門市據點", "建材選品", "會員專區"]) {
      await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    }
    const footer = page.getByRole("contentinfo");
    await expect(footer.getByRole("link", { name: "隱私權政策" })).toBeVisible();
    await expect(footer.getByRole("link", { name: "會員服務條款" })).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByTestId("not-found")).toHaveCount(0);
  });
}

/** Pages that need a step or a login send the visitor where they must start. */
const GUARDED: [string, RegExp][] = [
  ["/member-center", /\/member-login\?redirectTo=%2Fmember-center$/],
  ["/member-center/edit-info", /\/member-login\?redirectTo=%2Fmember-center%2Fedit-info$/],
  ["/member-center/appointments", /\/member-login\?redirectTo=%2Fmember-center%2Fappointments$/],
  ["/signup/password-setting", /\/signup\/phone-verification$/],
  ["/signup/create-member-info", /\/signup\/phone-verification$/],
  // The console has its own login (ADR 020); members and visitors start there.
  ["/admin", /\/admin\/login\?redirectTo=%2Fadmin$/],
  ["/admin/counter", /\/admin\/login\?redirectTo=%2Fadmin%2Fcounter$/],
  // Quote lists (issue 37 part 4).
  ["/member-center/quotes", /\/member-login\?redirectTo=%2Fmember-center%2Fquotes$/],
  ["/admin/quotes", /\/admin\/login\?redirectTo=%2Fadmin%2Fquotes$/],
];

for (const [path, target] of GUARDED) {
  test(`${path} sends a visitor to the right start`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(target);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
}

/** Unknown ids, malformed ids and unknown paths show the 404 page with the exact path. */
const NOT_FOUND = ["/store-detail/some-id", "/material-detail/some-id", "/store-detail/BAD%20ID", "/no/such/page"];

for (const path of NOT_FOUND) {
  test(`${path} answers 404 with the not-found page`, async ({ page }) => {
    await gotoAndCheck(page, path, { status: 404 });
    await expect(page.getByTestId("not-found")).toContainText(`Page not found: ${path}`);
    await expect(page.getByRole("heading", { level: 1, name: "找不到頁面" })).toBeVisible();
    await expect(page).toHaveTitle("找不到頁面｜漢生活");
    // Still inside the layout, so the visitor can navigate on.
    await expect(page.getByRole("banner").getByRole("link", { name: "門市據點" })).toBeVisible();
    await expect(page.getByRole("contentinfo").getByRole("link", { name: "隱私權政策" })).toBeVisible();
  });
}

test("a client-side navigation to an unknown store shows the 404 page with the page path", async ({ page }) => {
  await gotoAndCheck(page, "/");
  // The client router fetches /store-detail/some-id.data; the message must name the page, not the data URL.
  await page.evaluate(() =>
    (window as { __reactRouterDataRouter?: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter?.navigate(
      "/store-detail/some-id",
    ),
  );
  await expect(page).toHaveURL(/\/store-detail\/some-id$/);
  await expect(page.getByTestId("not-found")).toContainText("Page not found: /store-detail/some-id");
  await expect(page.getByTestId("not-found")).not.toContainText(".data");
  await expectAccessible(page);
});

test("/test-crud runs on the worker's own database and its CRUD round trip succeeds", async ({ page, appServer }) => {
  await gotoAndCheck(page, "/test-crud");
  await expect(page.getByTestId("driver")).toHaveText(appServer.driver);
  await expect(page.getByTestId("migrations")).toContainText("已是最新");
  await page.getByRole("button", { name: "執行 CRUD 測試" }).click();
  const steps = page.getByTestId("crud-steps");
  await expect(steps).toBeVisible();
  await expect(steps.locator("tbody tr")).toHaveCount(5);
  await expect(steps).not.toContainText("失敗");
  await expectAccessible(page);
});
