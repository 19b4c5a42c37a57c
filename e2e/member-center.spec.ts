import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, pinClock, test, waitForHydration } from "./fixtures";
import { addReward, adjustPoints, bookHistory, resolveCardToken } from "./support/member-history";
import { createMember, loginByCookie, newPhone, STRONG_PASSWORD } from "./support/members";

const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");

// Wednesday 2026-11-25, 10:15 in Taipei: every date below is relative to this pinned "now".
const NOW = "2026-11-25T10:15:00+08:00";
const plus = (iso: string, seconds: number) =>
  new Date(new Date(iso).getTime() + seconds * 1000).toISOString().replace("Z", "+00:00");

async function memberWithHistory(page: Page, request: APIRequestContext, baseURL: string, name = "陳建安") {
  const phone = newPhone();
  const { userId, memberNumber } = await createMember(request, { phoneNumber: phone.e164, name });
  const tag = phone.e164.slice(-8);
  const gift = await addReward(request, {
    name: `手作咖啡杯 ${tag}`,
    kind: "gift",
    pointsCost: 100,
    couponValidDays: 30,
  });
  const voucher = await addReward(request, { name: `NT$100 折價券 ${tag}`, amountOff: 100, pointsCost: 100 });
  await bookHistory(request, userId, {
    purchases: [
      // Earned in 2025: those points expire at the end of 2026.
      { storeId: "xinyi-flagship", receiptNumber: `A-${tag}`, netAmount: 32_000, at: "2025-12-10T12:00:00+08:00" },
      { storeId: "banqiao", receiptNumber: `B-${tag}`, netAmount: 8_000, at: "2026-06-01T15:30:00+08:00" },
    ],
    redemptions: [
      // 30 days of validity from September: expired by now.
      { rewardId: gift, at: "2026-09-01T11:00:00+08:00" },
      // Used at the counter four days later.
      { rewardId: voucher, at: "2026-10-01T11:00:00+08:00", usedAt: "2026-10-05T16:00:00+08:00" },
      // Still valid.
      { rewardId: voucher, at: "2026-11-01T11:00:00+08:00" },
    ],
  });
  await pinClock(page, NOW);
  await loginByCookie(request, page.context(), baseURL, userId);
  return { userId, memberNumber, voucher, gift };
}

