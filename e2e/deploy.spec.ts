import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, isHydrated, test, waitForHydration } from "./fixtures";

/**
 * New deployments (app/lib/deploy.ts): a failed code chunk reloads the page once, guarded for 10 s
 * against loops; a newer build seen on /api/version turns the next navigation into a full page load.
 */
const MATERIALS_CHUNK = "**/assets/materials-*.js";
const RELOAD_KEY = "chunk-reload-at";

function countLoads(page: Page) {
  const counter = { loads: 0 };
  page.on("load", () => {
    counter.loads += 1;
  });
  return counter;
}

/** Marks the current document; a full page load replaces the window and the marker disappears. */
async function markDocument(page: Page) {
  await page.evaluate(() => {
    (window as { __e2eDocument?: boolean }).__e2eDocument = true;
  });
}
const isSameDocument = (page: Page) =>
  page.evaluate(() => (window as { __e2eDocument?: boolean }).__e2eDocument === true);

const materialsLink = (page: Page) => page.getByRole("banner").getByRole("link", { name: "建材選品" });

test.describe("chunk reload guard", () => {
  test("a failed route chunk reloads once, then shows the error page inside the guard window", async ({ page }) => {
    let blocked = 0;
    await page.route(MATERIALS_CHUNK, (route) => {
      blocked += 1;
      return route.abort("failed");
    });

    await gotoAndCheck(page, "/");
    const counter = countLoads(page);
    await markDocument(page);

    // First failure: exactly one reload (the client router stays on the page it was on).
    await materialsLink(page).click();
    await expect.poll(() => counter.loads).toBe(1);
    await waitForHydration(page);
    expect(await isSameDocument(page)).toBe(false);
    expect(blocked).toBe(1);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: "讓家，回到材質本身" })).toBeVisible();
    const firstReloadAt = Number(await page.evaluate((key) => sessionStorage.getItem(key), RELOAD_KEY));
    expect(firstReloadAt).toBeGreaterThan(0);
    await expectAccessible(page);

    // Second failure within 10 s: no reload; the error page, inside the site frame, instead.
    await markDocument(page);
    await materialsLink(page).click();
    const error = page.getByTestId("server-error");
    await expect(error).toBeVisible();
    await expect(error).toContainText("Internal Server Error");
    await expect(error).toContainText("網站已更新，請重新整理頁面以載入最新版本。");
    await expect(error.getByRole("link", { name: "重新整理" })).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "門市據點" })).toBeVisible();
    expect(blocked).toBe(2);
    expect(counter.loads).toBe(1);
    expect(await isSameDocument(page)).toBe(true);
    // The guard's clock still starts at the first reload.
    expect(Number(await page.evaluate((key) => sessionStorage.getItem(key), RELOAD_KEY))).toBe(firstReloadAt);
    await expectAccessible(page);

    // The rest of the site still works from the error page.
    await page.getByRole("banner").getByRole("link", { name: "門市據點" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "門市據點" })).toBeVisible();
    await expect(error).toHaveCount(0);
    expect(counter.loads).toBe(1);
    await expectAccessible(page);
  });

  test("after the guard window a failure reloads again; once the chunk loads, the link is client-side", async ({
    page,
  }) => {
    await page.route(MATERIALS_CHUNK, (route) => route.abort("failed"));
    await gotoAndCheck(page, "/");
    // A reload happened 11 s ago (instead of waiting out the 10 s window).
    await page.evaluate((key) => sessionStorage.setItem(key, String(Date.now() - 11_000)), RELOAD_KEY);
    const counter = countLoads(page);
    await markDocument(page);

    await materialsLink(page).click();
    await expect.poll(() => counter.loads).toBe(1);
    await waitForHydration(page);
    expect(await isSameDocument(page)).toBe(false);
    const reloadAt = Number(await page.evaluate((key) => sessionStorage.getItem(key), RELOAD_KEY));
    expect(Date.now() - reloadAt).toBeLessThan(10_000);
    await expectAccessible(page);

    // The chunk is reachable again (the new deployment is complete): an ordinary client-side navigation.
    await page.unroute(MATERIALS_CHUNK);
    await markDocument(page);
    await materialsLink(page).click();
    await expect(page).toHaveURL(/\/materials$/);
    await expect(page.getByRole("heading", { level: 1, name: "建材選品" })).toBeVisible();
    expect(counter.loads).toBe(1);
    expect(await isSameDocument(page)).toBe(true);
    await expectAccessible(page);
  });
});

