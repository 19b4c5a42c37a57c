import { timingSafeEqual } from "node:crypto";
import { databaseUnavailableSince } from "@platform/db/availability";
import { APPLICATION_NAME, type DatabaseHandle, rowsOf } from "@platform/db/client";
import { dbPoolConnections, dbUp, jobQueueDepth, observeHttpRequest, registry } from "@platform/metrics";
import { sql } from "drizzle-orm";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { API_V1_PATH, apiV1Route } from "./api/v1/middleware/known-paths";
import { LINE_WEBHOOK_PATH } from "./line/webhook";

/**
 * /metrics (Prometheus text format) and the per-request histogram (docs/operations.md "Metrics and
 * alerts"). Requests are labelled by route id: the React Router route id of a page or resource
 * route, the Express pattern of an API route (`/api/v1/members/:memberNumber/balance`), `static` for
 * files, `unmatched` for anything else: never the raw URL, so a scanner cannot grow the series.
 */

type ManifestRoute = { id: string; parentId?: string; path?: string; index?: boolean; caseSensitive?: boolean };

const trees = new WeakMap<object, RouteObject[]>();

function routeTree(build: ServerBuild): RouteObject[] {
  let tree = trees.get(build.routes);
  if (!tree) {
    const routes = Object.values(build.routes) as ManifestRoute[];
    const children = (parentId: string | undefined): RouteObject[] =>
      routes
        .filter((r) => r.parentId === parentId)
        .map((r) =>
          r.index
            ? { id: r.id, index: true, path: r.path }
            : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: children(r.id) },
        );
    tree = children(undefined);
    trees.set(build.routes, tree);
  }
  return tree;
}

/** Route ids of the paths seen lately, per build: `matchRoutes` flattens and ranks the whole route table on every call. */
const routeIds = new WeakMap<object, Map<string, string>>();
/** Paths remembered per build; a scanner's random paths only ever cost what every request cost before. */
export const ROUTE_ID_CACHE_SIZE = 1000;

/** The React Router route id serving a path (data requests end in `.data`; `/_root.data` is `/`). */
export function reactRouterRouteId(build: ServerBuild, pathname: string): string {
  let known = routeIds.get(build.routes);
  if (!known) {
    known = new Map();
    routeIds.set(build.routes, known);
  }
  const cached = known.get(pathname);
  if (cached !== undefined) return cached;
  const path = pathname === "/_root.data" ? "/" : pathname.replace(/\.data$/, "");
  const id = matchRoutes(routeTree(build), path)?.at(-1)?.route.id ?? "unmatched";
  if (known.size >= ROUTE_ID_CACHE_SIZE) known.delete(known.keys().next().value as string);
  known.set(pathname, id);
  return id;
}

/** The pattern server/app.ts mounts React Router's request handler on. */
export const REACT_ROUTER_PATTERN = "/{*splat}";

/**
 * An answer given for a page before React Router's handler (the render cache, the page while the database is
 * away): counted under the route id of the page it stands for, not as `static` or `unmatched`.
 */
export function countAsPage(res: Response): void {
  res.locals.metricsPage = true;
}

/**
 * The route label of an API request answered before its endpoint (an idempotent replay, a refusal of the key or
 * the body, the 503 while the database is away): the endpoint's pattern, as its own answers are counted; null for
 * a path that is no endpoint.
 */
export function apiRouteLabel(path: string): string | null {
  if (path.startsWith(`${API_V1_PATH}/`)) {
    const route = apiV1Route(path.slice(API_V1_PATH.length));
    return route === null ? null : `${API_V1_PATH}${route}`;
  }
  if (path === LINE_WEBHOOK_PATH || path === `${LINE_WEBHOOK_PATH}/`) return `${LINE_WEBHOOK_PATH}/`;
  return null;
}

/** Page requests whose route id is still being looked up: a scrape waits for them, so it never misses one. */
const pendingRecords = new Set<Promise<void>>();

