import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { constants as zlibConstants } from "node:zlib";
import { type CacheBus, startCacheBus } from "@platform/cache/bus";
import { attachCacheBus, detachCacheBus } from "@platform/cache/shared-cache";
import { type AppConfig, CLIENT_ADDRESS_HEADER, LOCAL_LINE_PATH, loadConfig } from "@platform/config";
import { setAvailabilityLogger } from "@platform/db/availability";
import { type DatabaseHandle, openDatabase } from "@platform/db/client";
import { loadDeferredModules } from "@platform/deferred-modules";
import { type JobQueue, startJobQueue } from "@platform/jobs/queue";
import type { WokenWorker } from "@platform/jobs/woken-worker";
import { createLogger, type Logger } from "@platform/logger";
import { createRequestGate } from "@platform/request-gate";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { appContext } from "../app/adapters/context.server";
import { registerAppointmentJobs } from "../app/domain/appointments/messages.server";
import { registerNoShowJob } from "../app/domain/appointments/no-show.server";
import { registerAuditCheck } from "../app/domain/audit/chain-check.server";
import { createAuth } from "../app/domain/auth/auth.server";
import { registerAccountHousekeeping } from "../app/domain/auth/housekeeping.server";
import { loadArgon2 } from "../app/domain/auth/passwords.server";
import { warmUpCatalogue } from "../app/domain/catalog/warm-up.server";
import { bumpContentVersion } from "../app/domain/content/drafts.server";
import { seedCatalog, seedCatalogIfEmpty } from "../app/domain/demo";
import { DEMO_MEMBER, seedDemoMember } from "../app/domain/demo/demo-member";
import { seedDemoStaff } from "../app/domain/demo/demo-staff";
import { IMAGE_UPLOAD_PATH, MAX_IMAGE_BYTES } from "../app/domain/images/limits";
import { loadSharp } from "../app/domain/images/sharp.server";
import { GRANT_FILE_MAX_BYTES, registerGrantJobs } from "../app/domain/imports/grants.server";
import { registerImportJobs } from "../app/domain/imports/runs.server";
import { createLineMessagingClient } from "../app/domain/line/messaging.server";
import { createLineRichMenuClient } from "../app/domain/line/rich-menu-client.server";
import { type RichMenuDispatcher, startRichMenuDispatcher } from "../app/domain/line/rich-menu-links.server";
import { registerLoyaltyJobs } from "../app/domain/loyalty/jobs.server";
import type { DeliveryDeps } from "../app/domain/member-messages/delivery.server";
import { type Dispatcher, registerReminderJobs, startDispatcher } from "../app/domain/member-messages/jobs.server";
import { registerPosHousekeeping } from "../app/domain/pos/housekeeping.server";
import { registerQuoteJobs } from "../app/domain/quotes/quotes.server";
import { registerReportsHousekeeping } from "../app/domain/reports/housekeeping.server";
import { registerSampleJobs } from "../app/domain/samples/samples.server";
import { registerRfmJob } from "../app/domain/segments/rfm.server";
import { startWebhookDispatcher } from "../app/domain/webhooks/delivery.server";
import { registerWebhookHousekeeping } from "../app/domain/webhooks/housekeeping.server";
import { adminsToldOfDisabled } from "../app/domain/webhooks/notify.server";
import { sealStoredWebhookSecrets } from "../app/domain/webhooks/secret-at-rest.server";
import { createSender } from "../app/domain/webhooks/send.server";
import { CATALOG_PATH_PREFIX } from "../app/lib/i18n";
import { catalogFileAt } from "../app/lib/i18n.server";
import { redactUrl } from "../app/lib/redact-url";
import { createApiV1Router } from "./api/v1";
import { API_V1_PATH } from "./api/v1/middleware/known-paths";
import { mountAuthEndpoints } from "./auth-endpoints";
import { watchContentVersion } from "./content-version";
import { httpCache } from "./http-cache";
import { lineCspOrigins } from "./line/csp";
import { createLocalLineMessaging } from "./line/local-messaging";
import { createLocalLineProvider } from "./line/local-provider";
import { LINE_WEBHOOK_PATH, lineWebhookRouter } from "./line/webhook";
import { mediaHandler } from "./media";
import { type MessagingSetup, startMessaging } from "./messaging";
import { httpMetrics, metricsEndpoint } from "./metrics";
import { precompressedAssets } from "./precompressed-assets";
import { apiWhileDatabaseUnavailable, pagesWhileDatabaseUnavailable, readiness } from "./readiness";
import { apiSecurityHeaders, originCheck, securityHeaders } from "./security";
import { testHooks } from "./test-hooks";
import { wholePageCompression } from "./whole-page-compression";

