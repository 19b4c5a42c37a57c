import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { apiRouteLabel, ROUTE_ID_CACHE_SIZE, reactRouterRouteId } from "./metrics";

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

describe("apiRouteLabel", () => {
  it("names the endpoint of an API request answered before it (a replay, a refusal, the outage's 503)", () => {
    expect(apiRouteLabel("/api/v1/purchases")).toBe("/api/v1/purchases");
    expect(apiRouteLabel("/api/v1/purchases/7f1c/refunds")).toBe("/api/v1/purchases/:id/refunds");
    expect(apiRouteLabel("/api/v1/members/HL00000001/balance")).toBe("/api/v1/members/:memberNumber/balance");
    expect(apiRouteLabel("/api/v1/coupons/ABC-123/redeem")).toBe("/api/v1/coupons/:code/redeem");
    expect(apiRouteLabel("/api/line/webhook")).toBe("/api/line/webhook/");
    // Anything else stays out of the labels (a scanner's paths must not grow the series).
    expect(apiRouteLabel("/api/v1/no/such/thing")).toBeNull();
    expect(apiRouteLabel("/api/v1/members/a/b/balance")).toBeNull();
    expect(apiRouteLabel("/assets/app.js")).toBeNull();
  });
});
