import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { MediaImageRef } from "~/domain/images/urls";
import { ResponsiveImage } from "./responsive-image";

const HASH = "0123456789abcdef0123456789abcdef";
const image: MediaImageRef = {
  hash: HASH,
  width: 1600,
  height: 1200,
  altZh: "大理石牆",
  altEn: "Marble wall",
  variants: (["avif", "webp", "jpeg"] as const).flatMap((format) =>
    [480, 960, 1600].map((width) => ({ width, height: (width * 3) / 4, format, bytes: 1 })),
  ),
};

/** Renders under a root route whose loader gives the locale, as the app's root does. */
async function render(node: ReactNode, locale: "zh-TW" | "en" = "zh-TW") {
  const handler = createStaticHandler([
    { id: "root", path: "/", loader: () => ({ locale, messages: {} }), Component: () => node },
  ]);
  const context = await handler.query(new Request("http://localhost/"));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
  return html.slice(html.indexOf("<picture>"), html.indexOf("</picture>") + "</picture>".length);
}

describe("ResponsiveImage", () => {
  it("renders AVIF and WebP sources and a JPEG img with srcset, sizes, width, height, lazy and async", async () => {
    const html = await render(<ResponsiveImage image={image} sizes="(min-width: 1024px) 33vw, 100vw" />);
    expect(html).toMatch(/^<picture>/);
    expect(html).toContain(
      `<source type="image/avif" srcSet="/media/${HASH}/480.avif 480w, /media/${HASH}/960.avif 960w, /media/${HASH}/1600.avif 1600w" sizes="(min-width: 1024px) 33vw, 100vw"/>`,
    );
    expect(html.indexOf("image/avif")).toBeLessThan(html.indexOf("image/webp"));
    expect(html).toContain(`src="/media/${HASH}/960.jpg"`);
    expect(html).toContain(`/media/${HASH}/1600.jpg 1600w`);
    expect(html).toMatch(/width="1600"[^>]*height="1200"/);
    expect(html).toContain('loading="lazy"');
    expect(html).toContain('decoding="async"');
    expect(html).toContain('alt="大理石牆"');
    expect(await render(<ResponsiveImage image={image} sizes="100vw" />, "en")).toContain('alt="Marble wall"');
    const noEnglish = { ...image, altEn: "" };
    expect(await render(<ResponsiveImage image={noEnglish} sizes="100vw" />, "en")).toContain('alt="大理石牆"');
  });

  it("loads eagerly with high priority when asked (the picture above the fold), and takes another alt text", async () => {
    const html = await render(<ResponsiveImage image={image} sizes="100vw" eager alt="" />);
    expect(html).toContain('loading="eager"');
    expect(html).toContain('fetchPriority="high"');
    expect(html).toContain('alt=""');
  });
});
