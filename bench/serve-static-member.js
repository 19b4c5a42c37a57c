// The member center's own markup from a static loader (issue 36, `npm run bench`): our built app exactly as
// `node server.js` runs it (createApp from build/server/index.js: Express, request log, security headers, the page's
// one gzip, React Router, the same route modules and components), except that on the member center's route chain
// (root → … → routes/member-center/index) the session middleware and the terms gate do nothing, and every loader
// returns one fixed object: what it returned for the first GET /member-center this server answered, recorded once.
// So the difference to the real member center is what the session, the data and the caches add to the page.
//
// Usage (the bench starts it like the member server: NODE_ENV=production, APP_ENV=test, TEST_HOOKS_SECRET,
// DATA_DIR, PORT, HOST, SEED_DEMO_CONTENT):  node bench/serve-static-member.js [APP_DIR]
// Nothing here is in the production build: this file wraps the built route table from outside, before the app's
// request handler first reads it. Until the first member-center page is answered the loaders run as in production
// (they are recorded); from then on they are static, and a GET /member-center answers the page without a cookie.
import { readdirSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import process from "node:process";
import { pathToFileURL } from "node:url";

// As server.js does (ADR 030).
module.enableCompileCache?.();

const appDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
const assetsDir = path.join(appDir, "build", "server", "assets");
const chunk = readdirSync(assetsDir).find((name) => /^server-build-.*\.js$/.test(name));
if (!chunk) throw new Error(`no server-build-*.js in ${assetsDir}: run npm run build`);
// The same module instance build/server/index.js imports (same file URL), so the app sees these routes.
const { routes } = await import(pathToFileURL(path.join(assetsDir, chunk)).href);

const PAGE_ROUTE = "routes/member-center/index";
/** The middleware that are the session's and the data's work; the others (bad URL, outage) stay. */
const SKIPPED_MIDDLEWARE = new Set(["memberSessionMiddleware", "termsGateMiddleware"]);

const chain = [];
for (let id = PAGE_ROUTE; id; id = routes[id]?.parentId) {
  if (!routes[id]) throw new Error(`route ${id} is not in the build`);
  chain.push(id);
}
const recorded = new Map();
let isStatic = false;
const skipped = new Set();
for (const id of chain) {
  const entry = routes[id];
  const original = entry.module;
  const module = { ...original };
  if (original.middleware) {
    module.middleware = original.middleware.map((fn) => {
      if (!SKIPPED_MIDDLEWARE.has(fn.name)) return fn;
      skipped.add(fn.name);
      return (args, next) => (isStatic ? next() : fn(args, next));
    });
  }
  if (original.loader) {
    module.loader = async (args) => {
      if (isStatic) return recorded.get(id);
      const result = await original.loader(args);
      const { pathname } = new URL(args.request.url);
      if (args.request.method === "GET" && pathname === "/member-center") recorded.set(id, result);
      return result;
    };
  }
  entry.module = module;
}
for (const name of SKIPPED_MIDDLEWARE) {
  // A renamed middleware would otherwise silently stay in the "static" page.
  if (!skipped.has(name)) throw new Error(`${name} is not in the member center's route chain any more`);
}
const loaders = chain.filter((id) => routes[id].module.loader);
// Static once every loader of the chain has answered one member-center page (recorded in that request).
const checkRecorded = setInterval(() => {
  if (loaders.every((id) => recorded.has(id))) {
    isStatic = true;
    clearInterval(checkRecorded);
    console.log(`member center static: loaders of ${loaders.join(", ")} recorded`);
  }
}, 20);

const { createApp } = await import(pathToFileURL(path.join(appDir, "build", "server", "index.js")).href);
const running = await createApp();
const { app, config, logger } = running;
const server = app.listen(config.port, config.host, () => {
  logger.info({ port: server.address().port, chain }, "member center static-loader server listening");
  // As server.js does: the native modules that load on first use (sharp, argon2), a second after the start.
  setTimeout(() => void running.loadDeferredModules(), 1000).unref();
});
server.keepAliveTimeout = 65_000;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.on(signal, () => {
    server.close(async () => {
      await running.close();
      process.exit(0);
    });
    server.closeAllConnections();
  });
}
