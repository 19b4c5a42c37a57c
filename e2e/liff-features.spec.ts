import path from "node:path";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, expectAccessible, pinClock, test, waitForHydratedElement, waitForHydration } from "./fixtures";
import { addReward, bookHistory } from "./support/member-history";
import { createMember, loginByCookie, newPhone } from "./support/members";

/**
 * LINE's features inside LINE (ADR 035) under @line/liff-mock: share a page through the share target picker,
 * add the member card to the home screen, send a coupon to the chat. The mock answers every LIFF call; the test
 * wraps its methods (window.liff, exposed under the mock only) to see what the page asked LINE to do.
 */

const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../test-results/screenshots");
/** LINE's in-app browser for a LIFF app on an iPhone (the " LIFF" suffix is what LIFF reads as "in the client"). */
const LIFF_USER_AGENT =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.19.0 LIFF";
const MATERIAL = "/material-detail/hualien-white-marble";
const STORE = "/store-detail/xinyi-flagship";
// Wednesday 2026-11-25, 10:15 in Taipei.
const NOW = "2026-11-25T10:15:00+08:00";

type LiffError = { code: string; message: string };
type MockSetup = { data?: Record<string, unknown>; rejections?: Record<string, LiffError> };
type LiffCall = { api: string; args: unknown[] };
type FlexLike = {
  type: string;
  altText: string;
  contents: {
    hero?: unknown;
    body: { contents: { text?: string }[] };
    footer: { contents: { action: { label: string; uri: string } }[] };
  };
};

/**
 * The mock data LIFF starts with: logged in, every API available, plus `data`; each API in `rejections` fails
 * as the SDK fails (a LiffError: code and message), through a thenable the mock hands back as its answer.
 */
async function openInLine(page: Page, { data = {}, rejections = {} }: MockSetup = {}) {
  await page.addInitScript(
    ({ data, rejections }) => {
      const mock: Record<string, unknown> = { isLoggedIn: true, isInClient: true, isApiAvailable: true, ...data };
      for (const [api, error] of Object.entries(rejections)) {
        mock[api] = {
          // biome-ignore lint/suspicious/noThenProperty: the mock resolves its answer, so a thenable is how it fails
          then: (_resolve: unknown, reject: (e: unknown) => void) =>
            reject(Object.assign(new Error(error.message), { code: error.code })),
        };
      }
      window.__LIFF_MOCK__ = mock;
    },
    { data, rejections },
  );
}

/** Wraps the mocked LIFF calls so the test can read what the page sent; waits for LIFF and its features. */
async function recordLiffCalls(page: Page) {
  await page.waitForFunction(() => Boolean((window as { liff?: unknown }).liff && window.__hanLiff));
  await page.evaluate(async () => {
    await window.__hanLiff?.features();
    const w = window as unknown as { liff: Record<string, unknown>; __liffCalls: { api: string; args: unknown[] }[] };
    w.__liffCalls = [];
    const wrap = (owner: Record<string, unknown>, name: string, api: string) => {
      const original = owner[name] as (...args: unknown[]) => unknown;
      owner[name] = (...args: unknown[]) => {
        w.__liffCalls.push({ api, args });
        return original(...args);
      };
    };
    for (const api of ["shareTargetPicker", "sendMessages", "createShortcutOnHomeScreen"]) wrap(w.liff, api, api);
    wrap(w.liff.permission as Record<string, unknown>, "requestAll", "permission.requestAll");
  });
}

