import type { Page } from "@playwright/test";
import { expect, expectAccessible, gotoAndCheck, test, waitForHydration } from "./fixtures";

/**
 * The axe check every journey relies on (fixtures.ts, expectAccessible) fails when a page breaks a WCAG rule:
 * on a document where axe is not injected yet, on the same document after it was (a client-side navigation
 * keeps it), and on a page with a frame (checked frame by frame through AxeBuilder).
 */

/** An image without a text alternative (axe's image-alt rule), added to the page's main element. */
async function addImageWithoutAlt(page: Page, where: "main" | "frame") {
  await page.evaluate((into) => {
    const main = document.querySelector("main");
    if (!main) throw new Error("no main element");
    if (into === "main") {
      const img = document.createElement("img");
      img.src = "/favicon.svg";
      main.append(img);
      return;
    }
    const frame = document.createElement("iframe");
    frame.title = "a framed document";
    frame.srcdoc = '<!doctype html><html lang="zh-TW"><title>框</title><main><img src="/favicon.svg"></main></html>';
    main.append(frame);
  }, where);
  if (where === "frame") await expect.poll(() => page.frames().length).toBe(2);
}

test("the axe check fails on a violation, before and after axe is in the page, and inside a frame", async ({
  page,
}) => {
  // A fresh document (hydrated: React would drop a node added before): axe is injected by the check itself.
  await page.goto("/our-store");
  await waitForHydration(page);
  await addImageWithoutAlt(page, "main");
  await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);

  // A clean page passes, and axe stays in it; the next check on the same document reuses it.
  await gotoAndCheck(page, "/");
  await addImageWithoutAlt(page, "main");
  await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);

  // A page with a frame: the violation is inside the frame.
  await gotoAndCheck(page, "/materials");
  await addImageWithoutAlt(page, "frame");
  await expect(expectAccessible(page)).rejects.toThrow(/image-alt/);
});

test("a look not checked yet gets color-contrast, and a document checked only for its look gets every other rule", async ({
  page,
}) => {
  // A label and its field, checked in full (their look is new to this worker).
  await gotoAndCheck(page, "/our-store");
  await page.evaluate(() => {
    const main = document.querySelector("main");
    if (!main) throw new Error("no main element");
    main.insertAdjacentHTML(
      "beforeend",
      '<p id="check-note">說明文字</p><label for="check-field">門市名稱</label><input id="check-field" type="text">',
    );
  });
  await expectAccessible(page);

  // The same look except that the label names no field: not a new look, but the label rule still runs.
  await page.locator("label[for=check-field]").evaluate((label) => label.setAttribute("for", "no-such-field"));
  await expect(expectAccessible(page)).rejects.toThrow(/label/);
  await page.locator("label[for=no-such-field]").evaluate((label) => label.setAttribute("for", "check-field"));
  await expectAccessible(page);

  // Text made nearly as light as its background is a new look: color-contrast runs on it.
  await page.locator("#check-note").evaluate((note) => note.setAttribute("style", "color: #f4f4f4"));
  await expect(expectAccessible(page)).rejects.toThrow(/color-contrast/);
});
