import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, data, type RouteObject, StaticRouterProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { shellCatalogPath } from "~/lib/i18n.server";
import { unavailableError } from "~/lib/unavailable.server";
import { en } from "~/locales/en";
import { zhTW } from "~/locales/zh-TW";
import { ERROR_VIEWS, type ErrorKind, GeneralErrorBoundary } from "./error-boundary";

/**
 * Renders a page whose loader throws `thrown`, under a root that names the locale's shell catalog
 * (as the app's root loader does), through React Router's own server rendering.
 */
async function renderError(thrown: unknown, locale: "zh-TW" | "en", path = "/somewhere") {
  const routes: RouteObject[] = [
    {
      id: "root",
      path: "/",
      loader: () => ({ locale, catalog: shellCatalogPath(locale) }),
      ErrorBoundary: () => <GeneralErrorBoundary standalone />,
      children: [
        {
          path: "*",
          loader: () => {
            throw thrown;
          },
          ErrorBoundary: () => <GeneralErrorBoundary />,
          Component: () => null,
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${path}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />).replaceAll(
    "<!-- -->",
    "",
  );
  return { html, text: html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " "), status: context.statusCode };
}

const status = (code: number, body: unknown = null) => data(body, { status: code });

const CASES: [number, ErrorKind, string, string][] = [
  [400, "badRequest", "無法處理這個請求", "Bad Request"],
  [415, "badRequest", "無法處理這個請求", "Bad Request"],
  [401, "unauthorized", "請先登入會員", "Unauthorized"],
  [403, "forbidden", "沒有瀏覽權限", "Forbidden"],
  [404, "notFound", "找不到頁面", "Page not found: /somewhere"],
  [409, "conflict", "資料已經變更", "Conflict"],
  [429, "tooManyRequests", "操作太頻繁", "Too Many Requests"],
  [500, "server", "系統發生錯誤", "Internal Server Error"],
  // The database outage's 503 (app/lib/unavailable.server.ts) on a client-side navigation.
  [503, "unavailable", "暫時無法使用", "Service Unavailable"],
];

describe("the error boundary's status views", () => {
  it.each(CASES)(
    "%i gets the %s view: zh-TW title and sentence first, the English line beside",
    async (code, kind, title, english) => {
      const { html, text } = await renderError(status(code, code === 404 ? { path: "/somewhere" } : null), "zh-TW");
      expect(html).toContain(`data-testid="${ERROR_VIEWS[kind].testId}"`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>${title}</h1>`));
      const local = zhTW[ERROR_VIEWS[kind].local].replace("{path}", "/somewhere");
      expect(text).toContain(local);
      expect(html).toMatch(new RegExp(`<p lang="en"[^>]*>${english}</p>`));
      // The reader's language comes first.
      expect(text.indexOf(local)).toBeLessThan(text.indexOf(english));
      expect(text).toContain(String(code));
    },
  );

  it.each(CASES)(
    "%i in English shows the English view only, without a repeated line",
    async (code, kind, _title, english) => {
      const { html, text } = await renderError(status(code, code === 404 ? { path: "/somewhere" } : null), "en");
      expect(html).toMatch(new RegExp(`<h1[^>]*>${en[ERROR_VIEWS[kind].title].replace("’", "’")}</h1>`));
      expect(text.split(english).length - 1).toBe(1);
      expect(html).not.toContain('lang="en"');
      expect(text).not.toMatch(/[\u4e00-\u9fff]/);
    },
  );

  it("offers the way forward each status needs", async () => {
    expect((await renderError(status(401), "zh-TW")).html).toContain('href="/member-login?redirectTo=%2Fsomewhere"');
    expect((await renderError(status(409), "zh-TW")).text).toContain("重新整理");
    expect((await renderError(status(400), "zh-TW")).text).toContain("回上一頁");
    expect((await renderError(status(403), "zh-TW")).html).toContain('href="/"');
  });

  it("shows the database outage's 503 as the calm view, with a reload first", async () => {
    const { html, text, status: code } = await renderError(unavailableError(), "zh-TW", "/member-center/points");
    expect(code).toBe(503);
    expect(html).toContain('data-testid="temporarily-unavailable"');
    expect(text).toContain("您的點數與會員資料都安全保存");
    expect(html).toMatch(/<a href="\/member-center\/points"[^>]*>重新整理/);
    expect(html).not.toContain('data-testid="server-error"');
  });

  it("treats a thrown Error as the server error and never shows its message in a production build", async () => {
    vi.stubEnv("DEV", false);
    const { html, text } = await renderError(new Error("deliberate secret detail"), "zh-TW");
    expect(html).toContain('data-testid="server-error"');
    expect(text).toContain("Internal Server Error");
    expect(text).not.toContain("deliberate secret detail");
    vi.unstubAllEnvs();
  });

  it("lets a section replace one status's view (the console's own 403)", async () => {
    const routes: RouteObject[] = [
      {
        id: "root",
        path: "/",
        loader: () => ({ locale: "zh-TW", catalog: shellCatalogPath("zh-TW") }),
        ErrorBoundary: () => (
          <GeneralErrorBoundary statusHandlers={{ 403: ({ status }) => <p>console says {status}</p> }} />
        ),
        children: [{ path: "*", loader: () => Promise.reject(status(403)), Component: () => null }],
      },
    ];
    const handler = createStaticHandler(routes);
    const context = await handler.query(new Request("http://localhost/admin"));
    if (context instanceof Response) throw new Error("unexpected redirect");
    const html = renderToString(
      <StaticRouterProvider
        router={createStaticRouter(handler.dataRoutes, context)}
        context={context}
        hydrate={false}
      />,
    );
    expect(html.replaceAll("<!-- -->", "")).toContain("console says 403");
  });
});
