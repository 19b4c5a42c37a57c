import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, expectAccessible } from "../fixtures";

/** Where the browser tests' screenshots go (for people to open; CI throws them away). */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, "../../test-results/screenshots");

type Size = { width: number; height: number };

export const DESKTOP: Size = { width: 1280, height: 800 };
export const TABLET: Size = { width: 1024, height: 768 };
export const PHONE: Size = { width: 390, height: 844 };

/**
 * The page at each size, full page, as `<name>-<label>.png`: before each screenshot the page may not scroll
 * sideways, and axe checks it (at every size, or only at the phone's with `axe: "phone"`). The viewport is set
 * back to `restore` (the desktop's unless told) afterwards.
 */
export async function screenshotSizes(
  page: Page,
  name: string,
  options: {
    sizes?: ReadonlyArray<readonly [label: string, size: Size]>;
    axe?: "each" | "phone" | "none";
    restore?: Size;
  } = {},
): Promise<void> {
  const sizes = options.sizes ?? [
    ["desktop", DESKTOP],
    ["phone", PHONE],
  ];
  const axe = options.axe ?? "each";
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  for (const [label, size] of sizes) {
    await page.setViewportSize(size);
    if (axe === "each" || (axe === "phone" && size.width === PHONE.width)) await expectAccessible(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow of ${name} at ${label} (px)`).toBeLessThanOrEqual(0);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${label}.png`),
      fullPage: true,
      animations: "disabled",
    });
  }
  await page.setViewportSize(options.restore ?? DESKTOP);
}
