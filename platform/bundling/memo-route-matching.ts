import { renameAndAppend, type SourcePatch } from "./server-patches.ts";

/**
 * Route matching, remembered per path in the server build (ADR 031, "Route matching").
 *
 * React Router matches a document request's path against every route branch three or four times
 * (the request handler, the static handler's query, the static router), each time scanning the ~150
 * ranked branches of our route tree in order until one matches. A profile of an uncached `/terms` had
 * 8.8 % of the server's CPU in that scan. The answer depends only on the branches (built once per route
 * tree) and the path, so the server build keeps the last answers per branch list and hands each caller
 * its own copy.
 *
 * This patches react-router's `matchRoutesImpl` in the SSR bundle only (the browser matches once per
 * navigation and keeps every byte). The version is pinned in package.json; if the function is not
 * found as expected (an upgrade changed it), the build fails rather than silently leaving it out.
 */
const TARGET = /[\\/]react-router[\\/]dist[\\/]production[\\/]lib[\\/]router[\\/]utils\.js$/;
const SIGNATURE = "function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {";

/** At most this many paths per branch list, least recently used out first. Longer paths are not kept. */
export const MEMO_PATHS = 500;
export const MEMO_MAX_PATH_LENGTH = 512;

export const MEMO_SOURCE = `
const hanMatchMemo = new WeakMap();
function matchRoutesImpl(routes, locationArg, basename, allowPartial, precomputedBranches) {
	if (!precomputedBranches) return matchRoutesImplScan(routes, locationArg, basename, allowPartial, precomputedBranches);
	const path = (typeof locationArg === "string" ? parsePath(locationArg) : locationArg).pathname || "/";
	if (path.length > ${MEMO_MAX_PATH_LENGTH}) return matchRoutesImplScan(routes, locationArg, basename, allowPartial, precomputedBranches);
	const key = (allowPartial ? "p" : "e") + String(basename) + "\\u0000" + path;
	let memo = hanMatchMemo.get(precomputedBranches);
	if (!memo) {
		memo = new Map();
		hanMatchMemo.set(precomputedBranches, memo);
	}
	let matches = memo.get(key);
	if (matches === undefined) {
		matches = matchRoutesImplScan(routes, locationArg, basename, allowPartial, precomputedBranches);
		if (memo.size >= ${MEMO_PATHS}) memo.delete(memo.keys().next().value);
	} else memo.delete(key);
	memo.set(key, matches);
	if (!matches) return null;
	// The scan gives every match of a branch the same params object: so do the copies.
	const params = { ...matches[matches.length - 1].params };
	return matches.map((match) => ({ ...match, params }));
}
`;

/** The patch (platform/bundling/server-patches.ts) that puts MEMO_SOURCE in front of React Router's scan. */
export const routeMatchingPatch: SourcePatch = {
  name: "matchRoutesImpl (react-router/lib/router/utils.js)",
  file: TARGET,
  find: SIGNATURE,
  apply: renameAndAppend(SIGNATURE, "matchRoutesImpl", "matchRoutesImplScan", MEMO_SOURCE),
};