/** Requests with a larger body are refused with 413 before anything reads them. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * The member import's upload pages (issue 35) take files of up to 100 MB each: the page itself refuses a larger
 * one by its Content-Length, in words beside the file field, and counts the body as it streams.
 */
const IMPORT_UPLOAD_PATH = /^\/admin\/imports\/(?:firebase|csv)(?:\.data)?$/;
const RICH_MENU_FORM_PATH = /^\/admin\/rich-menus\/[a-z]{1,20}(?:\.data)?$/;

/** The paths with a larger body: the console's image upload (the file itself, ADR 028), the import uploads, a bulk grant's CSV. */
function bodyLimitFor(path: string): number {
  if (IMPORT_UPLOAD_PATH.test(path)) return Number.POSITIVE_INFINITY;
  // A rich menu's form carries its image (LINE's limit is 1 MB; a larger one is refused beside the field, ADR 049).
  if (RICH_MENU_FORM_PATH.test(path)) return 2 * 1024 * 1024;
  // The grant page refuses a file over its limit itself, beside the field: the body may be a little larger.
  if (path === "/admin/grants/new" || path === "/admin/grants/new.data") return GRANT_FILE_MAX_BYTES + 1024 * 1024;
  return path === IMAGE_UPLOAD_PATH ? MAX_IMAGE_BYTES : BODY_LIMIT_BYTES;
}

export { auditVerifyCommand, createAdminCommand } from "./cli";

export type CreateAppOptions = {
  config?: AppConfig;
  /** Vite dev server hooks; absent in production, where the bundled build is used. */
  dev?: {
    middlewares: express.RequestHandler;
    loadBuild: () => Promise<ServerBuild>;
  };
  /** Tests: a logger of their own (to read what the app logs); by default pino on stdout at LOG_LEVEL. */
  logger?: Logger;
};

export type RunningApp = {
  app: express.Express;
  config: AppConfig;
  logger: Logger;
  database: DatabaseHandle;
  jobs: JobQueue;
  /** The invalidation bus of this instance's session, summary and API-key caches (ADR 026). */
  cacheBus: CacheBus;
  messaging: MessagingSetup;
  /** This instance's delivery of messages to members (ADR 034). */
  dispatcher: Dispatcher;
  delivery: DeliveryDeps;
  /** This instance's rich-menu linking (ADR 049); null when LINE messages are off. */
  richMenuDispatcher: RichMenuDispatcher | null;
  /** This instance's share of the outbound webhooks (ADR 054). */
  webhookDispatcher: WokenWorker;
  /**
   * Loads the native modules that load on first use (sharp, argon2; ADR 030) once the instance is serving, so a
   * broken install is in the log within seconds of the start rather than at the first upload or login.
   */
  loadDeferredModules(): Promise<void>;
  /** Marks the app as draining (readyz answers 503), stops the job workers and closes the database. */
  close(): Promise<void>;
  beginShutdown(): void;
};

const REQUEST_ID = /^[A-Za-z0-9._-]{8,128}$/;

