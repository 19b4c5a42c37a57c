import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  type RouteObject,
  Link as RouterLink,
  NavLink as RouterNavLink,
  StaticRouterProvider,
} from "react-router";
import { describe, expect, it } from "vitest";
import { Link, NavLink } from "./link";

type Links = { Link: typeof RouterLink; NavLink: typeof RouterNavLink };

/**
 * The page at `url`, rendered through React Router's server rendering, with `content` drawn by either
 * React Router's links or ours. The page sits three routes deep (`/account/:tab/*`), so a relative
 * target resolves against real route matches.
 */
async function render(url: string, content: (links: Links) => ReactNode, links: Links) {
  const routes: RouteObject[] = [
    {
      path: "/",
      Component: () => <main>{content(links)}</main>,
      children: [{ path: "account", Component: () => null, children: [{ path: ":tab/*", Component: () => null }] }],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

const LINKS: [string, (l: Links) => ReactNode][] = [
  ["an absolute path", (l) => <l.Link to="/member-center">會員中心</l.Link>],
  ["a path with a query and a hash", (l) => <l.Link to="/member-center?tab=points&x=1#coupons">點數</l.Link>],
  ["a lone ? and #", (l) => <l.Link to="/materials?#">建材</l.Link>],
  ["dot segments and double slashes", (l) => <l.Link to="/a/./b/../c//d">x</l.Link>],
  ["an explicit trailing slash", (l) => <l.Link to="/account/">x</l.Link>],
  ["dot segments that end in a slash", (l) => <l.Link to="/a/b/../">x</l.Link>],
  ["the root", (l) => <l.Link to="/">首頁</l.Link>],
  ["the root with a query", (l) => <l.Link to="/?q=1">x</l.Link>],
  ["Chinese and a space", (l) => <l.Link to="/materials/大理石 白">x</l.Link>],
  ["a trailing space", (l) => <l.Link to="/materials ">x</l.Link>],
  ["a backslash", (l) => <l.Link to="/a\b">x</l.Link>],
  ["above the root", (l) => <l.Link to="/../../x">x</l.Link>],
  ["a protocol-relative URL", (l) => <l.Link to="//evil.example/x">x</l.Link>],
  ["a backslash-relative URL", (l) => <l.Link to="\\\\evil.example/x">x</l.Link>],
  [
    "an external URL in a new tab",
    (l) => (
      <l.Link to="https://line.me/R/ti/p/@brand" target="_blank" rel="noreferrer">
        LINE
      </l.Link>
    ),
  ],
  ["a mailto: URL", (l) => <l.Link to="mailto:service@example.com">mail</l.Link>],
  ["the current route", (l) => <l.Link to=".">x</l.Link>],
  ["the parent route", (l) => <l.Link to="..">x</l.Link>],
  [
    "the parent path",
    (l) => (
      <l.Link to=".." relative="path">
        x
      </l.Link>
    ),
  ],
  ["a query of the current page", (l) => <l.Link to="?redeem=r1#rewards">兌換</l.Link>],
  ["a hash", (l) => <l.Link to="#top">x</l.Link>],
  ["a relative path", (l) => <l.Link to="points/history">x</l.Link>],
  ["an empty path", (l) => <l.Link to="">x</l.Link>],
  ["an object", (l) => <l.Link to={{ pathname: "/materials", search: "?category=tile", hash: "#list" }}>x</l.Link>],
  ["an object with a search only", (l) => <l.Link to={{ search: "?page=2" }}>x</l.Link>],
  ["a masked link", (l) => <l.Link to="/materials/1" mask={{ pathname: "/m/1" }} />],
  [
    "every prop React Router consumes",
    (l) => (
      <l.Link
        to="/member-center"
        reloadDocument
        replace
        preventScrollReset
        viewTransition
        state={{ from: "x" }}
        prefetch="intent"
        onClick={() => undefined}
        defaultShouldRevalidate={false}
      >
        x
      </l.Link>
    ),
  ],
  ["prefetch on render", (l) => <l.Link to="/materials" prefetch="render" />],
  ["prefetch in the viewport", (l) => <l.Link to="/materials" prefetch="viewport" />],
  ["no discovery", (l) => <l.Link to="/materials" discover="none" />],
  ["no discovery, relative", (l) => <l.Link to="points" discover="none" />],
  [
    "the attributes it passes on",
    (l) => (
      <l.Link
        to="/stores"
        id="s"
        className="underline"
        style={{ color: "red" }}
        aria-label="門市"
        data-testid="stores"
        rel="next"
        title="t"
        tabIndex={-1}
        download
      >
        <span>門市</span> 一覽
      </l.Link>
    ),
  ],
];

const NAV_LINKS: [string, (l: Links) => ReactNode][] = [
  ["a section", (l) => <l.NavLink to="/account">帳號</l.NavLink>],
  ["a section, to the end only", (l) => <l.NavLink to="/account" end className="nav" />],
  ["the root", (l) => <l.NavLink to="/">首頁</l.NavLink>],
  ["the root, to the end only", (l) => <l.NavLink to="/" end />],
  ["a trailing slash", (l) => <l.NavLink to="/account/" />],
  ["a prefix that is not a segment", (l) => <l.NavLink to="/acc" />],
  ["another case", (l) => <l.NavLink to="/ACCOUNT" />],
  ["another case, case-sensitive", (l) => <l.NavLink to="/ACCOUNT" caseSensitive />],
  ["a query and a hash", (l) => <l.NavLink to="/account/points?x=1#y" />],
  ["dot segments", (l) => <l.NavLink to="/x/../account" />],
  ["Chinese", (l) => <l.NavLink to="/account/點數" />],
  ["a trailing space", (l) => <l.NavLink to="/account " />],
  ["aria-current of its own", (l) => <l.NavLink to="/account" aria-current="true" />],
  [
    "render props",
    (l) => (
      <l.NavLink
        to="/account"
        className={({ isActive, isPending }) => (isActive ? "on" : isPending ? "wait" : "off")}
        style={({ isActive }) => ({ fontWeight: isActive ? 700 : 400 })}
      >
        {({ isActive, isTransitioning }) => `${isActive}-${isTransitioning}`}
      </l.NavLink>
    ),
  ],
  ["a view transition", (l) => <l.NavLink to="/account" viewTransition className="t" />],
  ["a relative target", (l) => <l.NavLink to="points" />],
  ["an object", (l) => <l.NavLink to={{ pathname: "/account" }} />],
  ["an external URL", (l) => <l.NavLink to="https://example.com/account" />],
  ["Link's props", (l) => <l.NavLink to="/account" reloadDocument discover="none" target="_self" id="n" />],
];

const PAGES = [
  "/",
  "/account",
  "/account/points",
  "/account/points/",
  "/Account/Points",
  "/account/%E9%BB%9E%E6%95%B8",
];

describe("the server's Link and NavLink", () => {
  it("are not React Router's own here (the tests run as the server build does)", () => {
    expect(Link).not.toBe(RouterLink);
    expect(NavLink).not.toBe(RouterNavLink);
  });

  it.each(PAGES)("write React Router's HTML for every kind of link on %s", async (page) => {
    for (const [name, content] of [...LINKS, ...NAV_LINKS]) {
      const theirs = await render(page, content, { Link: RouterLink, NavLink: RouterNavLink });
      const ours = await render(page, content, { Link, NavLink });
      expect(theirs, name).toContain("<a ");
      expect(ours, name).toBe(theirs);
    }
  });

  it("mark the section a NavLink is in, and only that one", async () => {
    const html = await render(
      "/account/points",
      (l) => (
        <>
          <l.NavLink to="/account">帳號</l.NavLink>
          <l.NavLink to="/materials">建材</l.NavLink>
        </>
      ),
      { Link, NavLink },
    );
    expect(html).toContain('<a aria-current="page" class="active" href="/account" data-discover="true">帳號</a>');
    expect(html).toContain('<a class="" href="/materials" data-discover="true">建材</a>');
  });
});
