import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as ConfigModule from "@platform/config";
import { createTestDatabase } from "@platform/testing/database";
import type { ServerBuild } from "react-router";
import { createServer, type ViteDevServer } from "vite";
import type * as AppModule from "../app";

/**
 * The real Express app from createApp(), served through a Vite dev server in middleware mode as
 * server.js does in development, on a fresh test database (PGlite in memory, or PostgreSQL with
 * TEST_DATABASE_URL). createApp and loadConfig come through Vite too, so the app and the route
 * modules share one copy of the router context. For integration tests; call stop() in afterAll.
 */
export type DevApp = {
  base: string;
  running: Awaited<ReturnType<typeof AppModule.createApp>>;
  vite: ViteDevServer;
  stop(): Promise<void>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export async function startDevApp(env: Record<string, string>, label: string): Promise<DevApp> {
  const vite = await createServer({
    root,
    configFile: path.join(root, "vite.config.ts"),
    logLevel: "warn",
    server: { middlewareMode: true },
    appType: "custom",
  });
  const { createApp } = (await vite.ssrLoadModule("/server/app.ts")) as typeof AppModule;
  const { loadConfig } = (await vite.ssrLoadModule("/platform/config.ts")) as typeof ConfigModule;
  const dataDir = mkdtempSync(path.join(tmpdir(), `${label}-`));
  const testDb = await createTestDatabase({ label });
  const config = { ...loadConfig({ LOG_LEVEL: "silent", DATA_DIR: dataDir, ...env }), database: testDb.config };
  const running = await createApp({
    config,
    dev: {
      middlewares: vite.middlewares,
      loadBuild: () => vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>,
    },
  });
  const server = running.app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    running,
    vite,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await running.close();
      await testDb.drop();
      await vite.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