test.describe("the shell catalog (app/lib/i18n.ts)", () => {
  test("a catalog that cannot load reloads the page once; inside the guard the page stays as served and works", async ({
    page,
  }) => {
    let blocked = 0;
    await page.route("**/i18n/*.json", (route) => {
      blocked += 1;
      return route.fulfill({ status: 404, contentType: "application/json", body: "{}" });
    });
    const counter = countLoads(page);
    const response = await page.goto("/");
    expect(response?.status()).toBe(200);
    // The first failure reloads once; the second (inside the 10 s window) leaves the server's page unhydrated.
    await expect.poll(() => counter.loads).toBe(2);
    await expect.poll(() => blocked).toBe(2);
    await expect(page.getByRole("heading", { level: 1, name: "讓家，回到材質本身" })).toBeVisible();
    expect(await isHydrated(page)).toBe(false);
    await expectAccessible(page);

    // Links are plain links then: the next page loads as a document, with its catalog served again.
    await page.unroute("**/i18n/*.json");
    await materialsLink(page).click();
    await expect(page.getByRole("heading", { level: 1, name: "建材選品" })).toBeVisible();
    await waitForHydration(page);
    expect(counter.loads).toBe(3);
    await expectAccessible(page);
  });
});

test("a page's own catalog that cannot load on a navigation shows the error page, not keys", async ({ page }) => {
  await gotoAndCheck(page, "/");
  await page.route("**/i18n/zh-TW/catalog.materials.*", (route) => route.abort("failed"));
  await markDocument(page);
  await materialsLink(page).click();
  const error = page.getByTestId("server-error");
  await expect(error).toBeVisible();
  await expect(page.getByText("catalog.materials.", { exact: false })).toHaveCount(0);
  expect(await isSameDocument(page)).toBe(true);
  await expectAccessible(page);
});

test.describe("new build check", () => {
  test("after /api/version reports a new build, the next navigation is a full page load", async ({ page }) => {
    let liveVersion: string | null = null; // null: answer with the real version
    let checks = 0;
    await page.route("**/api/version", async (route) => {
      checks += 1;
      if (liveVersion === null) return route.fallback();
      return route.fulfill({ json: { version: liveVersion }, headers: { "cache-control": "no-store" } });
    });

    await gotoAndCheck(page, "/");
    const running = await page.evaluate(
      () => (window as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest?.version,
    );
    expect(running).toBeTruthy();

    const triggerCheck = async () => {
      const before = checks;
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/version");
      // Coming back to the tab checks at once (startBuildPolling's visibilitychange listener).
      await page.evaluate(() => {
        if (document.visibilityState !== "visible") throw new Error("document not visible");
        document.dispatchEvent(new Event("visibilitychange"));
      });
      await (await answered).finished();
      expect(checks).toBe(before + 1);
      // Let the page read the answer before the next click.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    };

    // Same build live: navigation stays client-side.
    await triggerCheck();
    await markDocument(page);
    await page.getByRole("banner").getByRole("link", { name: "門市據點" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "門市據點" })).toBeVisible();
    expect(await isSameDocument(page)).toBe(true);
    await expectAccessible(page);

    // A different build is live: the next navigation loads the document anew.
    liveVersion = `${running}-next`;
    await triggerCheck();
    const reloaded = page.waitForEvent("load");
    await materialsLink(page).click();
    await reloaded;
    await expect(page).toHaveURL(/\/materials$/);
    await expect(page.getByRole("heading", { level: 1, name: "建材選品" })).toBeVisible();
    expect(await isSameDocument(page)).toBe(false);
    await waitForHydration(page);
    await expectAccessible(page);
  });
});