/** A path the POS API's router is mounted on (as written in its documentation; Express also matches other cases). */
const isApiV1Path = (requestPath: string) =>
  requestPath.startsWith(API_V1_PATH) &&
  (requestPath.length === API_V1_PATH.length || requestPath[API_V1_PATH.length] === "/");

/**
 * How hard pages and data responses are compressed (see the compression middleware below): gzip level 3, or
 * brotli quality 2 for a client that takes it (smaller than gzip 3 and about half its CPU; issue 17).
 */
export const PAGE_COMPRESSION = { gzipLevel: 3, brotliQuality: 2 };

/** Names in the client build's folder besides `assets` (public/ files: favicon.svg…), read once at start. */
function topLevelFiles(clientDir: string): Set<string> {
  try {
    return new Set(readdirSync(clientDir).filter((name) => name !== "assets"));
  } catch {
    return new Set();
  }
}

export async function createApp(options: CreateAppOptions = {}): Promise<RunningApp> {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger(config.logLevel);
  // The database's outage is said once each way in this app's log (platform/db/availability.ts).
  const releaseAvailabilityLogger = setAvailabilityLogger(logger);
  const database = await openDatabase(config.database);
  await database.migrate();
  // The caches' invalidation bus (ADR 026): listening before the first request, so nothing is cached
  // that a change could leave stale.
  const listenUrl = config.database.kind === "postgres" ? config.database.listenUrl : undefined;
  const cacheBus = await startCacheBus(
    listenUrl ? { driver: "postgres", url: listenUrl } : database.connection,
    logger,
  );
  attachCacheBus(database.db, cacheBus);
  const auth = createAuth({ db: database.db, config });
  // The catalogue (seed, warm-up) and the job queue start side by side on PostgreSQL: they are independent,
  // and each is mostly waiting on the database (ADR 030, cold start).
  const catalogue = async () => {
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
    // Webhook secrets stored before they were sealed (ADR 054, "the secrets at rest"): sealed once, here.
    await sealStoredWebhookSecrets(database.db, config.secrets.session)
      .then((sealed) => sealed > 0 && logger.info({ sealed }, "webhook endpoint secrets sealed"))
      .catch((err) => logger.warn({ err }, "webhook endpoint secrets not sealed"));
    logger.info({ driver: database.driver, appEnv: config.appEnv }, "database ready");
  };
  // Every instance enqueues and runs jobs; the queue lives in the same database (ADR 005).
  const queue = async () => {
    const jobs = await startJobQueue({
      connection: database.connection,
      logger,
      poolMax: config.jobs.poolMax,
    });
    const messaging = await startMessaging({ sms: config.sms, email: config.email, db: database.db, jobs });
    await Promise.all([
      registerAccountHousekeeping(jobs, database.db),
      registerLoyaltyJobs(jobs, database.db),
      registerGrantJobs(jobs, database.db),
      registerImportJobs(jobs, database.db),
      registerPosHousekeeping(jobs, database.db),
      registerReportsHousekeeping(jobs, database.db),
      registerWebhookHousekeeping(jobs, database.db),
      registerRfmJob(jobs, database.db),
      registerAuditCheck(jobs, { db: database.db, anchor: config.auditAnchor, logger }),
      registerReminderJobs(jobs, database.db),
      registerSampleJobs(jobs, database.db),
      registerNoShowJob(jobs, database.db),
      registerQuoteJobs(jobs, database.db),
    ]);
    logger.info({ sms: config.sms.provider, email: config.email.provider }, "job queue and messaging ready");
    return { jobs, messaging };
  };
  // On the embedded database, one connection serves both anyway: in turn, as before.
  const { jobs, messaging } =
    database.driver === "postgres" ? (await Promise.all([queue(), catalogue()]))[0] : await catalogue().then(queue);
  // Published catalogue changes empty every instance's render cache within seconds (ADR 027).
  const contentVersion = await watchContentVersion(database.db);
  // Messages to members (ADR 034): this instance's share of the delivery, woken by the queue's notifications, and
  // giving way to the requests this instance serves.
  const requestGate = createRequestGate();
  const delivery: DeliveryDeps = {
    db: database.db,
    line: config.lineMessaging.mode === "disabled" ? null : createLineMessagingClient(config.lineMessaging),
    sms: messaging.sms,
    email: messaging.email,
    secret: config.secrets.session,
    publicBaseUrl: config.publicBaseUrl,
    logger,
    // While pages are being served, a batch is followed by a rest eight times its length (it used the database
    // and the other core too): a 100,000-member campaign then takes about five minutes instead of half of one,
    // and member pages stay within 10 % of their speed (bench:messages).
    pace: async (workMs = 0) => {
      if (workMs > 0 && requestGate.busyWithin(1000))
        await new Promise((r) => setTimeout(r, Math.min(workMs * 8, 3000)));
      await requestGate.whenIdle();
    },
  };
  const dispatcher = startDispatcher(delivery, { subscribe: (l) => cacheBus.subscribe(l), logger });
  // Showroom appointments (issue 37): the confirmation at once, the reminder the day before at 10:00.
  await registerAppointmentJobs(jobs, delivery);
  // The LINE rich menus by member state (ADR 049): this instance's share of the linking, woken by the outbox.
  const richMenuDispatcher = delivery.line
    ? startRichMenuDispatcher(
        { db: database.db, richMenus: createLineRichMenuClient(delivery.line), logger },
        { subscribe: (l) => cacheBus.subscribe(l), logger },
      )
    : null;
  // Outbound webhooks (ADR 054): this instance's share of the outbox, woken by its triggers' notification.
  const webhookDispatcher = startWebhookDispatcher(
    {
      db: database.db,
      send: createSender({ production: config.isProduction }),
      serverSecret: config.secrets.session,
      logger,
      onDisabled: adminsToldOfDisabled(database.db, messaging.messaging),
    },
    { subscribe: (l) => cacheBus.subscribe(l), logger },
  );

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

  const clientDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../client");
  const staticFiles = options.dev ? null : topLevelFiles(clientDir);
  /** A path naming one of the build's top-level files or folders other than /assets (production only). */
  const isStaticFile = (requestPath: string) => staticFiles?.has(requestPath.split("/", 2)[1] ?? "") === true;

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
    // Requests first: the delivery of messages waits while this instance serves pages (platform/request-gate.ts).
    // (Not the test hooks, nor the local LINE fake, which the delivery itself calls.)
    if (!req.path.startsWith("/__")) {
      requestGate.started();
      res.once("close", () => requestGate.finished());
    }
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

  // The POS API's answers get their headers built once, without a CSP nonce (ADR 060); pages get theirs per request.
  const pageHeaders = securityHeaders({
    isProduction: config.isProduction,
    isViteDev: Boolean(options.dev),
    lineOrigins: lineCspOrigins(config.line),
  });
  const apiHeaders = apiSecurityHeaders({ isProduction: config.isProduction });
  app.use((req: Request, res: Response, next: NextFunction) =>
    isApiV1Path(req.path) ? apiHeaders(req, res, next) : pageHeaders(req, res, next),
  );
  // Pages and data are compressed per response (each carries its own CSP nonce), so their level is
  // chosen for CPU: gzip level 3 costs about a quarter of the default 6 on a 60 kB page for ~6 % more bytes,
  // brotli quality 2 less again (issue 17, bench/README.md). Other responses (files; the hashed assets
  // without a copy the build compressed) keep the defaults. A page that is complete when written is
  // compressed in one call inside it (whole-page-compression.ts).
  const pageCompression = compression({
    level: PAGE_COMPRESSION.gzipLevel,
    brotli: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: PAGE_COMPRESSION.brotliQuality } },
  });
  const wholePage = wholePageCompression(PAGE_COMPRESSION);
  const fileCompression = compression();
  // The POS API's writes answer a few hundred bytes of JSON, under the 1 kB below which nothing is compressed: they
  // skip the middleware's wrapping of every answer (ADR 060). Its reads (the OpenAPI document…) are compressed.
  app.use((req: Request, res: Response, next: NextFunction) =>
    req.method === "POST" && isApiV1Path(req.path)
      ? next()
      : req.path.startsWith("/assets/") || req.path.startsWith(CATALOG_PATH_PREFIX) || isStaticFile(req.path)
        ? fileCompression(req, res, next)
        : pageCompression(req, res, () => wholePage(req, res, next)),
  );

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

  // The message catalogs (app/lib/i18n.ts): named by their content's hash, so cached for a year. An old
  // build's name is a 404; its page reloads (entry.client.tsx).
  app.get(`${CATALOG_PATH_PREFIX}*path`, (req, res) => {
    const file = catalogFileAt(req.path);
    if (!file) {
      res.setHeader("Cache-Control", "no-store");
      res.status(404).json({ error: { code: "not_found", message: "No such catalog" } });
      return;
    }
    res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
    res.type("application/json").send(file.json);
  });

  // The local LINE Messaging API fake (no Messaging channel configured; never in production, ADR 032).
  let localMessaging: ReturnType<typeof createLocalLineMessaging> | null = null;
  if (config.lineMessaging.mode === "local") {
    if (config.isProduction) throw new Error("the local LINE Messaging API must never run in production");
    localMessaging = createLocalLineMessaging({
      channelSecret: config.lineMessaging.channelSecret,
      accessToken: config.lineMessaging.accessToken,
      webhookUrl: (req) => `${req.protocol}://${req.get("host")}/api/line/webhook`,
    });
  }

  app.use(originCheck(config.publicBaseUrl));

  // The Messaging fake takes LINE's own body sizes (a 500-id multicast is over the app's form limit).
  if (localMessaging) app.use(LOCAL_LINE_PATH, localMessaging.router);

  // Bodies: refuse oversized (413) and unmeasured (411) uploads before React Router reads them.
  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const length = req.get("content-length");
    if (length === undefined && req.get("transfer-encoding")) {
      res.status(411).json({ error: { code: "length_required", message: "Content-Length is required" } });
      return;
    }
    if (length !== undefined && Number(length) > bodyLimitFor(req.path)) {
      res.setHeader("Connection", "close");
      res.status(413).json({ error: { code: "payload_too_large", message: "Request body is too large" } });
      return;
    }
    next();
  });

  if (options.dev) {
    app.use(options.dev.middlewares);
  } else {
    // Hashed file names: cache for a year and never revalidate. Scripts and stylesheets go out as the copies
    // the build compressed (brotli 11, gzip 9; precompressed-assets.ts).
    const assetsDir = path.join(clientDir, "assets");
    app.use(
      "/assets",
      precompressedAssets(assetsDir, express.static(assetsDir, { immutable: true, maxAge: "1y", index: false })),
    );
    // The other files of the build (favicon…) are looked up only for their own names, not for every page
    // request (a stat of the disk each).
    const files = express.static(clientDir, { maxAge: "1h", index: false });
    app.use((req: Request, res: Response, next: NextFunction) =>
      isStaticFile(req.path) ? files(req, res, next) : next(),
    );
  }

  // better-auth over HTTP: only the endpoints our pages call (passkeys; ADR 019), every other
  // /api/auth path is a 404. Our actions call auth.api.* on the server for everything else.
  mountAuthEndpoints(app, auth);

  if (config.testHooks)
    app.use("/__test", testHooks({ db: database.db, auth, cardSecret: config.secrets.session, config, delivery }));

  // The local LINE-compatible provider: only when no channel is configured, never in production.
  if (config.line.mode === "local") {
    if (config.isProduction) throw new Error("the local LINE provider must never run in production");
    const localLine = createLocalLineProvider({
      channelId: config.line.channelId,
      channelSecret: config.line.channelSecret,
      keySeed: config.secrets.session,
      allowedRedirectOrigins: (req) => [new URL(config.publicBaseUrl).origin, `${req.protocol}://${req.get("host")}`],
      officialAccount: localMessaging ? officialAccountOf(localMessaging) : undefined,
    });
    app.use(LOCAL_LINE_PATH, localLine.router);
    logger.info({ path: LOCAL_LINE_PATH }, "local LINE provider mounted (no LINE channel configured)");
  }

  // The LINE Messaging API: its local fake (no Messaging channel configured, never in production)
  // and the webhook LINE calls (ADR 032). Without a channel in production there is no webhook.
  if (config.lineMessaging.mode !== "disabled") {
    app.use(LINE_WEBHOOK_PATH, apiWhileDatabaseUnavailable);
    app.use(
      LINE_WEBHOOK_PATH,
      lineWebhookRouter({
        db: database.db,
        channel: config.lineMessaging,
        publicBaseUrl: config.publicBaseUrl,
        logger,
      }),
    );
  }

  // The point-of-sale API (JSON, API keys, its own 404 with a stable code; docs/api.md).
  app.use(API_V1_PATH, apiWhileDatabaseUnavailable);
  app.use(
    API_V1_PATH,
    createApiV1Router({
      db: database.db,
      cardSecret: config.secrets.session,
      logger,
      purchaseWindowDays: config.pos.purchaseWindowDays,
    }),
  );

  // Uploaded images' variants (immutable addresses), before the page caches and React Router.
  app.get("/media/:hash/:file", mediaHandler({ db: database.db, config, logger }));

  // ETags for public pages; `private, no-store` for any request with a session.
  const pageCache = httpCache({
    renderCacheMs: config.renderCacheMs,
    testClock: config.appEnv === "test",
    contentVersion: contentVersion.current,
  });
  app.use(pageCache);

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
          delivery,
          dispatcher,
          config,
          logger: logger.child({ reqId: res.locals.requestId }),
          nonce: res.locals.nonce as string,
          requestId: res.locals.requestId as string,
          auth,
          ip: req.ip ?? null,
          // This instance at once; every other one within seconds, through the catalogue version (ADR 027).
          publicPages: {
            async invalidate() {
              pageCache.clear();
              await bumpContentVersion(database.db, new Date());
            },
            clearLocal() {
              pageCache.clear();
            },
          },
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
    cacheBus,
    messaging,
    dispatcher,
    delivery,
    richMenuDispatcher,
    webhookDispatcher,
    async loadDeferredModules() {
      await loadDeferredModules({ sharp: loadSharp, argon2: loadArgon2 }, logger);
    },
    beginShutdown() {
      shuttingDown = true;
    },
    async close() {
      shuttingDown = true;
      // Running jobs finish first (they may still write to the database).
      contentVersion.stop();
      await dispatcher.stop();
      await richMenuDispatcher?.stop();
      await webhookDispatcher.stop();
      await jobs.stop(config.shutdownTimeoutMs);
      messaging.close();
      detachCacheBus(database.db);
      await cacheBus.close();
      await database.close();
      releaseAvailabilityLogger();
    },
  };
}

/** The local Official Account as the local LINE Login provider's consent screen sees it. */
function officialAccountOf(fake: ReturnType<typeof createLocalLineMessaging>) {
  return {
    addFriend: (req: Request, userId: string) => fake.follow(req, userId),
    isFriend: (userId: string) => fake.following.get(userId) === true,
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

export { runImportCsv, runImportFirebase } from "../app/domain/imports/cli.server";
// The database operations' command-line entry points (scripts/db-operation.js loads them from the build).
export { runBackup, runMoveToPostgres, runRestore } from "../app/domain/operations/commands.server";
