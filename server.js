// Entry point: `node server.js`. Development (NODE_ENV unset) serves through Vite with HMR;
// NODE_ENV=production serves the bundle from build/ (npm start builds it first).
import module from "node:module";
import process from "node:process";

// V8's compiled code for every module, kept on disk (os.tmpdir()/node-compile-cache) and reused by the next
// start: a restart compiles nothing it compiled before (ADR 030, cold start). A cache that cannot be
// written only costs that saving.
module.enableCompileCache?.();

const isViteDev = process.env.NODE_ENV !== "production";

async function main() {
  let running;
  try {
    if (isViteDev) {
      const vite = await import("vite");
      const viteDevServer = await vite.createServer({ server: { middlewareMode: true }, appType: "custom" });
      const { createApp } = await viteDevServer.ssrLoadModule("./server/app.ts");
      running = await createApp({
        dev: {
          middlewares: viteDevServer.middlewares,
          loadBuild: () => viteDevServer.ssrLoadModule("virtual:react-router/server-build"),
        },
      });
      running.onClose = () => viteDevServer.close();
    } else {
      const { createApp } = await import("./build/server/index.js");
      running = await createApp();
    }
  } catch (error) {
    if (error && error.name === "ConfigError") {
      console.error(error.message);
      process.exit(1);
    }
    console.error(error);
    process.exit(1);
  }

  const { app, config, logger } = running;
  const server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info({ port, url: `http://localhost:${port}` }, "listening");
    // A second after the first requests can be served: loading libvips blocks the event loop for a moment.
    setTimeout(() => void running.loadDeferredModules(), 1000).unref();
  });
  server.keepAliveTimeout = 65_000;

  let stopping = false;
  const shutdown = (signal) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down: no new connections, finishing in-flight requests");
    running.beginShutdown();
    const force = setTimeout(() => {
      logger.warn("shutdown timeout reached: closing remaining connections");
      server.closeAllConnections();
    }, config.shutdownTimeoutMs);
    force.unref();
    server.close(async () => {
      try {
        await running.close();
        await running.onClose?.();
      } finally {
        logger.info("stopped");
        process.exit(0);
      }
    });
    server.closeIdleConnections();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  // Started by scripts/start.js (npm start) with an IPC channel: if that wrapper disappears without
  // passing a signal on, drain and exit rather than run on as an orphan.
  if (process.channel) process.on("disconnect", () => shutdown("parent exited"));
}

main();
