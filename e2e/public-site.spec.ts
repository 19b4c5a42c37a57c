import { expect, expectAccessible, gotoAndCheck, pinClock, test, waitForHydration } from "./fixtures";

/** A Wednesday morning and a Sunday night, Taipei time (see the demo showrooms' hours). */
const WEDNESDAY_MORNING = "2026-11-25T10:15:00+08:00";
const SUNDAY_NIGHT = "2026-11-29T21:15:00+08:00";

const cards = (page: import("@playwright/test").Page) => page.getByTestId("store-card");
const cardNames = (page: import("@playwright/test").Page) => cards(page).getByRole("heading", { level: 3 });

test.describe("store list", () => {
  test("filters by city and open now on a weekday morning; the URL keeps the filters and Back works", async ({
    page,
  }) => {
    await pinClock(page, WEDNESDAY_MORNING);
    await gotoAndCheck(page, "/our-store");
    await expect(cards(page)).toHaveCount(10);
    await expect(page.getByText("營業狀態依臺北時間 10:15 計算。")).toBeVisible();

    await page.getByLabel("縣市").selectOption({ label: "臺北市" });
    await expect(page).toHaveURL(/\/our-store\?city=taipei$/);
    await expect(cardNames(page)).toHaveText(["信義旗艦店", "內湖設計中心"]);
    // 10:15 on a Wednesday: Neihu opens at 10:00, Xinyi at 10:30.
    const xinyi = cards(page).filter({ hasText: "信義旗艦店" });
    await expect(xinyi.getByTestId("open-status")).toContainText("休息中");
    await expect(xinyi.getByTestId("open-status")).toContainText("今日 10:30 開門");
    await expect(xinyi.getByTestId("today-hours")).toHaveText("今日 10:30–21:30");

    await page.getByLabel("只看營業中").check();
    await expect(page).toHaveURL(/\/our-store\?city=taipei&open=1$/);
    await expect(cardNames(page)).toHaveText(["內湖設計中心"]);
    await expect(page.getByTestId("store-count")).toHaveText("共 1 間門市");
    await expectAccessible(page);

    await page.goBack();
    await expect(page).toHaveURL(/\/our-store\?city=taipei$/);
    await expect(cardNames(page)).toHaveText(["信義旗艦店", "內湖設計中心"]);
    await expect(page.getByLabel("只看營業中")).not.toBeChecked();
  });

  test("open now across Taiwan on a weekday morning applies a store's own exception (stock-taking)", async ({
    page,
  }) => {
    await pinClock(page, WEDNESDAY_MORNING);
    await gotoAndCheck(page, "/our-store?open=1");
    await expect(cardNames(page)).toHaveText(["內湖設計中心", "竹北門市", "羅東門市"]);
    await gotoAndCheck(page, "/our-store?city=taichung");
    const taichung = cards(page).filter({ hasText: "台中七期旗艦店" });
    await expect(taichung.getByTestId("open-status")).toContainText("今日 14:00 開門");
  });

  test("open now on a Sunday night shows only the late showrooms", async ({ page }) => {
    await pinClock(page, SUNDAY_NIGHT);
    await gotoAndCheck(page, "/our-store");
    await page.getByLabel("只看營業中").check();
    await expect(page).toHaveURL(/\/our-store\?open=1$/);
    await expect(cardNames(page)).toHaveText(["信義旗艦店", "高雄美術館門市"]);
    await expect(cards(page).first().getByTestId("open-status")).toContainText("營業至 22:00");
    await expectAccessible(page);
  });

  test("the filters work without JavaScript (a plain GET form)", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.setExtraHTTPHeaders({ "x-test-now": SUNDAY_NIGHT });
    await page.goto("/our-store");
    await page.getByLabel("縣市").selectOption("kaohsiung");
    await page.getByLabel("只看營業中").check();
    await page.getByRole("button", { name: "套用篩選" }).click();
    await expect(page).toHaveURL(/\/our-store\?city=kaohsiung&q=&open=1$/);
    await expect(cardNames(page)).toHaveText(["高雄美術館門市"]);
    await context.close();
  });

  test("search treats SQL and HTML as text; bogus filters are ignored", async ({ page }) => {
    await gotoAndCheck(page, `/our-store?q=${encodeURIComponent("<b>x</b>' or 1=1 --")}`);
    await expect(page.getByText("沒有符合條件的門市。")).toBeVisible();
    await expect(page.getByLabel("搜尋")).toHaveValue("<b>x</b>' or 1=1 --");
    await gotoAndCheck(page, "/our-store?city=mars&open=maybe&near=nowhere");
    await expect(cards(page)).toHaveCount(10);
    await gotoAndCheck(page, "/our-store?q=%E9%AB%98%E9%9B%84");
    await expect(cardNames(page)).toHaveText(["高雄美術館門市"]);
  });

  test("near me sorts by distance when allowed and changes nothing when refused", async ({ browser, baseURL }) => {
    const allowed = await browser.newContext({
      baseURL,
      permissions: ["geolocation"],
      geolocation: { latitude: 22.63, longitude: 120.3 },
      locale: "zh-TW",
    });
    const page = await allowed.newPage();
    await page.goto("/our-store");
    await waitForHydration(page);
    await page.getByTestId("near-me").click();
    await expect(page).toHaveURL(/near=22\.63%2C120\.3/);
    await expect(cardNames(page).first()).toHaveText("高雄美術館門市");
    await expect(page.getByText("已依與您的距離排序")).toBeVisible();
    await expect(cards(page).first()).toContainText("約");
    await allowed.close();

    const refused = await browser.newContext({ baseURL, permissions: [], locale: "zh-TW" });
    const other = await refused.newPage();
    await other.goto("/our-store");
    await waitForHydration(other);
    await other.getByTestId("near-me").click();
    await expect(other.getByText("無法取得您的位置，門市仍依預設順序顯示。")).toBeVisible();
    await expect(other).toHaveURL(/\/our-store$/);
    await expect(cards(other)).toHaveCount(10);
    await refused.close();
  });
});

