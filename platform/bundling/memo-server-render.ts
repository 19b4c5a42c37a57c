import { renameAndAppend, type SourcePatch } from "./server-patches.ts";

/**
 * Work React Router repeats on every server render although its answer is the same each time (ADR 031,
 * "Later (2026-11-27, third session)"). The patches apply to the server build only (server-patches.ts).
 *
 * - `useResolvedPath`: every `<Link>` resolves its `to` three times (href, click handler, NavLink's active
 *   state), each time turning the route's pathnames into JSON and back. On the server a render happens once, so
 *   the pathnames are worked out once per matches list (one per route level per request) and each `to` once per
 *   location; every caller gets its own copy of the answer.
 * - The route tree: each document request built the server's data routes for all ~150 routes twice
 *   (`createServerRoutes`, then `createStaticRouter`'s `convertRoutesToDataRoutes`), from the route modules
 *   (`createEntryRouteModules`, a fresh object per request). All three depend only on the build, so they are
 *   built once per build (a WeakMap on the build's objects) and shared: nothing writes to them while rendering.
 */
const HOOKS = /[\\/]react-router[\\/]dist[\\/]production[\\/]lib[\\/]hooks\.js$/;
const SSR_ROUTES = /[\\/]react-router[\\/]dist[\\/]production[\\/]lib[\\/]dom[\\/]ssr[\\/]routes\.js$/;
const STATIC_ROUTER = /[\\/]react-router[\\/]dist[\\/]production[\\/]lib[\\/]dom[\\/]server\.js$/;
const ENTRY = /[\\/]react-router[\\/]dist[\\/]production[\\/]lib[\\/]server-runtime[\\/]entry\.js$/;

const RESOLVED_PATH_FIND = `	let routePathnamesJson = JSON.stringify(getResolveToMatches(matches));
	return React$1.useMemo(() => resolveTo(to, JSON.parse(routePathnamesJson), locationPathname, relative === "path"), [
		to,
		routePathnamesJson,
		locationPathname,
		relative
	]);
}`;

/** The new end of `useResolvedPath` (after its `matches` and `locationPathname`), and the memo it uses. */
export const RESOLVED_PATH_SOURCE = `	const isPathRelative = relative === "path";
	if (typeof to !== "string") return resolveTo(to, getResolveToMatches(matches), locationPathname, isPathRelative);
	let memo = hanResolvedPaths.get(matches);
	if (!memo) {
		memo = { pathnames: getResolveToMatches(matches), paths: new Map() };
		hanResolvedPaths.set(matches, memo);
	}
	const key = (isPathRelative ? "p" : "r") + locationPathname + "\\u0000" + to;
	let path = memo.paths.get(key);
	if (!path) {
		path = resolveTo(to, memo.pathnames, locationPathname, isPathRelative);
		memo.paths.set(key, path);
	}
	return { ...path };
}
const hanResolvedPaths = new WeakMap();`;

const SERVER_ROUTES_FIND =
  'function createServerRoutes(manifest, routeModules, future, isSpaMode, parentId = "", routesByParentId = groupRoutesByParentId(manifest), spaModeLazyPromise = Promise.resolve({ Component: () => null })) {';

/** `createServerRoutes` as the callers see it: the whole tree once per manifest and route modules. */
export const SERVER_ROUTES_SOURCE = `
const hanServerRoutes = new WeakMap();
function createServerRoutes(manifest, routeModules, future, isSpaMode, ...subtree) {
	if (subtree.length > 0) return createServerRoutesBuild(manifest, routeModules, future, isSpaMode, ...subtree);
	let built = hanServerRoutes.get(manifest);
	if (!built || built.routeModules !== routeModules || built.isSpaMode !== isSpaMode) {
		built = { routeModules, isSpaMode, routes: createServerRoutesBuild(manifest, routeModules, future, isSpaMode) };
		hanServerRoutes.set(manifest, built);
	}
	return built.routes;
}
`;

const STATIC_ROUTER_FIND = `	let manifest = {};
	let dataRoutes = convertRoutesToDataRoutes(routes, void 0, void 0, manifest);`;

/** `createStaticRouter`'s data routes and their manifest, once per route tree. */
export const STATIC_ROUTER_SOURCE = `	let memo = hanStaticDataRoutes.get(routes);
	if (!memo) {
		const manifest = {};
		memo = { manifest, dataRoutes: convertRoutesToDataRoutes(routes, void 0, void 0, manifest) };
		hanStaticDataRoutes.set(routes, memo);
	}
	let { manifest, dataRoutes } = memo;`;

const ENTRY_FIND = "function createEntryRouteModules(manifest) {";

/** `createEntryRouteModules` once per build's route list. */
export const ENTRY_SOURCE = `
const hanEntryRouteModules = new WeakMap();
function createEntryRouteModules(manifest) {
	let modules = hanEntryRouteModules.get(manifest);
	if (!modules) {
		modules = createEntryRouteModulesBuild(manifest);
		hanEntryRouteModules.set(manifest, modules);
	}
	return modules;
}
`;

export const renderPatches: SourcePatch[] = [
  {
    name: "useResolvedPath (react-router/lib/hooks.js)",
    file: HOOKS,
    find: RESOLVED_PATH_FIND,
    apply: (code) => code.replace(RESOLVED_PATH_FIND, RESOLVED_PATH_SOURCE),
  },
  {
    name: "createServerRoutes (react-router/lib/dom/ssr/routes.js)",
    file: SSR_ROUTES,
    find: SERVER_ROUTES_FIND,
    apply: renameAndAppend(SERVER_ROUTES_FIND, "createServerRoutes", "createServerRoutesBuild", SERVER_ROUTES_SOURCE),
  },
  {
    name: "createStaticRouter (react-router/lib/dom/server.js)",
    file: STATIC_ROUTER,
    find: STATIC_ROUTER_FIND,
    apply: (code) =>
      `${code.replace(STATIC_ROUTER_FIND, STATIC_ROUTER_SOURCE)}\nconst hanStaticDataRoutes = new WeakMap();\n`,
  },
  {
    name: "createEntryRouteModules (react-router/lib/server-runtime/entry.js)",
    file: ENTRY,
    find: ENTRY_FIND,
    apply: renameAndAppend(ENTRY_FIND, "createEntryRouteModules", "createEntryRouteModulesBuild", ENTRY_SOURCE),
  },
];
