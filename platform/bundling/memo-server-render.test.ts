import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import {
  ENTRY_SOURCE,
  RESOLVED_PATH_SOURCE,
  renderPatches,
  SERVER_ROUTES_SOURCE,
  STATIC_ROUTER_SOURCE,
} from "./memo-server-render";
import { applyPatches } from "./server-patches";

const require = createRequire(import.meta.url);
const reactRouter = path.dirname(require.resolve("react-router/package.json"));
const fail = (message: string): never => {
  throw new Error(message);
};

type Path = { pathname: string; search: string; hash: string };
type UseResolvedPath = (to: unknown, options?: { relative?: string }) => Path;

/** `useResolvedPath` from hooks.js as published or as patched, over stand-ins for the router's context. */
function hook(source: string, context: { matches: { pathname: string }[]; pathname: string }) {
  const resolveTo = vi.fn((to: unknown, pathnames: string[], location: string, isPathRelative: boolean) => ({
    pathname: `${pathnames.at(-1)}|${typeof to === "string" ? to : JSON.stringify(to)}|${location}|${isPathRelative}`,
    search: "",
    hash: "",
  }));
  const start = source.indexOf("function useResolvedPath(");
  const end = source.indexOf("\n}\n", start) + 3;
  const tail = source.includes("const hanResolvedPaths") ? "const hanResolvedPaths = new WeakMap();" : "";
  const React$1 = { useContext: () => ({ matches: context.matches }), useMemo: (make: () => unknown) => make() };
  const useResolvedPath = new Function(
    "React$1",
    "RouteContext",
    "useLocation",
    "getResolveToMatches",
    "resolveTo",
    `${source.slice(start, end)}\n${tail}\nreturn useResolvedPath;`,
  )(
    React$1,
    {},
    () => ({ pathname: context.pathname }),
    (matches: { pathname: string }[]) => matches.map((match) => match.pathname),
    resolveTo,
  ) as UseResolvedPath;
  return { useResolvedPath, resolveTo };
}