test.describe("store and material detail", () => {
  test("opens a store from the list, then one of the materials it displays", async ({ page }) => {
    await pinClock(page, WEDNESDAY_MORNING);
    await gotoAndCheck(page, "/our-store");
    await page.getByRole("link", { name: "信義旗艦店" }).click();
    await expect(page).toHaveURL(/\/store-detail\/xinyi-flagship$/);
    await expect(page.getByRole("heading", { level: 1, name: "信義旗艦店" })).toBeVisible();
    await expect(page).toHaveTitle("信義旗艦店｜漢生活");
    await expect(page.getByTestId("store-address")).toHaveText("110 臺北市信義區松仁路 168 號 1–3 樓");
    await expect(page.getByTestId("phone-link")).toHaveAttribute("href", "tel:+886227230101");
    await expect(page.getByTestId("map-link")).toHaveAttribute("href", /google\.com\/maps\/search\/\?api=1&query=/);
    const today = page.getByTestId("week-hours").locator('tr[aria-current="date"]');
    await expect(today).toHaveCount(1);
    await expect(today).toContainText("星期三");
    await expect(today).toContainText("今天");
    await expect(today).toContainText("10:30–21:30");
    await expect(page.getByTestId("week-hours").locator("tr")).toHaveCount(7);
    await expectAccessible(page);

    await page.getByRole("link", { name: "京霧 石英磚" }).click();
    await expect(page).toHaveURL(/\/material-detail\/kyoto-mist-porcelain$/);
    await expect(page.getByRole("heading", { level: 1, name: "京霧 石英磚" })).toBeVisible();
    await expect(page.getByTestId("specs")).toContainText("吸水率");
    await expect(page.getByTestId("material-stores").getByRole("link", { name: "信義旗艦店" })).toBeVisible();
    await expectAccessible(page);
  });

  test("the gallery steps through pictures with buttons, arrow keys and thumbnails", async ({ page }) => {
    await gotoAndCheck(page, "/material-detail/hualien-white-marble");
    const gallery = page.getByTestId("gallery");
    const position = page.getByTestId("gallery-position");
    await expect(position).toHaveText("1 / 3");
    await gallery.getByRole("button", { name: "下一張" }).click();
    await expect(position).toHaveText("2 / 3");
    await gallery.getByRole("list").first().focus();
    await page.keyboard.press("ArrowRight");
    await expect(position).toHaveText("3 / 3");
    await page.keyboard.press("Home");
    await expect(position).toHaveText("1 / 3");
    await gallery.getByRole("link", { name: "顯示第 3 張圖片" }).click();
    await expect(position).toHaveText("3 / 3");
    await expect(gallery.getByRole("link", { name: "顯示第 3 張圖片" })).toHaveAttribute("aria-current", "true");
    // Every picture has alt text and an intrinsic size.
    for (const img of await gallery.getByRole("list").first().locator("img").all()) {
      await expect(img).toHaveAttribute("alt", /.+/);
      await expect(img).toHaveAttribute("width", "800");
    }
  });

  test("a swipe on a phone moves to the next picture", async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, hasTouch: true, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto("/material-detail/hualien-white-marble");
    await waitForHydration(page);
    const strip = page.getByTestId("gallery").getByRole("list").first();
    // A horizontal pan scrolls the snapping strip natively; emulate it by scrolling one picture.
    await strip.evaluate((el) => el.scrollBy({ left: el.clientWidth, behavior: "instant" as ScrollBehavior }));
    await expect(page.getByTestId("gallery-position")).toHaveText("2 / 3");
    await context.close();
  });

  test("browses the catalogue by category and search", async ({ page }) => {
    await gotoAndCheck(page, "/materials");
    await expect(page.getByTestId("material-card")).toHaveCount(42);
    await page
      .getByRole("navigation", { name: "建材類別" })
      .getByRole("link", { name: /木地板/ })
      .click();
    await expect(page).toHaveURL(/\/materials\?category=wood-flooring$/);
    await expect(page.getByRole("heading", { level: 1, name: "木地板" })).toBeVisible();
    await expect(page.getByTestId("material-card")).toHaveCount(6);
    await page.getByLabel("搜尋建材").fill("胡桃");
    await page.getByRole("button", { name: "搜尋", exact: true }).click();
    await expect(page).toHaveURL(/category=wood-flooring&q=%E8%83%A1%E6%A1%83/);
    await expect(page.getByTestId("material-card")).toHaveCount(1);
    await expectAccessible(page);
  });
});

test.describe("bad ids", () => {
  for (const path of [
    "/store-detail/dadaocheng-concept",
    "/material-detail/discontinued-glass-mosaic",
    "/material-detail/NOT_A_SLUG",
    "/material-detail/no-such-material",
  ]) {
    test(`${path} is the 404 page`, async ({ page }) => {
      await gotoAndCheck(page, path, { status: 404 });
      await expect(page.getByTestId("not-found")).toContainText(`Page not found: ${path}`);
    });
  }
});
