import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { MEMO_PATHS, MEMO_SOURCE, routeMatchingPatch } from "./memo-route-matching";
import { applyPatches } from "./server-patches";

type Match = { route: { id: string }; pathname: string; params: Record<string, string> };
type Matcher = (
  routes: unknown,
  location: string | { pathname: string },
  basename: string,
  allowPartial: boolean,
  branches?: object,
) => Match[] | null;

/** The memo as the server build has it, over a stand-in for React Router's scan. */
function memoOver(scan: (path: string) => Match[] | null) {
  const spy = vi.fn((_routes: unknown, location: string | { pathname: string }) =>
    scan(typeof location === "string" ? location : location.pathname),
  );
  const parsePath = (value: string) => ({ pathname: value.split("?")[0] });
  const matchRoutesImpl = new Function("parsePath", "matchRoutesImplScan", `${MEMO_SOURCE}\nreturn matchRoutesImpl;`)(
    parsePath,
    spy,
  ) as Matcher;
  return { matchRoutesImpl, scans: spy };
}

const terms = (): Match[] => {
  const params = { lang: "zh" };
  return [
    { route: { id: "root" }, pathname: "/", params },
    { route: { id: "terms" }, pathname: "/terms", params },
  ];
};

describe("route matching remembered per path (server build)", () => {
  it("scans once per path and branch list, and gives each caller its own matches", () => {
    const { matchRoutesImpl, scans } = memoOver((p) => (p === "/terms" ? terms() : null));
    const branches = {};
    const first = matchRoutesImpl([], "/terms", "/", false, branches);
    const second = matchRoutesImpl([], { pathname: "/terms" }, "/", false, branches);
    expect(scans).toHaveBeenCalledTimes(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    // One params object per answer, shared by its matches, as React Router's scan does.
    expect(second?.[0]?.params).toBe(second?.[1]?.params);
    expect(second?.[0]?.params).not.toBe(first?.[0]?.params);
    const mutated = first?.[1];
    if (mutated) mutated.params.lang = "en";
    expect(matchRoutesImpl([], "/terms", "/", false, branches)?.[1]?.params.lang).toBe("zh");

    // Not found is remembered too; another branch list, a partial match or no precomputed
    // branches scan again.
    expect(matchRoutesImpl([], "/nope", "/", false, branches)).toBeNull();
    expect(matchRoutesImpl([], "/nope", "/", false, branches)).toBeNull();
    expect(scans).toHaveBeenCalledTimes(2);
    matchRoutesImpl([], "/terms", "/", false, {});
    matchRoutesImpl([], "/terms", "/", true, branches);
    matchRoutesImpl([], "/terms", "/", false, undefined);
    matchRoutesImpl([], "/terms", "/", false, undefined);
    expect(scans).toHaveBeenCalledTimes(6);
  });

  it("keeps a bounded number of paths, and no very long path", () => {
    const { matchRoutesImpl, scans } = memoOver(() => null);
    const branches = {};
    for (let i = 0; i <= MEMO_PATHS; i++) matchRoutesImpl([], `/p/${i}`, "/", false, branches);
    expect(scans).toHaveBeenCalledTimes(MEMO_PATHS + 1);
    // The oldest went out; the newest is still there.
    matchRoutesImpl([], `/p/${MEMO_PATHS}`, "/", false, branches);
    expect(scans).toHaveBeenCalledTimes(MEMO_PATHS + 1);
    matchRoutesImpl([], "/p/0", "/", false, branches);
    expect(scans).toHaveBeenCalledTimes(MEMO_PATHS + 2);
    const long = `/${"x".repeat(600)}`;
    matchRoutesImpl([], long, "/", false, branches);
    matchRoutesImpl([], long, "/", false, branches);
    expect(scans).toHaveBeenCalledTimes(MEMO_PATHS + 4);
  });

  it("patches the pinned react-router, and fails the build when the function changed", () => {
    const require = createRequire(import.meta.url);
    const file = path.join(
      path.dirname(require.resolve("react-router/package.json")),
      "dist/production/lib/router/utils.js",
    );
    const fail = (message: string): never => {
      throw new Error(message);
    };
    const out = applyPatches([routeMatchingPatch], readFileSync(file, "utf8"), file, fail);
    expect(out?.code).toContain("function matchRoutesImplScan(");
    expect(out?.code).toContain("const hanMatchMemo = new WeakMap();");
    expect(applyPatches([routeMatchingPatch], "export const x = 1;", "/app/other.js", fail)).toBeNull();
    expect(() => applyPatches([routeMatchingPatch], "function matchRoutesImpl(routes) {}", file, fail)).toThrow(
      /changed/,
    );
  });
});
