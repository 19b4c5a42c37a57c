import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, gotoAndCheck, test, waitForHydration } from "./fixtures";
import { SCREENSHOT_DIR } from "./support/screenshots";
import { loginStaffByCookie } from "./support/staff";

/**
 * WCAG 2.2 2.4.11 Focus Not Obscured (minimum): the public site's header and the console's store preview banner
 * are sticky; an element that keyboard focus or an #anchor scrolls into view must stop below them, not under them
 * (`scroll-padding-top` in app.css). Walked backwards with Shift+Tab from the page's end (each step scrolls the
 * page up), by Tab onto a control the page was scrolled to leave under the bar (the case the browser's own
 * scrolling misses), and through an anchor link, at a phone's and a desktop's size. With E2E_NO_SCROLL_PADDING=1
 * the padding is taken away and the focus checks fail (how the test was checked).
 */
const SIZES = [
  { label: "phone", width: 390, height: 844 },
  { label: "desktop", width: 1280, height: 800 },
] as const;

/** The focused element's top and the sticky bar's bottom, in the viewport's pixels. */
async function focusedAgainst(page: Page, bar: string) {
  return page.evaluate((selector) => {
    const el = document.activeElement as HTMLElement | null;
    const barBottom = document.querySelector(selector)?.getBoundingClientRect().bottom ?? 0;
    const box = el?.getBoundingClientRect();
    return {
      tag: el ? `${el.tagName.toLowerCase()} ${el.textContent?.trim().slice(0, 30) ?? ""}` : "none",
      top: box?.top ?? -1,
      bottom: box?.bottom ?? -1,
      barBottom,
      inHeader: Boolean(el?.closest(selector)),
    };
  }, bar);
}

/** Shift+Tab from the end of the page up through `steps` focusable elements: each must show below the bar. */
async function walkBackwards(page: Page, bar: string, steps: number) {
  // The page's last focusable element (the footer's last link, or the preview's last control).
  await page.evaluate(() => {
    const focusable = [...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea")].filter(
      (el) => el.offsetParent !== null && !el.hasAttribute("disabled"),
    );
    focusable.at(-1)?.focus();
  });
  let scrolledUp = 0;
  let lastY = await page.evaluate(() => window.scrollY);
  for (let i = 0; i < steps; i++) {
    await page.keyboard.press("Shift+Tab");
    const f = await focusedAgainst(page, bar);
    if (f.inHeader) break;
    // Scrolling is instant for focus; one frame for layout.
    await page.evaluate(() => new Promise(requestAnimationFrame));
    const after = await focusedAgainst(page, bar);
    expect(after.top, `${after.tag}: its top below the sticky bar`).toBeGreaterThanOrEqual(after.barBottom - 0.5);
    const y = await page.evaluate(() => window.scrollY);
    if (y < lastY) scrolledUp++;
    lastY = y;
  }
  // The walk did scroll the page up (else it proved nothing).
  expect(scrolledUp).toBeGreaterThanOrEqual(2);
}

/**
 * The case the browser's own "scroll into view if needed" misses: the page scrolled (by a wheel, a swipe, Page Down)
 * so that the next control sits under the bar, inside the window; Tab then moves focus onto it. Without
 * scroll-padding the browser counts it as visible and does not scroll: focus is hidden under the bar.
 */
