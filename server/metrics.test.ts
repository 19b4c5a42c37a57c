import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { ROUTE_ID_CACHE_SIZE, reactRouterRouteId } from "./metrics";

/** A build's route table as React Router writes it (only what the metrics read). */
function buildWith(routes: Record<string, { id: string; parentId?: string; path?: string; index?: boolean }>) {
  return { routes } as unknown as ServerBuild;
}

const build = buildWith({
  root: { id: "root", path: "" },
  layout: { id: "routes/_layout", parentId: "root" },
  home: { id: "routes/home", parentId: "routes/_layout", index: true },
  store: { id: "routes/store-detail", parentId: "routes/_layout", path: "store-detail/:id" },
  splat: { id: "routes/not-found", parentId: "routes/_layout", path: "*" },
});

describe("reactRouterRouteId", () => {
  it("names the route serving a page or its data request", () => {
    expect(reactRouterRouteId(build, "/")).toBe("routes/home");
    expect(reactRouterRouteId(build, "/_root.data")).toBe("routes/home");
    expect(reactRouterRouteId(build, "/store-detail/xinyi")).toBe("routes/store-detail");
    expect(reactRouterRouteId(build, "/store-detail/xinyi.data")).toBe("routes/store-detail");
    expect(reactRouterRouteId(build, "/no/such/page")).toBe("routes/not-found");
  });

  it("answers the same from its cache, per build, however many paths it has seen", () => {
    for (let i = 0; i < ROUTE_ID_CACHE_SIZE + 10; i++) reactRouterRouteId(build, `/store-detail/s${i}`);
    expect(reactRouterRouteId(build, "/store-detail/s0")).toBe("routes/store-detail");
    expect(reactRouterRouteId(build, "/")).toBe("routes/home");
    const other = buildWith({
      root: { id: "root", path: "" },
      only: { id: "routes/only", parentId: "root", index: true },
    });
    expect(reactRouterRouteId(other, "/")).toBe("routes/only");
    expect(reactRouterRouteId(other, "/store-detail/s0")).toBe("unmatched");
  });
});
