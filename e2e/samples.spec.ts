import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Browser, chromium } from "@playwright/test";
import { encode } from "uqr";
import config from "../playwright.config";
import { expect, expectAccessible, test, waitForHydration } from "./fixtures";
import { createMember, memberOnPhone, newPhone } from "./support/members";
import { DESKTOP, PHONE, screenshotSizes } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * Samples (issue 37 part 3, ADR 046), as a person walks it at phone size: a member saves two materials, asks for
 * samples of both from the favourites to collect at 信義旗艦店; the store's clerk marks them ready and hands them
 * out by scanning the member's card with the camera (Chromium's fake camera); the member sees them due back in
 * 14 days. Every page is checked with axe; screenshots at 390×844 and 1280×800.
 */

const WIDTH = 640;
const HEIGHT = 480;
const MATERIALS = [
  { id: "kyoto-mist-porcelain", name: "京霧 石英磚" },
  { id: "seaside-white-subway", name: "海岸白 地鐵磚" },
];

/** One Y4M frame (Chromium's fake camera plays it in a loop) showing `text` as a QR code, or a blank picture. */
function y4mOf(text: string | null): Buffer {
  const luma = Buffer.alloc(WIDTH * HEIGHT, 235);
  if (text) {
    const { size, data } = encode(text, { ecc: "M", border: 0 });
    const module = Math.floor(300 / size);
    const left = Math.floor((WIDTH - size * module) / 2);
    const top = Math.floor((HEIGHT - size * module) / 2);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        if (!data[y]?.[x]) continue;
        for (let dy = 0; dy < module; dy++) {
          const row = (top + y * module + dy) * WIDTH;
          luma.fill(16, row + left + x * module, row + left + (x + 1) * module);
        }
      }
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128);
  const header = Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F30:1 Ip A1:1 C420jpeg\nFRAME\n`, "ascii");
  return Buffer.concat([header, luma, chroma]);
}

test("a member asks for two samples from the favourites; the clerk readies them and hands them out by scanning the card", async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(600_000);
  const base = baseURL ?? "";
  const phone = newPhone();
  const created = await createMember(page.request, { phoneNumber: phone.e164, name: "陳樣品" });

  // The member, on a phone.
  const { context: memberContext, page: phonePage } = await memberOnPhone(browser, page.request, base, created.userId);
  for (const m of MATERIALS) {
    await phonePage.goto(`/material-detail/${m.id}`);
    await waitForHydration(phonePage);
    await expect(phonePage.getByTestId("request-sample")).toBeVisible();
    await expect(phonePage.getByText(/有樣品的門市：.*信義旗艦店/)).toBeVisible();
    // The button flips at once (optimistic): wait for the save itself before leaving the page, or the next
    // navigation cancels it.
    const saved = phonePage.waitForResponse((r) => r.request().method() === "POST" && r.ok());
    await phonePage.getByRole("button", { name: "收藏", exact: true }).click();
    await expect(phonePage.getByRole("button", { name: "已收藏" })).toBeVisible();
    await saved;
  }
  await expectAccessible(phonePage);

  // From the favourites in the member center: ask for both, to collect at 信義旗艦店.
  await phonePage.goto("/member-center");
  await phonePage.getByTestId("favourites-samples").click();
  await expect(phonePage).toHaveURL(/\/member-center\/samples\/new$/);
  await expect(phonePage.getByRole("heading", { level: 1, name: "借用樣品" })).toBeVisible();
  await waitForHydration(phonePage);
  // Sent with nothing chosen: told beside the field, nothing stored.
  await phonePage.getByRole("button", { name: "送出申請" }).click();
  await expect(phonePage.locator("#materials-error")).toContainText("請至少勾選一件樣品");
  await expect(phonePage.locator("#storeId-error")).toContainText("請選擇領取門市");
  await expectAccessible(phonePage);
  for (const m of MATERIALS) await phonePage.getByLabel(m.name).check();
  await phonePage.getByRole("radio", { name: "信義旗艦店" }).check();
  await screenshotSizes(phonePage, "samples-request", { restore: PHONE });
  await phonePage.getByRole("button", { name: "送出申請" }).click();
  await expect(phonePage).toHaveURL(/\/member-center\/samples$/);
  const waiting = phonePage.getByTestId("samples-waiting");
  await expect(waiting.getByRole("listitem")).toHaveCount(2);
  await expect(waiting).toContainText("已申請，門市準備中");
  await expect(phonePage.getByTestId("samples-count")).toHaveText("借用中與申請中：2 / 5 件");
  await expectAccessible(phonePage);

  // The clerk of 信義旗艦店, on the counter's tablet with a fake camera (first a blank picture).
  const video = path.join(os.tmpdir(), `samples-camera-${testInfo.workerIndex}-${Date.now()}.y4m`);
  writeFileSync(video, y4mOf(null));
  const launch = config.use?.launchOptions ?? {};
  let tablet: Browser | null = null;
  try {
    tablet = await chromium.launch({
      ...launch,
      args: [
        ...(launch.args ?? []),
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    const clerkContext = await tablet.newContext({
      baseURL: base,
      locale: "zh-TW",
      timezoneId: "Asia/Taipei",
      viewport: DESKTOP,
      hasTouch: true,
    });
    await loginStaffByCookie(page.request, clerkContext, base, {
      role: "staff",
      storeIds: ["xinyi-flagship"],
      displayName: "林樣品",
    });
    const clerk = await clerkContext.newPage();
    await clerk.goto("/admin");
    await clerk.getByRole("navigation", { name: "後台導覽" }).getByRole("link", { name: "樣品借用" }).click();
    await expect(clerk).toHaveURL(/\/admin\/samples$/);
    await expect(clerk.getByRole("heading", { level: 1, name: "樣品借用" })).toBeVisible();
    await waitForHydration(clerk);
    for (const m of MATERIALS) {
      const row = clerk.getByTestId("sample-row").filter({ hasText: m.name }).filter({ hasText: "陳樣品" });
      await expect(row).toHaveCount(1);
      await row.getByRole("button", { name: /標示已備妥/ }).click();
      await expect(clerk.getByText("已標示為備妥。")).toBeVisible();
      await expect(row.getByTestId("sample-status")).toHaveText("待領取");
    }
    await screenshotSizes(clerk, "samples-console");

    // The member shows the card: its live token read off the member's own card page, played to the camera.
    await phonePage.goto("/member-center");
    const token = (await phonePage.getByTestId("card-qr").getAttribute("data-token")) ?? "";
    expect(token).not.toBe("");
    writeFileSync(video, y4mOf(token));
    await clerk.getByRole("button", { name: "開啟相機掃描會員卡" }).click();
    await expect(clerk).toHaveURL(/\/admin\/samples\?member=[0-9a-f-]{36}/, { timeout: 20_000 });
    const found = clerk.getByTestId("samples-member");
    await expect(found).toContainText(`陳樣品（${created.memberNumber}）的樣品`);
    await expectAccessible(clerk);
    await found.getByRole("button", { name: "交付 2 件已備妥的樣品" }).click();
    await expect(clerk.getByText("已交付，應還日為 14 天後。")).toBeVisible();
    await expect(clerk.getByTestId("sample-status")).toHaveText(["借出中", "借出中"]);
    await expect(clerk.getByTestId("samples-member")).toContainText("沒有已備妥待交付的樣品");
    await screenshotSizes(clerk, "samples-console-handed-out");
  } finally {
    await tablet?.close();
  }

  // The member sees both samples out, due back in 14 days (Taipei).
  const due = new Intl.DateTimeFormat("zh-TW", {
    timeZone: "Asia/Taipei",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(Date.now() + 14 * 86_400_000));
  await phonePage.goto("/member-center/samples");
  const out = phonePage.getByTestId("samples-out");
  await expect(out.getByRole("listitem")).toHaveCount(2);
  await expect(out.getByRole("listitem").first()).toContainText(`請於 ${due} 前歸還`);
  await expect(phonePage.getByTestId("samples-waiting")).toHaveCount(0);
  await screenshotSizes(phonePage, "samples-member", { restore: PHONE });
  await memberContext.close();
});
