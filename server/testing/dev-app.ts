import { mkdtempSync, rmSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as ConfigModule from "@platform/config";
import type { DatabaseConfig } from "@platform/db/client";
import { type CreateTestDatabaseOptions, createTestDatabase, type TestDatabase } from "@platform/testing/database";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import type * as AppModule from "../app";

/**
 * The real Express app from createApp(), served through a Vite dev server in middleware mode as
 * server.js does in development, for integration tests. createApp and loadConfig come through Vite
 * too, so the app and the route modules share one copy of the router context (looked up by identity);
 * load other app modules with `vite.ssrLoadModule` for the same reason.
 *
 * - startDevApp(env, label): one instance on a fresh test database (PGlite in memory, or a PostgreSQL
 *   database with TEST_DATABASE_URL). Call stop() in afterAll.
 * - startDevApps(count, env, options): one install scaled out: `count` instances over ONE fresh
 *   PostgreSQL test database and one DATA_DIR, started one after the other (the first migrates, as in
 *   a rollout). PostgreSQL only (TEST_DATABASE_URL): the embedded database is one process's.
 * - startDevServer(): the worker's shared Vite server; serve() starts instances with any database and DATA_DIR.
 *
 * Vite runs without HMR and its WebSocket server: tests edit no files, and several Vite servers
 * (in one file or in parallel files) would otherwise race for the HMR port 24678.
 */
export type Running = Awaited<ReturnType<typeof AppModule.createApp>>;

/** One listening app instance. */
export type AppInstance = {
  base: string;
  running: Running;
  /** Closes the connections, the server and the app; drops what serve() created for it. Safe twice. */
  stop(): Promise<void>;
};

export type ServeOptions = {
  /**
   * The database: a config to use as given (not dropped), "config" for what loadConfig finds in the
   * env (DATABASE_URL, else the embedded database under DATA_DIR), or by default a fresh test database
   * dropped at stop().
   */
  database?: DatabaseConfig | "config";
  /** The DATA_DIR (kept at stop); by default a fresh temporary one, removed at stop(). */
  dataDir?: string;
  /** Names the temporary database and directory, to tell where a leftover came from. */
  label?: string;
  /** The app's logger (to read what it logs); by default pino at LOG_LEVEL, silent unless given. */
  logger?: AppModule.CreateAppOptions["logger"];
};

export type DevServer = {
  vite: ViteDevServer;
  /** Starts an instance; env is what loadConfig reads, LOG_LEVEL=silent unless given. */
  serve(env?: Record<string, string>, options?: ServeOptions): Promise<AppInstance>;
  /** Stops every instance still running (the Vite server stays, shared by the worker's next files). */
  close(): Promise<void>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** A port nothing listens on now (for an app whose own address must be known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export function tempDir(label: string): string {
  return mkdtempSync(path.join(tmpdir(), `${label}-`));
}

type Loaded = {
  vite: ViteDevServer;
  createApp: typeof AppModule.createApp;
  loadConfig: typeof ConfigModule.loadConfig;
};

let shared: Promise<Loaded> | undefined;

/**
 * The process's one Vite dev server, with createApp and loadConfig loaded through it. Starting one and loading the
 * app through it costs about 20 s of CPU, and the first pages another 13 s while Vite transforms the route modules:
 * a file of its own paid that, 49 files a run. The integration project runs without isolation (vitest.config.ts),
 * so the files a worker runs share this server and its transformed modules; each file still gets its own app
 * instances and databases (startDevApps already ran several instances over one Vite server). No file watcher:
 * tests edit no files. It is never closed by a file: the worker's exit ends it.
 */
function loadShared(): Promise<Loaded> {
  shared ??= (async () => {
    const vite = await createServer({
      root,
      configFile: path.join(root, "vite.config.ts"),
      logLevel: "warn",
      server: { middlewareMode: true, hmr: false, ws: false, watch: null },
      appType: "custom",
    });
    try {
      const { createApp } = (await vite.ssrLoadModule("/server/app.ts")) as typeof AppModule;
      const { loadConfig } = (await vite.ssrLoadModule("/platform/config.ts")) as typeof ConfigModule;
      return { vite, createApp, loadConfig };
    } catch (error) {
      await vite.close();
      throw error;
    }
  })();
  shared.catch(() => {
    shared = undefined;
  });
  return shared;
}

export async function startDevServer(): Promise<DevServer> {
  const { vite, createApp, loadConfig } = await loadShared();
  const live = new Set<AppInstance>();

  async function serve(env: Record<string, string> = {}, options: ServeOptions = {}): Promise<AppInstance> {
    const label = options.label ?? "app";
    const ownDataDir = options.dataDir ? null : tempDir(label.replace(/_/g, "-"));
    const dataDir = options.dataDir ?? (ownDataDir as string);
    const ownDb = options.database ? null : await createTestDatabase({ label, migrated: true });
    const fromEnv = loadConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, ...env });
    const database = ownDb ? ownDb.config : options.database === "config" ? fromEnv.database : options.database;
    const running = await createApp({
      config: { ...fromEnv, database: database as DatabaseConfig },
      ...(options.logger ? { logger: options.logger } : {}),
      dev: {
        middlewares: vite.middlewares,
        loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
      },
    });
    // A free port unless the test names one (the local LINE fakes are called back on PORT).
    const server = running.app.listen(Number(env.PORT ?? 0), "127.0.0.1");
    // As server.js: the client (fetch keeps an idle socket 4 s) always closes an idle connection first. With Node's
    // default 5 s a loaded machine let the server close a socket just as a test reused it (ECONNRESET).
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once("listening", resolve);
      server.once("error", reject);
    });
    let stopped: Promise<void> | null = null;
    const instance: AppInstance = {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      running,
      stop() {
        stopped ??= (async () => {
          live.delete(instance);
          server.closeAllConnections();
          await new Promise<void>((resolve) => server.close(() => resolve()));
          await running.close();
          await ownDb?.drop();
          if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
    live.add(instance);
    return instance;
  }

  return {
    vite,
    serve,
    async close() {
      for (const instance of [...live].reverse()) await instance.stop();
    },
  };
}

/** One instance on a fresh test database: its URL, the running app and the Vite server. */
export type DevApp = AppInstance & { vite: ViteDevServer };

export async function startDevApp(env: Record<string, string>, label: string): Promise<DevApp> {
  const dev = await startDevServer();
  const instance = await dev.serve(env, { label });
  return { ...instance, vite: dev.vite, stop: () => dev.close() };
}

export type DevApps = {
  instances: AppInstance[];
  vite: ViteDevServer;
  database: TestDatabase;
  stop(): Promise<void>;
};

/**
 * `count` instances of one install over ONE fresh test database and one DATA_DIR (so one
 * SESSION_SECRET), as a deployment with several app processes behind a load balancer.
 */
export async function startDevApps(
  count: number,
  env: Record<string, string>,
  options: Pick<CreateTestDatabaseOptions, "label" | "poolMax"> = {},
): Promise<DevApps> {
  const label = options.label ?? "apps";
  const database = await createTestDatabase({ label, poolMax: options.poolMax, migrated: true });
  if (database.driver !== "postgres") throw new Error("Several app instances need TEST_DATABASE_URL (PostgreSQL)");
  const dataDir = tempDir(label.replace(/_/g, "-"));
  const dev = await startDevServer();
  const instances: AppInstance[] = [];
  const stop = async () => {
    await dev.close();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    // One after the other: the first migrates, the next find the schema up to date.
    for (let i = 0; i < count; i++) instances.push(await dev.serve(env, { database: database.config, dataDir }));
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, vite: dev.vite, database, stop };
}
