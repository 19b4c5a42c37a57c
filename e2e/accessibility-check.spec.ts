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