export function httpMetrics(loadBuild: () => Promise<ServerBuild>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const pattern = (req.route as { path?: unknown } | undefined)?.path;
      const record = (route: string) => observeHttpRequest(route, req.method, res.statusCode, seconds);
      // React Router's catch-all (server/app.ts), or a page answered in its place: the route id comes from the
      // build's route table.
      if ((req.baseUrl === "" && pattern === REACT_ROUTER_PATTERN) || res.locals.metricsPage === true) {
        const path = req.originalUrl.split("?")[0] as string;
        const recorded = loadBuild().then(
          (build) => record(reactRouterRouteId(build, path)),
          () => record("unmatched"),
        );
        pendingRecords.add(recorded);
        void recorded.finally(() => pendingRecords.delete(recorded));
        return;
      }
      if (typeof pattern === "string") {
        record(`${req.baseUrl}${pattern}`);
        return;
      }
      // No Express route: an API request answered before its endpoint, a static file, or a refusal before
      // routing (origin, body size).
      const api = apiRouteLabel(req.originalUrl.split("?")[0] as string);
      record(api ?? (res.statusCode < 400 ? "static" : "unmatched"));
    });
    next();
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Gauges read at scrape time: this instance's pool in pg_stat_activity, and the job queue's depth. While the
 * database cannot be read (already known to be away: no wait for a connection timeout) they are emptied rather
 * than left at what they last were, only the pool's configured maximum stays, and hanliving_db_up is 0.
 */
async function refreshGauges(database: DatabaseHandle, poolMax: number | null): Promise<void> {
  const unreadable = () => {
    dbPoolConnections.reset();
    if (poolMax !== null) dbPoolConnections.set({ state: "max" }, poolMax);
    jobQueueDepth.reset();
    dbUp.set(0);
  };
  if (databaseUnavailableSince()) {
    unreadable();
    return;
  }
  try {
    if (database.driver === "postgres") {
      const states = rowsOf<{ state: string | null; n: number }>(
        await database.db.execute(
          sql`select state, count(*)::int as n from pg_stat_activity where application_name = ${APPLICATION_NAME} group by state`,
        ),
      );
      dbPoolConnections.reset();
      for (const { state, n } of states) dbPoolConnections.set({ state: state ?? "unknown" }, Number(n));
      if (poolMax !== null) dbPoolConnections.set({ state: "max" }, poolMax);
    }
    const queued = rowsOf<{ name: string; state: string; n: number }>(
      await database.db.execute(sql`
        select name, state::text as state, count(*)::int as n from pgboss.job
        where state in ('created', 'retry', 'active') group by 1, 2`),
    );
    jobQueueDepth.reset();
    for (const { name, state, n } of queued) jobQueueDepth.set({ queue: name, state }, Number(n));
    dbUp.set(1);
  } catch {
    unreadable();
  }
}

/**
 * GET /metrics: 404 unless METRICS_TOKEN is configured; then 401 without `Authorization: Bearer
 * <token>`. The endpoint is on the public port on purpose (one port to run), so the token is the
 * protection: scrape over TLS or a private network.
 */
export function metricsEndpoint(options: {
  token: string | null;
  database: DatabaseHandle;
  poolMax: number | null;
}): RequestHandler {
  return async (req: Request, res: Response) => {
    res.setHeader("Cache-Control", "no-store");
    if (!options.token) {
      res.status(404).json({ error: { code: "not_found", message: "Not found" } });
      return;
    }
    const match = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "");
    if (!match?.[1] || !sameToken(match[1], options.token)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      res.status(401).json({ error: { code: "unauthorized", message: "A valid metrics token is required" } });
      return;
    }
    await Promise.all([...pendingRecords]);
    await refreshGauges(options.database, options.poolMax);
    res.setHeader("Content-Type", registry.contentType);
    res.send(await registry.metrics());
  };
}