describe("React Router's repeated server work, done once (server build)", () => {
  it("patches each file of the pinned react-router, and fails the build when one changed", () => {
    const files: Record<string, [string, string]> = {
      "useResolvedPath (react-router/lib/hooks.js)": ["hooks.js", "const hanResolvedPaths = new WeakMap();"],
      "createServerRoutes (react-router/lib/dom/ssr/routes.js)": [
        "dom/ssr/routes.js",
        "function createServerRoutesBuild(",
      ],
      "createStaticRouter (react-router/lib/dom/server.js)": [
        "dom/server.js",
        "const hanStaticDataRoutes = new WeakMap();",
      ],
      "createEntryRouteModules (react-router/lib/server-runtime/entry.js)": [
        "server-runtime/entry.js",
        "function createEntryRouteModulesBuild(",
      ],
    };
    expect(renderPatches.map((patch) => patch.name).sort()).toEqual(Object.keys(files).sort());
    for (const patch of renderPatches) {
      const [name, marker] = files[patch.name] as [string, string];
      const file = path.join(reactRouter, "dist/production/lib", name);
      const out = applyPatches(renderPatches, readFileSync(file, "utf8"), file, fail);
      expect(out?.applied).toEqual([patch]);
      expect(out?.code).toContain(marker);
      // Every memo a patch uses is declared in the file it patches.
      const code = out?.code as string;
      for (const [name] of code.matchAll(/\bhan[A-Z]\w*/g)) expect(code).toContain(`const ${name} = new WeakMap();`);
      expect(() => applyPatches([patch], "function other() {}", file, fail)).toThrow(/changed/);
    }
    expect(applyPatches(renderPatches, "export const x = 1;", "/app/other.js", fail)).toBeNull();
  });

  it("resolves each link's path once per route level and location, with the published answers", () => {
    const published = readFileSync(path.join(reactRouter, "dist/production/lib/hooks.js"), "utf8");
    const patched = applyPatches(renderPatches, published, "/x/react-router/dist/production/lib/hooks.js", fail)
      ?.code as string;
    expect(patched).toContain(RESOLVED_PATH_SOURCE);
    const context = { matches: [{ pathname: "/" }, { pathname: "/member-center" }], pathname: "/member-center" };
    const before = hook(published, context);
    const after = hook(patched, context);
    const calls: [unknown, { relative?: string }?][] = [
      ["/our-store"],
      ["points"],
      ["/our-store"],
      ["..", { relative: "path" }],
      ["..", { relative: "route" }],
      [{ pathname: "/materials", search: "?q=1" }],
      ["points"],
    ];
    const answers = calls.map(([to, options]) => after.useResolvedPath(to, options));
    expect(answers).toEqual(calls.map(([to, options]) => before.useResolvedPath(to, options)));
    // Four distinct string paths, and the object one (not remembered).
    expect(after.resolveTo).toHaveBeenCalledTimes(5);
    // Each caller has its own copy.
    expect(answers[2]).not.toBe(answers[0]);
    (answers[0] as Path).pathname = "changed";
    expect(after.useResolvedPath("/our-store").pathname).not.toBe("changed");
    expect(after.resolveTo).toHaveBeenCalledTimes(5);

    // Another location, or another route level's matches, resolve again.
    context.pathname = "/member-center/points";
    after.useResolvedPath("/our-store");
    expect(after.resolveTo).toHaveBeenCalledTimes(6);
    context.matches = [{ pathname: "/" }, { pathname: "/member-center" }];
    after.useResolvedPath("/our-store");
    expect(after.resolveTo).toHaveBeenCalledTimes(7);
  });

  it("builds the server's route tree once per build", () => {
    const build = vi.fn((..._args: unknown[]) => [{ id: "root" }]);
    const createServerRoutes = new Function(
      "createServerRoutesBuild",
      `${SERVER_ROUTES_SOURCE}\nreturn createServerRoutes;`,
    )(build) as (...args: unknown[]) => unknown;
    const manifest = {};
    const modules = {};
    const first = createServerRoutes(manifest, modules, {}, false);
    expect(createServerRoutes(manifest, modules, {}, false)).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
    // The recursion into a subtree goes straight to the builder.
    createServerRoutes(manifest, modules, {}, false, "root", {}, null);
    expect(build).toHaveBeenLastCalledWith(manifest, modules, {}, false, "root", {}, null);
    // Other route modules (a new build) or SPA mode build again.
    expect(createServerRoutes(manifest, {}, {}, false)).not.toBe(first);
    createServerRoutes(manifest, modules, {}, true);
    expect(build).toHaveBeenCalledTimes(4);
  });

  it("converts the static router's data routes once per route tree, and the route modules once per build", () => {
    const convert = vi.fn((routes: { id: string }[], _a: unknown, _b: unknown, manifest: Record<string, unknown>) =>
      routes.map((route) => {
        const dataRoute = { ...route, converted: true };
        manifest[route.id] = dataRoute;
        return dataRoute;
      }),
    );
    const dataRoutesOf = new Function(
      "convertRoutesToDataRoutes",
      `const hanStaticDataRoutes = new WeakMap();\nreturn (routes) => {\n${STATIC_ROUTER_SOURCE}\nreturn { manifest, dataRoutes };\n};`,
    )(convert) as (routes: { id: string }[]) => { manifest: Record<string, unknown>; dataRoutes: unknown[] };
    const routes = [{ id: "root" }];
    const first = dataRoutesOf(routes);
    expect(first.manifest.root).toBe(first.dataRoutes[0]);
    expect(dataRoutesOf(routes)).toEqual(first);
    expect(dataRoutesOf(routes).dataRoutes).toBe(first.dataRoutes);
    expect(convert).toHaveBeenCalledTimes(1);
    dataRoutesOf([{ id: "root" }]);
    expect(convert).toHaveBeenCalledTimes(2);

    const buildModules = vi.fn((manifest: Record<string, { module: unknown }>) =>
      Object.fromEntries(Object.entries(manifest).map(([id, route]) => [id, route.module])),
    );
    const createEntryRouteModules = new Function(
      "createEntryRouteModulesBuild",
      `${ENTRY_SOURCE}\nreturn createEntryRouteModules;`,
    )(buildModules) as (manifest: object) => object;
    const buildRoutes = { root: { module: { default: "Root" } } };
    expect(createEntryRouteModules(buildRoutes)).toEqual({ root: { default: "Root" } });
    expect(createEntryRouteModules(buildRoutes)).toBe(createEntryRouteModules(buildRoutes));
    expect(buildModules).toHaveBeenCalledTimes(1);
  });
});