/** Lets React commit what the features' answers changed (two frames), before checking that nothing shows. */
async function settle(page: Page) {
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

const liffCalls = (page: Page) => page.evaluate(() => (window as unknown as { __liffCalls: LiffCall[] }).__liffCalls);

/** Changes the mock's answers while the page is open (the same thenable trick for a failure). */
async function setMock(page: Page, api: string, answer: { value?: unknown; error?: LiffError }) {
  await page.evaluate(
    ({ api, answer }) => {
      const value = answer.error
        ? {
            // biome-ignore lint/suspicious/noThenProperty: see openInLine
            then: (_resolve: unknown, reject: (e: unknown) => void) =>
              reject(Object.assign(new Error(answer.error?.message), { code: answer.error?.code })),
          }
        : answer.value;
      const liff = (window as unknown as { liff: { $mock: { set(f: (p: object) => object): void } } }).liff;
      liff.$mock.set((prev) => ({ ...prev, [api]: value }));
    },
    { api, answer },
  );
}

async function memberWithCoupon(page: Page, request: APIRequestContext, baseURL: string) {
  const phone = newPhone();
  const { userId } = await createMember(request, { phoneNumber: phone.e164, name: "林佳蓉" });
  const rewardName = `NT$300 折價券 ${phone.e164.slice(-6)}`;
  const rewardId = await addReward(request, { name: rewardName, amountOff: 300, pointsCost: 100, couponValidDays: 30 });
  await bookHistory(request, userId, {
    purchases: [
      {
        storeId: "xinyi-flagship",
        receiptNumber: `L-${phone.e164.slice(-8)}`,
        netAmount: 20_000,
        at: "2026-10-01T12:00:00+08:00",
      },
    ],
    redemptions: [{ rewardId, at: "2026-11-20T11:00:00+08:00" }],
  });
  await pinClock(page, NOW);
  await loginByCookie(request, page.context(), baseURL, userId);
  return { rewardName };
}

test.describe("inside LINE (LIFF, @line/liff-mock)", () => {
  test.use({ userAgent: LIFF_USER_AGENT, viewport: { width: 390, height: 844 } });

  test("a material is shared through the share target picker: success, then cancelled, then LINE's timeout", async ({
    page,
    baseURL,
  }) => {
    await openInLine(page, { data: { shareTargetPicker: { status: "success" } } });
    await page.goto(MATERIAL);
    await waitForHydration(page);
    await recordLiffCalls(page);
    const share = page.getByRole("button", { name: "分享給好友" });
    await expect(share).toBeVisible();
    await expectAccessible(page);
    await share.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/liff-share-button-material-phone.png` });

    // Keyboard: the button is reachable and starts the picker.
    await share.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("toast-client-1")).toContainText("已分享給好友");
    const [call] = await liffCalls(page);
    expect(call?.api).toBe("shareTargetPicker");
    const [messages, options] = (call?.args ?? []) as [FlexLike[], { isMultiple: boolean }];
    expect(options).toEqual({ isMultiple: true });
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.type).toBe("flex");
    expect(message?.altText).toBe("漢生活｜花蓮白 大理石");
    expect(message?.contents.body.contents.map((c) => c.text)).toEqual([
      "建材選品",
      "花蓮白 大理石",
      "天然石材・台灣石系列",
    ]);
    // With the local provider there is no real LIFF app: the link is the page's own address.
    expect(message?.contents.footer.contents[0]?.action).toEqual({
      type: "uri",
      label: "查看建材",
      uri: `${baseURL}${MATERIAL}`,
    });
    // The demo catalogue's pictures are SVG, which LINE cannot show in a Flex message: no picture, not a refusal.
    expect(message?.contents.hero).toBeUndefined();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/liff-share-material-toast-phone.png` });

    // Cancelled in the picker (no result): nothing is said.
    await setMock(page, "shareTargetPicker", { value: undefined });
    await share.click();
    await expect.poll(async () => (await liffCalls(page)).length).toBe(2);
    await expect(share).not.toHaveAttribute("aria-disabled");
    await expect(page.locator("[data-toast-expected]")).toHaveAttribute("data-toast-expected", "client-1");
    await expect(page.getByText(/分享沒有完成|LINE 沒有完成/)).toHaveCount(0);

    // LINE gave up after 10 minutes (the SDK's timeout): said in the member's words.
    await setMock(page, "shareTargetPicker", {
      error: { code: "EXCEPTION_IN_SUBWINDOW", message: "Timeout: not finished within 10min" },
    });
    await share.click();
    await expect(page.getByTestId("toast-client-2")).toContainText("分享等候超過 10 分鐘，已自動取消，請再試一次。");

    // Any other result: LINE's description in brackets.
    await setMock(page, "shareTargetPicker", {
      error: { code: "EXCEPTION_IN_SUBWINDOW", message: "FAILURE: message rejected" },
    });
    await share.click();
    await expect(page.getByTestId("toast-client-3")).toContainText(
      "分享沒有完成（FAILURE: message rejected），請再試一次。",
    );
  });

  test("a showroom is shared with its name and address", async ({ page, baseURL }) => {
    await openInLine(page, { data: { shareTargetPicker: { status: "success" } } });
    await page.goto(STORE);
    await waitForHydration(page);
    await recordLiffCalls(page);
    await page.getByRole("button", { name: "分享給好友" }).click();
    await expect(page.getByTestId("toast-client-1")).toContainText("已分享給好友");
    const [call] = await liffCalls(page);
    const [message] = (call?.args[0] ?? []) as FlexLike[];
    expect(message?.contents.body.contents[0]?.text).toBe("門市據點");
    expect(message?.contents.body.contents[1]?.text).toBe(await page.getByRole("heading", { level: 1 }).textContent());
    expect(message?.contents.body.contents[2]?.text).toBe(await page.getByTestId("store-address").textContent());
    expect(message?.contents.footer.contents[0]?.action).toMatchObject({
      label: "查看門市",
      uri: `${baseURL}${STORE}`,
    });
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/liff-share-store-phone.png` });
  });

  test("the member center offers the card as a home-screen shortcut, and adds it", async ({
    page,
    request,
    baseURL,
  }) => {
    await memberWithCoupon(page, request, baseURL as string);
    await openInLine(page);
    await page.goto("/member-center");
    await waitForHydration(page);
    await recordLiffCalls(page);
    const shortcut = page.getByRole("button", { name: "將會員卡加入主畫面" });
    await expect(shortcut).toBeVisible();
    await expect(shortcut).toHaveAccessibleDescription("之後從手機主畫面一點就能出示會員卡。");
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/liff-card-shortcut-phone.png` });

    await shortcut.click();
    await expect(page.getByTestId("toast-client-1")).toContainText("請依照畫面指示，完成加入主畫面");
    expect(await liffCalls(page)).toEqual([
      { api: "createShortcutOnHomeScreen", args: [{ url: `${baseURL}/member-center` }] },
    ]);

    // LINE refusing the address: clear words.
    await setMock(page, "createShortcutOnHomeScreen", { error: { code: "INVALID_ARGUMENT", message: "invalid URL." } });
    await shortcut.click();
    await expect(page.getByTestId("toast-client-2")).toContainText("這個連結無法加入主畫面。");
  });

  test("a coupon is sent to the chat after LINE's consent screen, never with its code; an old LINE's 403 asks for 12.0.1", async ({
    page,
    request,
    baseURL,
  }) => {
    const { rewardName } = await memberWithCoupon(page, request, baseURL as string);
    // Opened from a group chat (the mock's context), the permission not yet granted: LINE asks first.
    await openInLine(page, { data: { "permission.query": { state: "prompt" } } });
    await page.goto("/member-center");
    await waitForHydration(page);
    await recordLiffCalls(page);
    // The wallet loads after hydration: a click before it lands on nothing (CI, 2026-12-07).
    await waitForHydratedElement(page.getByTestId("coupon").first());
    await page.getByTestId("coupon").first().click();
    const full = page.getByTestId("coupon-fullscreen");
    await expect(full).toBeVisible();
    const code = ((await full.getByTestId("coupon-code").textContent()) ?? "").replace(/\s/g, "");
    expect(code).toMatch(/^[A-Z2-9]{26}$/);
    const send = full.getByRole("button", { name: "傳送到這個聊天室" });
    await expect(send).toBeVisible();
    await expect(send).toHaveAccessibleDescription(/不含兌換碼/);
    await expectAccessible(page);

    await send.click();
    await expect(full.getByRole("status")).toHaveText("已傳送到聊天室");
    const calls = await liffCalls(page);
    expect(calls.map((c) => c.api)).toEqual(["permission.requestAll", "sendMessages"]);
    const [messages] = (calls[1]?.args ?? []) as [FlexLike[]];
    expect(messages).toHaveLength(1);
    const sent = JSON.stringify(messages);
    expect(sent).toContain(rewardName);
    expect(sent).toContain(((await full.getByText(/^有效期限至/).textContent()) ?? "-").trim());
    expect(sent).toContain("優惠券限會員本人於門市出示使用。");
    // Never the code (anyone in the chat could redeem it), nor the QR code's address.
    expect(sent).not.toContain(code);
    expect(sent).not.toContain("/qr");
    const link = messages[0]?.contents.footer.contents[0]?.action.uri ?? "";
    expect(link).toMatch(new RegExp(`^${baseURL}/member-center\\?coupon=[0-9a-f-]{36}$`));
    await page.screenshot({ path: `${SCREENSHOT_DIR}/liff-coupon-send-phone.png` });

    // An old LINE app answers the send with 403.
    await setMock(page, "sendMessages", { error: { code: "403", message: "Forbidden" } });
    await send.click();
    await expect(full.getByRole("alert")).toHaveText("請將 LINE 更新至 12.0.1 以上版本");
    await expect(send).toBeFocused();
    await expectAccessible(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/liff-coupon-send-403-phone.png` });

    // The message's link opens that coupon for its owner.
    await page.goto(new URL(link).pathname + new URL(link).search);
    await waitForHydration(page);
    await expect(page.getByTestId("coupon-fullscreen").getByTestId("coupon-code")).toHaveText(
      code.replace(/(.{4})(?=.)/g, "$1 "),
    );
  });

  test("where this LINE cannot do it, the buttons stay hidden", async ({ page, request, baseURL }) => {
    await memberWithCoupon(page, request, baseURL as string);
    // An old LINE (no share picker, no shortcut), opened outside a chat, without chat_message.write.
    await openInLine(page, {
      data: {
        isApiAvailable: false,
        "permission.query": { state: "unavailable" },
        getContext: { type: "external", scope: ["openid", "profile"], availability: {} },
      },
    });
    await page.goto(MATERIAL);
    await waitForHydration(page);
    await recordLiffCalls(page);
    await settle(page);
    await expect(page.getByRole("button", { name: "分享給好友" })).toHaveCount(0);
    await page.goto("/member-center");
    await waitForHydration(page);
    await recordLiffCalls(page);
    await settle(page);
    await expect(page.getByRole("button", { name: "將會員卡加入主畫面" })).toHaveCount(0);
    // The wallet loads after hydration: a click before it lands on nothing (CI, 2026-12-07).
    await waitForHydratedElement(page.getByTestId("coupon").first());
    await page.getByTestId("coupon").first().click();
    await expect(page.getByTestId("coupon-fullscreen").getByTestId("coupon-code")).toBeVisible();
    await settle(page);
    await expect(page.getByRole("button", { name: "傳送到這個聊天室" })).toHaveCount(0);
  });

  test("in LINE's plain in-app browser (LIFF as in an external browser) nothing is offered", async ({ page }) => {
    await openInLine(page, { data: { isInClient: false, shareTargetPicker: { status: "success" } } });
    await page.goto(STORE);
    await waitForHydration(page);
    await recordLiffCalls(page);
    await settle(page);
    await expect(page.getByRole("button", { name: "分享給好友" })).toHaveCount(0);
  });

  test("in a chat without chat_message.write in the LIFF app, the coupon has no send button", async ({
    page,
    request,
    baseURL,
  }) => {
    await memberWithCoupon(page, request, baseURL as string);
    await openInLine(page, { data: { "permission.query": { state: "unavailable" } } });
    await page.goto("/member-center");
    await waitForHydration(page);
    await recordLiffCalls(page);
    await expect(page.getByRole("button", { name: "將會員卡加入主畫面" })).toBeVisible();
    // The wallet loads after hydration: a click before it lands on nothing (CI, 2026-12-07).
    await waitForHydratedElement(page.getByTestId("coupon").first());
    await page.getByTestId("coupon").first().click();
    await expect(page.getByTestId("coupon-fullscreen").getByTestId("coupon-code")).toBeVisible();
    await settle(page);
    await expect(page.getByRole("button", { name: "傳送到這個聊天室" })).toHaveCount(0);
  });
});

test("outside LINE: no LINE feature buttons, no LIFF code, and the server's HTML does not offer them", async ({
  page,
  request,
  baseURL,
}) => {
  const chunks: string[] = [];
  page.on("request", (r) => {
    if (/liff|@line/i.test(new URL(r.url()).pathname)) chunks.push(r.url());
  });
  await memberWithCoupon(page, request, baseURL as string);
  for (const path of [MATERIAL, STORE]) {
    await page.goto(path);
    await waitForHydration(page);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page.getByRole("button", { name: "分享給好友" })).toHaveCount(0);
    const html = await (await request.get(path)).text();
    expect(html).not.toContain("分享給好友");
  }
  await page.goto("/member-center");
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "將會員卡加入主畫面" })).toHaveCount(0);
  await waitForHydratedElement(page.getByTestId("coupon").first());
  await page.getByTestId("coupon").first().click();
  await expect(page.getByTestId("coupon-fullscreen").getByTestId("coupon-code")).toBeVisible();
  await expect(page.getByRole("button", { name: "傳送到這個聊天室" })).toHaveCount(0);
  expect(chunks).toEqual([]);
});
