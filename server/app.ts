import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AppConfig, CLIENT_ADDRESS_HEADER, LOCAL_LINE_PATH, loadConfig } from "@platform/config";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { type JobQueue, startJobQueue } from "@platform/jobs/queue";
import { createLogger, type Logger } from "@platform/logger";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { registerAuditCheck } from "../app/domain/audit/viewer.server";
import { createAuth } from "../app/domain/auth/auth.server";
import { registerAccountHousekeeping } from "../app/domain/auth/housekeeping.server";
import { warmUpCatalogue } from "../app/domain/catalog/warm-up.server";
import { seedCatalog, seedCatalogIfEmpty } from "../app/domain/demo";
import { DEMO_MEMBER, seedDemoMember } from "../app/domain/demo/demo-member";
import { seedDemoStaff } from "../app/domain/demo/demo-staff";
import { registerLoyaltyJobs } from "../app/domain/loyalty/jobs.server";
import { registerPosHousekeeping } from "../app/domain/pos/housekeeping.server";
import { appContext } from "../app/lib/context.server";
import { redactUrl } from "../app/lib/redact-url";
import { createApiV1Router } from "./api/v1";
import { mountAuthEndpoints } from "./auth-endpoints";
import { httpCache } from "./http-cache";
import { lineCspOrigins } from "./line/csp";
import { createLocalLineProvider } from "./line/local-provider";
import { type MessagingSetup, startMessaging } from "./messaging";
import { httpMetrics, metricsEndpoint } from "./metrics";
import { apiWhileDatabaseUnavailable, pagesWhileDatabaseUnavailable, readiness } from "./readiness";
import { originCheck, securityHeaders } from "./security";
import { testHooks } from "./test-hooks";

/** Requests with a larger body are refused with 413 before anything reads them. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export { auditVerifyCommand, createAdminCommand } from "./cli";

export type CreateAppOptions = {
  config?: AppConfig;
  /** Vite dev server hooks; absent in production, where the bundled build is used. */
  dev?: {
    middlewares: express.RequestHandler;
    loadBuild: () => Promise<ServerBuild>;
  };
};