async function tabOntoControlsUnderBar(page: Page, bar: string, picks: number) {
  const count = await page.evaluate(() => {
    const all = [...document.querySelectorAll<HTMLElement>("main a[href], main button, main input, main select")];
    const shown = all.filter((el) => el.offsetParent !== null && !el.hasAttribute("disabled"));
    shown.forEach((el, i) => {
      el.dataset.e2eFocusable = String(i);
    });
    return shown.length;
  });
  expect(count).toBeGreaterThan(picks + 1);
  for (let k = 1; k <= picks; k++) {
    const index = Math.floor((count * k) / (picks + 1));
    const placed = await page.evaluate(
      ([i, selector]) => {
        const target = document.querySelector<HTMLElement>(`[data-e2e-focusable="${i}"]`);
        const before = document.querySelector<HTMLElement>(`[data-e2e-focusable="${Number(i) - 1}"]`);
        const barBottom = document.querySelector(selector as string)?.getBoundingClientRect().bottom ?? 0;
        if (!target || !before) return null;
        // The target's top a third of the way down the bar, then focus on the control before it, not scrolled.
        window.scrollBy({ top: target.getBoundingClientRect().top - barBottom / 3, behavior: "instant" });
        before.focus({ preventScroll: true });
        return { top: target.getBoundingClientRect().top, barBottom };
      },
      [index, bar] as const,
    );
    if (!placed || placed.top > placed.barBottom) continue; // the page could not scroll that far
    await page.keyboard.press("Tab");
    await page.evaluate(() => new Promise(requestAnimationFrame));
    const f = await focusedAgainst(page, bar);
    expect(f.top, `${f.tag}: its top below the sticky bar after Tab`).toBeGreaterThanOrEqual(f.barBottom - 0.5);
  }
}

/** E2E_NO_SCROLL_PADDING=1: the padding taken away, to see the checks fail without it. */
async function withoutPaddingWhenAsked(page: Page) {
  if (process.env.E2E_NO_SCROLL_PADDING) {
    await page.addStyleTag({ content: "html { scroll-padding-top: 0 !important; }" });
  }
}

for (const size of SIZES) {
  test(`focus stays below the site header while tabbing back up a long page (${size.label})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await gotoAndCheck(page, "/materials");
    await waitForHydration(page);
    await withoutPaddingWhenAsked(page);
    await tabOntoControlsUnderBar(page, '[data-sticky-top="site-header"]', 5);
    await walkBackwards(page, '[data-sticky-top="site-header"]', 40);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `focus-not-obscured-materials-${size.label}.png`) });
  });

  test(`an anchor scrolls its target below the site header (${size.label})`, async ({ page }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await gotoAndCheck(page, "/materials");
    await waitForHydration(page);
    await withoutPaddingWhenAsked(page);
    // A material card halfway down the page, scrolled to as an #anchor (a link to it, or a "skip to").
    const id = await page.evaluate(() => {
      const cards = [...document.querySelectorAll<HTMLElement>("main li")];
      const target = cards[Math.floor(cards.length / 2)];
      if (!target) return null;
      target.id ||= "e2e-anchor-target";
      return target.id;
    });
    expect(id).not.toBeNull();
    await page.evaluate((anchor) => {
      location.hash = anchor;
    }, `#${id}`);
    const place = () =>
      page.evaluate((anchor) => {
        const top = document.getElementById(anchor)?.getBoundingClientRect().top ?? -1;
        const bar = document.querySelector('[data-sticky-top="site-header"]')?.getBoundingClientRect().bottom ?? 0;
        return { top: Math.round(top), bar: Math.round(bar), scrolled: window.scrollY > 0 };
      }, id as string);
    await expect.poll(async () => (await place()).scrolled).toBe(true);
    const { top, bar } = await place();
    // Below the header, and at the top of what is left of the window (the page scrolled to it).
    expect(top).toBeGreaterThanOrEqual(bar);
    expect(top).toBeLessThan(bar + 40);
  });

  test(`focus stays below the store preview's banner (${size.label})`, async ({ page, baseURL }) => {
    await loginStaffByCookie(page.request, page.context(), baseURL ?? "", { role: "admin" });
    await page.setViewportSize({ width: size.width, height: size.height });
    await gotoAndCheck(page, "/admin/stores/xinyi-flagship/preview");
    await waitForHydration(page);
    await withoutPaddingWhenAsked(page);
    await tabOntoControlsUnderBar(page, '[data-sticky-top="preview-banner"]', 3);
    await walkBackwards(page, '[data-sticky-top="preview-banner"]', 30);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `focus-not-obscured-preview-${size.label}.png`) });
  });
}