test.describe("member center", () => {
  test("visitors log in first and come back to the member center", async ({ page, request }) => {
    const phone = newPhone();
    await createMember(request, { phoneNumber: phone.e164, name: "王雅文" });
    await page.goto("/member-center");
    await expect(page).toHaveURL(/\/member-login\?redirectTo=%2Fmember-center$/);
    await waitForHydration(page);
    await page.getByLabel("手機號碼").fill(phone.local);
    await page.getByLabel("密碼").fill(STRONG_PASSWORD);
    await page.getByRole("button", { name: "登入", exact: true }).click();
    await expect(page).toHaveURL(/\/member-center$/);
    await expect(page.getByRole("heading", { level: 1, name: "王雅文，您好" })).toBeVisible();
    // The header knows the member: name and tier.
    await expect(page.getByTestId("header-member")).toContainText("王雅文");
    await expect(page.getByTestId("header-member")).toContainText("一般會員");
  });

  test("a member with history sees balance, expiry, tier progress, coupons and activity", async ({
    page,
    request,
    baseURL,
  }) => {
    const { memberNumber } = await memberWithHistory(page, request, baseURL as string);
    await gotoAndCheck(page, "/member-center");

    const card = page.getByTestId("member-card");
    await expect(card.getByTestId("card-name")).toHaveText("陳建安");
    await expect(card.getByTestId("member-number")).toHaveText(memberNumber);
    await expect(card.getByTestId("tier-badge")).toHaveText("一般會員");
    // The QR code is named for a person (issue 33 item 14); the token is in no accessible name or text.
    await expect(card.getByRole("img", { name: "會員條碼，每 40 秒更新" })).toBeVisible();
    await expect(card.getByRole("button", { name: "會員條碼，每 40 秒更新" })).toBeVisible();
    const liveToken = (await card.getByTestId("card-qr").getAttribute("data-token")) ?? "";
    expect(liveToken).toMatch(/^[A-Za-z0-9_-]{27}\.[A-Za-z0-9_-]{22}$/);
    expect(await card.ariaSnapshot()).not.toContain(liveToken);
    await expect(card.getByTestId("card-countdown")).toContainText("秒後更新");

    // 320 + 80 earned, 3 × 100 redeemed (the 2025 points first): 100 left, 20 of them from 2025.
    await expect(page.getByTestId("points-balance")).toHaveText("100");
    await expect(page.getByTestId("points-expiring")).toHaveText("20 點將於 2026/12/31 到期");
    await expect(page.getByTestId("tier-spend")).toHaveText("近 12 個月消費 NT$ 40,000");
    // The 2025-12-10 purchase stops counting on 2026-12-10: the last day to spend is the 9th.
    await expect(page.getByTestId("tier-next")).toHaveText("於 2026/12/09 前再消費 NT$ 10,000，即可升級為銀卡會員");
    await expect(page.getByRole("progressbar", { name: "升級進度" })).toHaveAttribute("aria-valuenow", "80");

    await expect(page.getByTestId("coupon-tab-unused")).toHaveText("可使用 1");
    await expect(page.getByTestId("coupon-tab-used")).toHaveText("已使用 1");
    await expect(page.getByTestId("coupon-tab-expired")).toHaveText("已過期 1");
    const valid = page.getByTestId("coupon");
    await expect(valid).toHaveCount(1);
    await expect(valid).toContainText("有效期限至 2027/01/30");
    await page.getByTestId("coupon-tab-used").click();
    await expect(page.getByTestId("coupon")).toContainText("2026/10/05 已使用");
    await page.getByTestId("coupon-tab-used").press("ArrowRight");
    await expect(page.getByTestId("coupon-tab-expired")).toBeFocused();
    await expect(page.getByTestId("coupon")).toContainText("2026/10/02 已過期");

    const activity = page.getByTestId("activity").getByRole("listitem");
    await expect(activity).toHaveCount(5);
    await expect(activity.nth(0)).toContainText("點數兌換");
    await expect(activity.nth(0)).toContainText("2026/11/01");
    await expect(activity.nth(3)).toContainText("消費 NT$ 8,000");
    await expect(activity.nth(3)).toContainText("+80 點");

    // Settings lead to the other member-center pages.
    const settings = page.getByTestId("settings");
    for (const [name, href] of [
      ["會員資料", "/member-center/edit-info"],
      ["登入與安全", "/member-center/security"],
      ["登入方式", "/member-center/linked-logins"],
      ["隱私與個人資料", "/member-center/privacy"],
    ] as const) {
      await expect(settings.getByRole("link", { name: new RegExp(name) })).toHaveAttribute("href", href);
    }

    // An available coupon opens full screen with its QR code and code.
    await page.getByTestId("coupon-tab-unused").click();
    await page.getByTestId("coupon").click();
    const full = page.getByTestId("coupon-fullscreen");
    await expect(full.getByRole("img", { name: "優惠券條碼" })).toBeVisible();
    await expect(full.getByTestId("coupon-code")).toHaveText(/^([A-Z2-9]{4} ){6}[A-Z2-9]{2}$/);
    await expect
      .poll(() => full.getByRole("img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(full).toBeHidden();

    // The full history page lists every entry with Taipei dates.
    await page.getByRole("link", { name: "點數明細" }).click();
    await expect(page).toHaveURL(/\/member-center\/points$/);
    await expect(page.getByTestId("history").getByRole("row")).toHaveCount(6);
    await expect(page.getByTestId("history")).toContainText("2025/12/10");
    await expectAccessible(page);
  });

  test("the QR code changes after its period, the old token stops resolving, full screen shows the new one", async ({
    page,
    request,
    baseURL,
  }) => {
    const { memberNumber } = await memberWithHistory(page, request, baseURL as string);
    await gotoAndCheck(page, "/member-center");
    const qr = page.getByTestId("card-qr");
    const first = (await qr.getAttribute("data-token")) ?? "";
    expect(await resolveCardToken(request, first, NOW)).toEqual({ ok: true, memberNumber });

    // 50 seconds later (past the 45-second token): the page fetches the next code by itself.
    const later = plus(NOW, 50);
    await pinClock(page, later);
    await expect(qr).not.toHaveAttribute("data-token", first, { timeout: 10_000 });
    const second = (await qr.getAttribute("data-token")) ?? "";
    expect(await resolveCardToken(request, first, later)).toEqual({ ok: false, reason: "expired" });
    expect(await resolveCardToken(request, second, later)).toEqual({ ok: true, memberNumber });
    // A token with a changed character is refused as forged.
    const forged = `${second.slice(0, -1)}${second.endsWith("A") ? "B" : "A"}`;
    expect((await resolveCardToken(request, forged, later)).ok).toBe(false);

    await page.getByTestId("card-enlarge").click();
    const full = page.getByTestId("card-fullscreen");
    await expect(full.getByRole("heading", { name: "出示會員條碼" })).toBeVisible();
    await expect(full.getByTestId("card-fullscreen-token")).toHaveText(second);
    await expect(full).toContainText(memberNumber);
    await expectAccessible(page);
  });

  test("redeeming a reward books one coupon even when sent twice, and the balance updates in place", async ({
    page,
    request,
    baseURL,
  }) => {
    const { userId } = await memberWithHistory(page, request, baseURL as string, "周品妤");
    await adjustPoints(request, userId, 500, NOW);
    const name = `木蠟油保養組 ${userId.slice(0, 6)}`;
    await addReward(request, { name, kind: "gift", pointsCost: 250 });
    await gotoAndCheck(page, "/member-center");
    await expect(page.getByTestId("points-balance")).toHaveText("600");

    await page.getByRole("link", { name: `兌換：${name}` }).click();
    const dialog = page.getByRole("dialog", { name: "確認兌換" });
    await expect(dialog).toContainText(`將使用 250 點兌換「${name}」。兌換後剩餘 350 點。`);
    await expectAccessible(page);
    // A double tap: the second tap finds the button busy, and the form carries one key anyway.
    await dialog.getByTestId("confirm-redeem").dblclick();
    await expect(dialog.getByRole("status")).toHaveText("兌換成功！優惠券已放入您的優惠券夾。");
    await expect(page.getByTestId("points-balance")).toHaveText("350");
    await expect(page.getByTestId("coupon-tab-unused")).toHaveText("可使用 2");

    await dialog.getByTestId("view-coupon").click();
    const full = page.getByTestId("coupon-fullscreen");
    await expect(full.getByRole("heading", { name })).toBeVisible();
    await page.keyboard.press("Escape");

    // The same confirmation sent twice at once (a retried request): one coupon, one debit.
    const rewardId = await page.evaluate(
      (n) =>
        [...document.querySelectorAll<HTMLAnchorElement>('a[href*="redeem="]')]
          .find((a) => a.getAttribute("aria-label")?.includes(n))
          ?.href.match(/redeem=([0-9a-f-]{36})/)?.[1],
      name,
    );
    expect(rewardId).toBeTruthy();
    const form = { intent: "redeem", rewardId: rewardId as string, key: `retry-${userId.slice(0, 8)}` };
    const post = () =>
      page.request.post("/member-center?index", { form, headers: { origin: baseURL as string, "x-test-now": NOW } });
    const [a, b] = await Promise.all([post(), post()]);
    expect([a.status(), b.status()]).toEqual([200, 200]);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByTestId("points-balance")).toHaveText("100");
    await expect(page.getByTestId("coupon-tab-unused")).toHaveText("可使用 3");
  });

  test("too few points: a clear message and nothing booked", async ({ page, request, baseURL }) => {
    const { userId } = await memberWithHistory(page, request, baseURL as string, "黃志明");
    await gotoAndCheck(page, "/member-center");
    await expect(page.getByTestId("points-balance")).toHaveText("100");
    // A reward beyond the balance says how many points are missing and offers no button.
    const dear = await addReward(request, { name: `設計諮詢 ${userId.slice(0, 6)}`, kind: "gift", pointsCost: 900 });
    const cheap = `NT$50 折價券 ${userId.slice(0, 6)}`;
    await addReward(request, { name: cheap, amountOff: 50, pointsCost: 80 });
    await page.reload();
    await waitForHydration(page);
    const dearCard = page.getByTestId("reward").filter({ hasText: `設計諮詢 ${userId.slice(0, 6)}` });
    await expect(dearCard.getByTestId("reward-blocked")).toHaveText("還差 800 點");
    await expect(dearCard.getByRole("link")).toHaveCount(0);
    expect(dear).toBeTruthy();

    // The page still offers the cheap reward, but the points were spent elsewhere meanwhile.
    await page.getByRole("link", { name: `兌換：${cheap}` }).click();
    const dialog = page.getByRole("dialog", { name: "確認兌換" });
    await adjustPoints(request, userId, -60, NOW);
    await dialog.getByTestId("confirm-redeem").click();
    await expect(dialog.getByTestId("redeem-error")).toHaveText("點數不足，無法兌換。目前可用 40 點。");
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("points-balance")).toHaveText("40");
    await expect(page.getByTestId("coupon-tab-unused")).toHaveText("可使用 1");
  });

  test("on a phone the points history fits the screen and no receipt number is split, unless it is longer than a line", async ({
    page,
    request,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const phone = newPhone();
    const { userId } = await createMember(request, { phoneNumber: phone.e164, name: "林雅婷" });
    const tag = phone.e164.slice(-6);
    const usual = `bf3e66a1${tag}-7`;
    const overlong = `INV-${tag}-${"0123456789".repeat(6)}`;
    await bookHistory(request, userId, {
      purchases: [
        { storeId: "taichung-flagship", receiptNumber: usual, netAmount: 72_070, at: "2026-11-02T14:33:00+08:00" },
        { storeId: "xinyi-flagship", receiptNumber: overlong, netAmount: 960, at: "2026-11-04T20:32:00+08:00" },
      ],
    });
    await pinClock(page, NOW);
    await loginByCookie(request, page.context(), baseURL as string, userId);
    await gotoAndCheck(page, "/member-center/points");
    await page.evaluate(() => document.fonts.ready);

    const history = page.getByTestId("history");
    await expect(history.getByRole("row")).toHaveCount(3);
    const lines = (text: string) =>
      history
        .getByText(`發票 ${text}`, { exact: true })
        .evaluate((el) =>
          Math.round(el.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(el).lineHeight)),
        );
    // The usual receipt moves to a line of its own rather than breaking before its last digits.
    expect(await lines(usual)).toBe(1);
    expect(await lines(overlong)).toBeGreaterThan(1);
    // The date sits under the item, in Taipei time.
    await expect(history.getByRole("row").nth(2)).toContainText("2026/11/02");
    // A receipt longer than the column breaks inside it, within the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, "horizontal overflow (px)").toBeLessThanOrEqual(0);
    const tableRight = await history.evaluate((el) => el.getBoundingClientRect().right);
    expect(tableRight).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, "member-points-390x844.png"), fullPage: true });
  });

  test("on a desktop both columns end together, the coupon count is a labelled badge, no card line is one lone character", async ({
    page,
    request,
    baseURL,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const { userId } = await memberWithHistory(page, request, baseURL as string, "林雅婷");
    // Rewards whose details are long enough to wrap in a half-width card.
    for (const [amountOff, pointsCost] of [
      [500, 450],
      [2000, 1800],
    ] as const) {
      await addReward(request, { name: `NT$${amountOff} 折價券 ${userId.slice(0, 4)}`, amountOff, pointsCost });
    }
    await gotoAndCheck(page, "/member-center");
    await page.evaluate(() => document.fonts.ready);

    const coupons = page.locator("#coupons");
    await expect(coupons.getByTestId("coupons-available")).toHaveText("1 張可用");

    // In every two-column grid of the page, between full-width parts, what the two sides hold ends
    // at about the same height (cells stretch to their rows; their contents do not).
    const unevenRows = await page.evaluate(() => {
      const uneven: number[] = [];
      const contentBottom = (cell: Element) =>
        Math.max(...[...cell.children].map((child) => child.getBoundingClientRect().bottom));
      for (const grid of document.querySelectorAll("main *")) {
        if (getComputedStyle(grid).display !== "grid") continue;
        if (getComputedStyle(grid).gridTemplateColumns.split(" ").length !== 2) continue;
        const box = grid.getBoundingClientRect();
        const cells = [...grid.children].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        let band = { left: 0, right: 0 };
        const close = () => {
          if (band.left && band.right) uneven.push(Math.round(Math.abs(band.left - band.right)));
          band = { left: 0, right: 0 };
        };
        for (const cell of cells) {
          const rect = cell.getBoundingClientRect();
          if (rect.width > box.width * 0.9) {
            close();
            continue;
          }
          // The first column starts at the grid's left edge; any other cell is in the second.
          const side = rect.left < box.left + 4 ? "left" : "right";
          band[side] = Math.max(band[side], contentBottom(cell));
        }
        close();
      }
      return uneven;
    });
    expect(unevenRows.length, "two-column rows").toBeGreaterThan(0);
    expect(Math.max(...unevenRows), "empty space under one side of a row (px)").toBeLessThan(400);

    // The last line of every wrapped card text holds more than one character.
    const lone = await page.evaluate(() => {
      const found: string[] = [];
      const texts = document.querySelectorAll(
        "[data-testid=reward] p, [data-testid=tier-next], #rewards > p, header p",
      );
      for (const el of texts) {
        const tops: number[] = [];
        const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
          for (let i = 0; i < node.length; i++) {
            if (/[\s·]/.test(node.data[i] ?? "")) continue;
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getBoundingClientRect();
            if (rect.width > 0) tops.push(rect.top);
          }
        }
        // Characters on one line share a top within a few pixels (Latin and CJK glyphs differ slightly).
        const lines: number[] = [];
        for (const top of tops.sort((a, b) => a - b)) {
          if (lines.length && top - (lines.at(-1) as number) < 8) continue;
          lines.push(top);
        }
        const last = lines.at(-1) as number;
        if (lines.length > 1 && tops.filter((top) => top >= last).length === 1) found.push(el.textContent ?? "");
      }
      return found;
    });
    expect(lone).toEqual([]);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });

    test("the card shows a code and a reward can still be redeemed with an ordinary form", async ({
      page,
      request,
      baseURL,
    }) => {
      const { userId } = await memberWithHistory(page, request, baseURL as string, "吳佩珊");
      const name = `NT$80 折價券 ${userId.slice(0, 6)}`;
      await addReward(request, { name, amountOff: 80, pointsCost: 80 });
      await page.goto("/member-center");
      await expect(page.getByTestId("member-card").getByRole("img", { name: /會員條碼/ })).toBeVisible();
      await expect(page.getByTestId("points-balance")).toHaveText("100");
      await page.getByRole("link", { name: `兌換：${name}` }).click();
      await expect(page).toHaveURL(/\?redeem=[0-9a-f-]{36}#rewards$/);
      await expect(page.getByText(`將使用 80 點兌換「${name}」。兌換後剩餘 20 點。`)).toBeVisible();
      await page.getByRole("button", { name: "確認兌換" }).click();
      await expect(page.getByRole("status").filter({ hasText: "兌換成功" })).toBeVisible();
      await expect(page.getByTestId("points-balance")).toHaveText("20");
      await expect(page.getByTestId("coupon-tab-unused")).toHaveText("可使用 2");
      // (axe needs JavaScript in the page; the same markup is checked with it in the tests above.)
    });
  });

  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    test(`screenshot at ${viewport.width}x${viewport.height}`, async ({ page, request, baseURL }) => {
      await page.setViewportSize(viewport);
      await memberWithHistory(page, request, baseURL as string, "林雅婷");
      await gotoAndCheck(page, "/member-center");
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, "horizontal overflow (px)").toBeLessThanOrEqual(0);
      await page.evaluate(() => document.fonts.ready);
      await page.screenshot({
        path: path.join(SCREENSHOT_DIR, `member-center-${viewport.width}x${viewport.height}.png`),
        fullPage: true,
        animations: "disabled",
      });
      await page.getByTestId("card-enlarge").click();
      await expect(page.getByTestId("card-fullscreen")).toBeVisible();
      await page.screenshot({
        path: path.join(SCREENSHOT_DIR, `member-center-card-${viewport.width}x${viewport.height}.png`),
        animations: "disabled",
      });
    });
  }
});