export type RunningApp = {
  app: express.Express;
  config: AppConfig;
  logger: Logger;
  database: DatabaseHandle;
  jobs: JobQueue;
  messaging: MessagingSetup;
  /** Marks the app as draining (readyz answers 503), stops the job workers and closes the database. */
  close(): Promise<void>;
  beginShutdown(): void;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

export async function createApp(options: CreateAppOptions = {}): Promise<RunningApp> {
  const config = options.config ?? loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase(config.database);
  await database.migrate();
  const auth = createAuth({ db: database.db, config });
  if (config.seedDemoContent && (await seedCatalogIfEmpty(database.db))) logger.info("demo catalogue loaded");
  // A demo member with a year of history, on development databases only (its password is public).
  if (config.seedDemoContent && config.appEnv === "development") {
    await seedDemoMember({ db: database.db, auth })
      .then((created) => created && logger.info({ phone: DEMO_MEMBER.phoneNumber }, "demo member created"))
      .catch((err) => logger.warn({ err }, "demo member not created"));
    await seedDemoStaff(database.db, config.secrets.session)
      .then((created) => created > 0 && logger.info("demo admin and clerk created (README: console)"))
      .catch((err) => logger.warn({ err }, "demo staff not created"));
  }
  await warmUpCatalogue(database.db).catch((err) => logger.warn({ err }, "catalogue warm-up failed"));
  logger.info({ driver: database.driver, appEnv: config.appEnv }, "database ready");

  // Every instance enqueues and runs jobs; the queue lives in the same database (ADR 005).
  const jobs = await startJobQueue({
    connection: database.connection,
    logger,
    poolMax: config.jobs.poolMax,
  });
  const messaging = await startMessaging({ sms: config.sms, email: config.email, db: database.db, jobs });
  await registerAccountHousekeeping(jobs, database.db);
  await registerLoyaltyJobs(jobs, database.db);
  await registerPosHousekeeping(jobs, database.db);
  await registerAuditCheck(jobs, database.db);
  logger.info({ sms: config.sms.provider, email: config.email.provider }, "job queue and messaging ready");

  // Development reloads the build on every request (HMR); production loads it once, so React
  // Router does not rebuild its route table per request.
  let loadBuild: () => Promise<ServerBuild>;
  let requestBuild: ServerBuild | (() => Promise<ServerBuild>);
  if (options.dev) {
    loadBuild = options.dev.loadBuild;
    requestBuild = loadBuild;
  } else {
    const build = (await import("virtual:react-router/server-build")) as ServerBuild;
    loadBuild = async () => build;
    requestBuild = build;
  }
  let shuttingDown = false;

  const app = express();
  app.disable("x-powered-by");
  // A hop count or the proxies' addresses (never "any"): req.ip is then the address the trusted
  // proxy saw. Everything downstream (limits, logs, better-auth) takes the address from here.
  if (config.trustProxy !== false) app.set("trust proxy", config.trustProxy);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    req.headers[CLIENT_ADDRESS_HEADER] = req.ip ?? "";
    next();
  });

  // Request id and one JSON log line per request.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get("x-request-id");
    const requestId = incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    const started = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          reqId: requestId,
          method: req.method,
          url: redactUrl(req.originalUrl),
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
          bytes: Number(res.getHeader("content-length") ?? 0) || undefined,
          ip: req.ip,
        },
        "request",
      );
    });
    next();
  });

  app.use(httpMetrics(loadBuild));

  app.use(
    securityHeaders({
      isProduction: config.isProduction,
      isViteDev: Boolean(options.dev),
      lineOrigins: lineCspOrigins(config.line),
    }),
  );
  app.use(compression());

  app.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });

  app.get("/readyz", readiness({ database, draining: () => shuttingDown }));

  app.get(
    "/metrics",
    metricsEndpoint({
      token: config.metricsToken,
      database,
      poolMax: config.database.kind === "postgres" ? config.database.poolMax : null,
    }),
  );

  // The client polls this to learn that a new build is live (see app/lib/deploy.client.ts).
  app.get("/api/version", async (_req, res) => {
    const build = await loadBuild();
    res.setHeader("Cache-Control", "no-store");
    res.json({ version: build.assets.version });
  });

  app.use(originCheck(config.publicBaseUrl));

  // Bodies: refuse oversized (413) and unmeasured (411) uploads before React Router reads them.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding")) {
      res.status(411).json({ error: { code: "length_required", message: "Content-Length is required" } });
      return;
    }
    if (length !== undefined && Number(length) > BODY_LIMIT_BYTES) {
      res.setHeader("Connection", "close");
      res.status(413).json({ error: { code: "payload_too_large", message: "Request body is too large" } });
      return;
    }
    next();
  });

  if (options.dev) {
    app.use(options.dev.middlewares);
  } else {
    const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
    // Hashed file names: cache for a year and never revalidate.
    app.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
    app.use(express.static(clientDir, { maxAge: "1h", index: false }));
  }

  // better-auth over HTTP: only the endpoints our pages call (passkeys; ADR 019), every other
  // /api/auth path is a 404. Our actions call auth.api.* on the server for everything else.
  mountAuthEndpoints(app, auth);

  if (config.testHooks)
    app.use("/__test", testHooks({ db: database.db, auth, cardSecret: config.secrets.session, config }));

  // The local LINE-compatible provider: only when no channel is configured, never in production.
  if (config.line.mode === "local") {
    if (config.isProduction) throw new Error("the local LINE provider must never run in production");
    const localLine = createLocalLineProvider({
      channelId: config.line.channelId,
      channelSecret: config.line.channelSecret,
      keySeed: config.secrets.session,
      allowedRedirectOrigins: (req) => [new URL(config.publicBaseUrl).origin, `${req.protocol}://${req.get("host")}`],
    });
    app.use(LOCAL_LINE_PATH, localLine.router);
    logger.info({ path: LOCAL_LINE_PATH }, "local LINE provider mounted (no LINE channel configured)");
  }

  // The point-of-sale API (JSON, API keys, its own 404 with a stable code; docs/api.md).
  app.use("/api/v1", apiWhileDatabaseUnavailable);
  app.use(
    "/api/v1",
    createApiV1Router({
      db: database.db,
      cardSecret: config.secrets.session,
      logger,
      purchaseWindowDays: config.pos.purchaseWindowDays,
    }),
  );

  // ETags for public pages; `private, no-store` for any request with a session.
  app.use(httpCache({ renderCacheMs: config.renderCacheMs, testClock: config.appEnv === "test" }));

  app.use(pagesWhileDatabaseUnavailable);
  app.all(
    "/{*splat}",
    createRequestHandler({
      build: requestBuild,
      getLoadContext(req, res) {
        const context = new RouterContextProvider();
        context.set(appContext, {
          db: database.db,
          driver: database.driver,
          migrationStatus: database.migrationStatus,
          jobs,
          messaging: messaging.messaging,
          config,
          logger: logger.child({ reqId: res.locals.requestId }),
          nonce: res.locals.nonce as string,
          requestId: res.locals.requestId as string,
          auth,
          ip: req.ip ?? null,
        });
        return context;
      },
    }),
  );

  return {
    app,
    config,
    logger,
    database,
    jobs,
    messaging,
    beginShutdown() {
      shuttingDown = true;
    },
    async close() {
      shuttingDown = true;
      // Running jobs finish first (they may still write to the database).
      await jobs.stop(config.shutdownTimeoutMs);
      messaging.close();
      await database.close();
    },
  };
}

/**
 * `npm run db:seed`: migrate the configured database, then load (or refresh) the demo catalogue and
 * rewards; in development also the demo member (DEMO_MEMBER) unless it exists.
 */
export async function seedFromEnvironment() {
  const config = loadConfig();
  const database = await openDatabase(config.database);
  try {
    await database.migrate();
    const counts = await seedCatalog(database.db);
    const demoMember =
      config.appEnv === "development" &&
      (await seedDemoMember({ db: database.db, auth: createAuth({ db: database.db, config }) }));
    const demoStaff = config.appEnv === "development" && (await seedDemoStaff(database.db, config.secrets.session)) > 0;
    return { ...counts, demoMember, demoStaff };
  } finally {
    await database.close();
  }
}

// The database operations' command-line entry points (scripts/db-operation.js loads them from the build).
export { runBackup, runMoveToPostgres, runRestore } from "../app/domain/operations/commands.server";
