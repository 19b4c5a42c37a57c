import { chromium } from "playwright-core";
const base = process.argv[2] ?? "http://127.0.0.1:3111";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu"] });
for (const [w, h, name] of [[390, 844, "phone"], [1280, 800, "desktop"]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, deviceScaleFactor: 1 });
  const page = await ctx.newPage();
  await page.goto(`${base}/member-center`);
  await page.getByLabel("手機號碼").fill("0912-345-678");
  await page.getByLabel("密碼").fill("HanLiving-Demo-2026");
  await page.getByRole("button", { name: "登入", exact: true }).click();
  await page.waitForURL(/member-center$/);
  await page.waitForTimeout(4500);
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0, i = 0; y < height; y += h, i++) {
    await page.screenshot({ path: `/tmp/shots/${name}-${i}.png`, fullPage: true, clip: { x: 0, y, width: w, height: Math.min(h, height - y) } });
  }
  if (name === "phone") {
    await page.getByTestId("card-enlarge").click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/${name}-full.png` });
    await page.keyboard.press("Escape");
    await page.getByTestId("coupon").first().click();
    await page.waitForTimeout(800);
    await page.screenshot({ path: `/tmp/shots/${name}-coupon.png` });
    await page.keyboard.press("Escape");
    await page.getByRole("link", { name: /兌換/ }).first().click();
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/${name}-redeem.png` });
  }
  await ctx.close();
}
await browser.close();
